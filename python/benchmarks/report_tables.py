"""The report's tables, as Markdown (tables.md): the facts of the run, then
per operator one row per case with each implementation's throughput, the
ratio of each of ours to each peer, and ours against the physical limit;
then the runs that failed. From results.csv and env.json alone.

publish() puts them, with the charts, into docs/BENCHMARKS.md between its
`<!-- report:begin -->` and `<!-- report:end -->` lines.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from report_data import LABELS, OPERATORS, View, limit

BEGIN, END = "<!-- report:begin -->", "<!-- report:end -->"


def fmt(v: float | None, unit: str = "") -> str:
    if v is None:
        return "n/a"
    if unit == "x":
        return f"{v:.2f}x"
    return f"{v:.2f}" if v < 10 else f"{v:.0f}"


def facts(env: dict) -> list[str]:
    """The run's facts as a bullet list."""
    if not env:
        return ["(no env.json: the facts of the run are unknown)"]
    smi = env.get("nvidia_smi_before", {})
    after = env.get("nvidia_smi_after", {})
    gpu = env.get("gpu") or smi.get("name", "unknown GPU")
    sms = f", {env['sm_count']} SMs" if env.get("sm_count") else ""
    out = [f"Date: {env.get('date', 'unknown')}",
           f"GPU: {gpu}{sms}; driver {smi.get('driver_version', '?')} "
           f"(CUDA {smi.get('cuda_driver', '?')})",
           f"torch {env.get('torch', '?')} (CUDA {env.get('cuda', '?')}, "
           f"cuDNN {env.get('cudnn', '?')}); {env.get('ptxas', 'ptxas ?')}",
           f"SM clock: {smi.get('clocks.sm', '?')} MHz at the start, "
           f"{after.get('clocks.sm', '?')} MHz at the end (max "
           f"{smi.get('clocks.max.sm', '?')} MHz)"]
    peaks = env.get("peak_tflops") or {}
    if peaks:
        out.append("Tensor-core peak measured by torch.matmul: " + ", ".join(
            f"{k} {v['tflops']:.0f} TFLOP/s ({v['shape']})"
            for k, v in peaks.items() if isinstance(v, dict)))
    if env.get("copy_tbps"):
        out.append(f"Device-to-device copy of 1 GiB: "
                   f"{env['copy_tbps']:.2f} TB/s")
    if env.get("torch_error"):
        out.append(f"torch facts unavailable: {env['torch_error']}")
    settings = [f"median of {env['iters']} runs" if "iters" in env else "",
                "tuned configurations" if env.get("tuned") else "",
                "quick shape sets" if env.get("quick") else "",
                f"commit {env['commit']}" if env.get("commit") else ""]
    if any(settings):
        out.append("Run: " + ", ".join(s for s in settings if s))
    return out


def table(view: View, env: dict) -> list[str]:
    impls = view.ours + [i for i in view.others if i == "ours-plain"] + \
        view.peers
    series = view.series()
    # Against the copy, the ratio to the copy peer is the fraction of it.
    of_peak = view.ours if view.spec.limit == "peak" else []
    head = (["case"] + [f"{LABELS[i]} {view.unit}" for i in impls]
            + [f"{LABELS[o]} / {LABELS[p]}" for o, p in series]
            + [f"{LABELS[o]} of peak" for o in of_peak])
    lines = ["| " + " | ".join(head) + " |",
             "|" + "---|" * len(head)]
    for c in view.cases:
        cells = [c]
        for i in impls:
            check = view.check(c, i)
            value = fmt(view.throughput(c, i))
            cells.append(value if check in ("", "pass") or value == "n/a"
                         else f"{value} ({check})")
        cells += [fmt(view.ratio.get((c, o, p)), "x") for o, p in series]
        top = limit(view, env, c)
        for o in of_peak:
            t = view.throughput(c, o)
            cells.append(fmt(t / top if t and top else None))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def markdown(rows: list[dict], env: dict, images: str = "",
             charts: frozenset = frozenset()) -> str:
    """The tables as Markdown, each followed by those of its charts named
    in `charts`, at `images` + name."""
    out = [f"- {f}" for f in facts(env)]
    for op, spec in OPERATORS.items():
        if not any(r["op"] == op for r in rows):
            continue
        view = View(rows, op)
        out += ["", f"### {spec.title} ({view.dtype})", ""]
        out += table(view, env)
        shown = [f"![{spec.title}: {what}]({images}{kind}_{op}.png)"
                 for kind, what in (("ratio", "ours against each peer"),
                                    ("throughput", "throughput against "
                                                   "the limit"))
                 if f"{kind}_{op}.png" in charts]
        if shown:
            out += [""] + shown
    failed = [r for r in env.get("runs", []) if r.get("error")]
    if failed:
        out += ["", "Runs that failed (their measurements are n/a):", ""]
        out += [f"- `{r['name']}`: {r['error']} ({r['log']})"
                for r in failed]
    return "\n".join(out) + "\n"


def publish(directory: Path, doc: Path, rows: list[dict], env: dict) -> None:
    """Copies the charts of `directory` into benchmarks/ beside `doc` and
    replaces the marked section of `doc` by the tables and charts."""
    text = doc.read_text()
    if text.count(BEGIN) != 1 or text.count(END) != 1 or \
            text.index(BEGIN) > text.index(END):
        raise SystemExit(f"{doc}: wants one '{BEGIN}' line and one "
                         f"'{END}' line after it")
    target = doc.parent / "benchmarks"
    target.mkdir(exist_ok=True)
    charts = sorted(directory.glob("*.png"))
    for png in charts:
        shutil.copyfile(png, target / png.name)
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    doc.write_text(head + BEGIN + "\n"
                   + markdown(rows, env, "benchmarks/",
                              frozenset(p.name for p in charts))
                   + END + tail)
