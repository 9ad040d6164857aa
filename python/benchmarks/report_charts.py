"""The report's charts, from results.csv (and env.json when there is one)
alone: no GPU, no torch. Per operator:

- ratio_OP.png: per case, each of ours (the kernel as written, the tuned
  configuration) against each peer, as the peer's time over ours (above
  the 1.0 line: ours is faster);
- throughput_OP.png: per case, every implementation's TFLOP/s or TB/s,
  with the physical limit: the tensor-core peak measured in the same run
  by a large torch matmul, or for softmax the device-to-device copy of the
  same bytes (per case) and the run's large copy.

matplotlib draws them with its Agg backend (no display).
"""

from __future__ import annotations

from pathlib import Path

from report_data import LABELS, OPERATORS, View, limit

COLORS = {
    "ours": "#1f77b4", "ours-tuned": "#08306b", "ours-plain": "#9ecae1",
    "cublas": "#d62728", "cublaslt": "#ff7f0e", "torch": "#2ca02c",
    "sdpa-flash": "#9467bd", "sdpa-cudnn": "#8c564b", "copy": "#7f7f7f",
}
HATCH = {"ours": "", "ours-tuned": "//"}


def pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def subtitle(env: dict) -> str:
    smi = env.get("nvidia_smi_before", {})
    parts = [env.get("gpu") or smi.get("name", ""), env.get("date", "")]
    if smi.get("clocks.sm"):
        parts.append(f"SM clock {smi['clocks.sm']} MHz at the start")
    return ", ".join(p for p in parts if p)


def _bars(ax, cases, series, value, color, hatch, label):
    """Grouped bars: one group per case, one bar per series."""
    width = 0.8 / max(len(series), 1)
    for i, s in enumerate(series):
        xs = [j + (i - (len(series) - 1) / 2) * width
              for j in range(len(cases))]
        ys = [value(c, s) for c in cases]
        bars = ax.bar(xs, [y or 0 for y in ys], width, label=label(s),
                      color=color(s), hatch=hatch(s), edgecolor="white")
        ax.bar_label(bars, labels=["n/a" if y is None else f"{y:.2f}"
                                   if y < 10 else f"{y:.0f}" for y in ys],
                     fontsize=7, padding=2)
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels(cases, rotation=20, ha="right", fontsize=8)


def save(plt, fig, ax, path: Path) -> None:
    """The legend under the axes, nothing cut off."""
    ax.margins(y=0.12)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.22),
              ncol=3, frameon=False)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def ratio_chart(plt, view: View, env: dict, path: Path) -> bool:
    series = view.series()
    if not series:
        return False
    fig, ax = plt.subplots(figsize=(max(7, 1.6 * len(view.cases) + 2), 4.5))
    _bars(ax, view.cases, series,
          lambda c, s: view.ratio.get((c, *s)),
          lambda s: COLORS[s[1]], lambda s: HATCH[s[0]],
          lambda s: f"{LABELS[s[0]]} vs {LABELS[s[1]]}")
    ax.axhline(1.0, color="black", linewidth=1)
    ax.set_ylabel("peer time / our time (>1: ours faster)")
    ax.set_title(f"{view.spec.title} {view.dtype}: ours against each peer\n"
                 f"{subtitle(env)}", fontsize=10)
    save(plt, fig, ax, path)
    return True


def throughput_chart(plt, view: View, env: dict, path: Path) -> bool:
    impls = view.ours + [i for i in view.others if i == "ours-plain"] + \
        view.peers
    if not impls:
        return False
    fig, ax = plt.subplots(figsize=(max(7, 1.8 * len(view.cases) + 2), 4.5))
    _bars(ax, view.cases, impls, view.throughput, COLORS.get,
          lambda s: HATCH.get(s, ""), LABELS.get)
    if view.spec.limit == "peak":
        peak = limit(view, env, view.cases[0])
        if peak:
            shape = env["peak_tflops"][view.dtype].get("shape", "")
            ax.axhline(peak, color="black", linestyle="--", linewidth=1,
                       label=f"tensor-core peak, torch matmul {shape}: "
                             f"{peak:.0f}")
    elif env.get("copy_tbps"):
        ax.axhline(env["copy_tbps"], color="black", linestyle="--",
                   linewidth=1, label=f"copy of 1 GiB: "
                                      f"{env['copy_tbps']:.2f}")
    ax.set_ylabel(view.unit)
    what = ("the copy of the same bytes" if view.spec.limit == "copy"
            else "the tensor-core peak")
    ax.set_title(f"{view.spec.title} {view.dtype}: {view.unit} against "
                 f"{what}\n{subtitle(env)}", fontsize=10)
    save(plt, fig, ax, path)
    return True


def render(rows: list[dict], env: dict, directory: Path) -> list[Path]:
    """Draws the charts of every operator in `rows` into `directory`;
    returns the files written."""
    plt = pyplot()
    written = []
    for op in OPERATORS:
        if not any(r["op"] == op for r in rows):
            continue
        view = View(rows, op)
        for kind, draw in (("ratio", ratio_chart),
                           ("throughput", throughput_chart)):
            path = directory / f"{kind}_{op}.png"
            if draw(plt, view, env, path):
                written.append(path)
    return written
