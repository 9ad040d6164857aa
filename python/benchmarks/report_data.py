"""The report's data: the tidy results table (results.csv), the operators
and their peers, and the ratios of ours to each peer.

One row per measurement: an implementation (`impl`) of an operator (`op`)
at one shape, element type and variant (the GELU form, the causal mask),
from one harness (`source`: tile-bench, or a script of python/benchmarks
against torch). Ratios are taken within one source, where ours and the
peer ran in the same process on the same inputs: peer time / our time,
above 1 when ours is faster.

Needs neither torch nor a GPU: --render-only reads results.csv alone.
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass
from pathlib import Path

# Our implementations: the kernel as written, and the tuned configuration.
OURS = ("ours", "ours-tuned")

PEERS = ("cublas", "cublaslt", "torch", "sdpa-flash", "sdpa-cudnn", "copy")

LABELS = {
    "ours": "ours",
    "ours-tuned": "ours tuned",
    "ours-plain": "ours plain GEMM",
    "cublas": "cuBLAS",
    "cublaslt": "cuBLASLt",
    "torch": "torch",
    "sdpa-flash": "SDPA flash",
    "sdpa-cudnn": "SDPA cuDNN",
    "copy": "copy",
}

# The harnesses in the order their measurement is preferred when two
# measure the same thing (tile-bench's and the torch script's cuBLASLt).
SOURCES = ("tile-bench", "bench_gemm_bias_gelu.py", "bench_softmax.py",
           "bench_attention.py")

COLUMNS = ["op", "shape", "dtype", "variant", "impl", "kernel", "ms",
           "throughput", "unit", "rel_err", "check", "source",
           *(f"vs_{p}" for p in PEERS)]


@dataclass(frozen=True)
class Operator:
    title: str
    peers: tuple[str, ...]
    # "peak": the tensor-core peak of the run's matmul (env.json);
    # "copy": the device-to-device copy bandwidth.
    limit: str


OPERATORS = {
    "gemm": Operator("GEMM", ("cublas",), "peak"),
    "gemm_bias_gelu": Operator("GEMM + bias + GELU", ("cublaslt", "torch"),
                               "peak"),
    "softmax": Operator("Row softmax", ("torch", "copy"), "copy"),
    "attention": Operator("FlashAttention forward",
                          ("sdpa-flash", "sdpa-cudnn"), "peak"),
}


def number(text) -> float | None:
    """A CSV cell as a float; None when empty or not a number."""
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def case(row: dict) -> str:
    """The label of a row's case: its shape, and its variant if any."""
    return f"{row['shape']} {row['variant']}".strip()


def with_ratios(rows: list[dict]) -> list[dict]:
    """`rows` with the vs_<peer> cells of our rows filled: the peer's time
    over ours, both from the row's source."""
    ms = {}
    for r in rows:
        t = number(r.get("ms"))
        if t:
            ms[(r["source"], r["op"], r["shape"], r["dtype"], r["variant"],
                r["impl"])] = t
    out = []
    for r in rows:
        r = {c: r.get(c, "") for c in COLUMNS}
        ours = number(r["ms"])
        for p in PEERS:
            key = (r["source"], r["op"], r["shape"], r["dtype"],
                   r["variant"], p)
            r[f"vs_{p}"] = (f"{ms[key] / ours:.4f}"
                            if r["impl"] in OURS and ours and key in ms
                            else "")
        out.append(r)
    return out


def write_csv(path: Path, rows: list[dict]) -> None:
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        w.writeheader()
        w.writerows(with_ratios(rows))


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    missing = [c for c in ("op", "shape", "impl", "ms", "source")
               if rows and c not in rows[0]]
    if missing:
        raise SystemExit(f"{path}: no column {', '.join(missing)}: not a "
                         "report's results.csv")
    return [{c: (r.get(c) or "") for c in COLUMNS} for r in rows]


def read_env(directory: Path) -> dict:
    """env.json of a report directory, or {} when there is none."""
    try:
        return json.loads((directory / "env.json").read_text())
    except (OSError, ValueError):
        return {}


class View:
    """What the charts and tables show of one operator: the cases in the
    order measured, per case and implementation the preferred row, and
    per case the ratio of each of ours to each peer."""

    def __init__(self, rows: list[dict], op: str):
        self.op = op
        self.spec = OPERATORS[op]
        rows = [r for r in rows if r["op"] == op]
        # Cases in the order of the run; of two sources, the first in
        # SOURCES gives a case's measurement of an implementation.
        self.cases: list[str] = list(dict.fromkeys(case(r) for r in rows))
        rank = {s: i for i, s in enumerate(SOURCES)}
        rows.sort(key=lambda r: rank.get(r["source"], len(SOURCES)))
        self.dtype = ""
        self.unit = ""
        self.row: dict[tuple[str, str], dict] = {}
        self.ratio: dict[tuple[str, str, str], float] = {}
        by_source: dict[tuple[str, str, str], dict] = {}
        for r in rows:
            c = case(r)
            self.dtype = self.dtype or r["dtype"]
            self.unit = self.unit or r["unit"]
            self.row.setdefault((c, r["impl"]), r)
            by_source[(r["source"], c, r["impl"])] = r
        for (source, c, impl), r in by_source.items():
            ours = number(r["ms"])
            if impl not in OURS or not ours:
                continue
            for p in self.spec.peers:
                peer = by_source.get((source, c, p))
                t = number(peer["ms"]) if peer else None
                if t:
                    self.ratio.setdefault((c, impl, p), t / ours)
        present = {impl for (_, impl) in self.row}
        self.ours = [i for i in OURS if i in present]
        self.peers = [p for p in self.spec.peers if p in present]
        self.others = [i for i in sorted(present)
                       if i not in OURS and i not in self.spec.peers]

    def throughput(self, c: str, impl: str) -> float | None:
        r = self.row.get((c, impl))
        return number(r["throughput"]) if r else None

    def check(self, c: str, impl: str) -> str:
        r = self.row.get((c, impl))
        return r["check"] if r else "missing"

    def series(self) -> list[tuple[str, str]]:
        """(ours, peer) pairs with at least one ratio."""
        return [(o, p) for o in self.ours for p in self.peers
                if any((c, o, p) in self.ratio for c in self.cases)]


def limit(view: View, env: dict, c: str) -> float | None:
    """The physical limit of case `c`, in the view's unit: the measured
    tensor-core peak of its element type, or the copy of the same bytes
    (the run's large copy where the case has none)."""
    if view.spec.limit == "copy":
        return view.throughput(c, "copy") or env.get("copy_tbps")
    peak = env.get("peak_tflops", {}).get(view.dtype or "f16")
    return peak.get("tflops") if isinstance(peak, dict) else None
