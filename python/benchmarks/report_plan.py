"""What the report runs: the shape sets of each operator and the commands
that measure them (tile-bench for GEMM against cuBLAS and the fused GEMM
against cuBLASLt; the scripts of python/benchmarks against torch, SDPA and
the copy), each writing a CSV that report_run.py reads.

The shape sets are those of docs/BENCHMARKS.md; --quick keeps a few of
each for a check that everything runs.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

GEMM_SHAPES = ["4096x4096x4096", "8192x8192x8192", "4096x14336x4096",
               "8192x8192x1024", "256x8192x8192", "16384x2048x8192"]
GEMM_BIAS_GELU_SHAPES = ["4096x4096x4096", "8192x8192x8192"]
GELUS = ["tanh", "erf"]
SOFTMAX_SHAPES = ["16384x1024", "16384x4096", "8192x8192", "4096x32768",
                  "32768x512", "4096x50257", "65536x128"]
ATTENTION_SHAPES = ["8x16x4096x128", "8x32x4096x64"]  # BxHxSxD
MASKS = ["non-causal", "causal"]

QUICK = {
    "gemm": ["4096x4096x4096", "256x8192x8192"],
    "gemm_bias_gelu": ["4096x4096x4096"],
    "softmax": ["16384x4096", "4096x50257"],
    "attention": ["8x16x4096x128"],
}

OPS = ("gemm", "gemm_bias_gelu", "softmax", "attention")


@dataclass
class Job:
    """One command and what it should measure."""
    name: str                  # its log is logs/NAME.log
    op: str
    argv: list[str]
    csv: Path | None = None    # what it writes (None: a tuning step)
    source: str = ""           # report_data.SOURCES
    dtype: str = "f16"
    variant: str = ""          # for the rows of a script that has none
    # (shape, variant, impl) that should come out of it: any that does not
    # is recorded as missing.
    expect: list[tuple[str, str, str]] = field(default_factory=list)
    timeout_s: float = 600


@dataclass
class Settings:
    repo: Path
    build: Path
    out: Path
    ops: list[str]
    tuned: bool = False
    quick: bool = False
    iters: int = 50
    warmup: int = 10
    python: str = sys.executable


def shapes(s: Settings, op: str, full: list[str]) -> list[str]:
    return QUICK[op] if s.quick else full


def plan(s: Settings) -> list[Job]:
    """The jobs of the operators in s.ops, in order."""
    jobs: list[Job] = []
    for op in s.ops:
        jobs += {"gemm": gemm_jobs, "gemm_bias_gelu": gemm_bias_gelu_jobs,
                 "softmax": softmax_jobs,
                 "attention": attention_jobs}[op](s)
    return jobs


def _ours(tuned: bool) -> list[str]:
    return ["ours", "ours-tuned"] if tuned else ["ours"]


def tile_bench(s: Settings, name: str, op: str, kernel_file: str,
               kernel: str, sizes: list[str], variant: str,
               peers: list[str], extra: list[str] = ()) -> Job:
    csv = s.out / "raw" / f"{name}.csv"
    argv = [str(s.build / "bin" / "tile-bench"),
            str(s.repo / "kernels" / kernel_file), "--op", op,
            "--kernel", kernel, "--sizes", ",".join(sizes),
            "--iters", str(s.iters), "--warmup", str(s.warmup),
            "--csv", str(csv), *extra]
    if s.tuned:
        argv.append("--tuned")
    impls = _ours(s.tuned) + peers
    return Job(name, op, argv, csv, "tile-bench", variant=variant,
               expect=[(z, variant, i) for z in sizes for i in impls],
               timeout_s=1800 if s.tuned else 600)


def script(s: Settings, name: str, op: str, file: str,
           args: list[str]) -> Job:
    csv = s.out / "raw" / f"{name}.csv"
    argv = [s.python, str(s.repo / "python" / "benchmarks" / file), *args,
            "--iters", str(max(s.iters, 30)), "--warmup", str(s.warmup),
            "--csv", str(csv)]
    return Job(name, op, argv, csv, file)


def tile_tune(s: Settings, name: str, op: str, kernel_file: str,
              kernel: str, sizes: list[str], extra: list[str]) -> Job:
    """tile-tune writing the best configuration of each size into
    out/tuned, for a script's --tuned."""
    argv = [str(s.build / "bin" / "tile-tune"),
            str(s.repo / "kernels" / kernel_file), "--kernel", kernel,
            "--param", "T=f16", "--op", op, "--sizes", ",".join(sizes),
            "--emit-dir", str(s.out / "tuned"), "--no-progress", *extra]
    return Job(name, op, argv, timeout_s=1800)


def gemm_jobs(s: Settings) -> list[Job]:
    return [tile_bench(s, "gemm", "gemm", "gemm.mlir", "gemm_f16",
                       shapes(s, "gemm", GEMM_SHAPES), "", ["cublas"])]


def gemm_bias_gelu_jobs(s: Settings) -> list[Job]:
    sizes = shapes(s, "gemm_bias_gelu", GEMM_BIAS_GELU_SHAPES)
    jobs = [tile_bench(s, f"gemm_bias_gelu-{g}", "gemm_bias_gelu",
                       "gemm_bias_gelu.mlir",
                       "gemm_bias_gelu_f16" if g == "tanh"
                       else f"gemm_bias_gelu_{g}_f16",
                       sizes, g, ["ours-plain", "cublaslt"],
                       ["--gelu", g]) for g in GELUS]
    # torch: the unfused form and cuBLASLt's epilogue through torch, whose
    # GELU is the tanh form only.
    j = script(s, "gemm_bias_gelu-torch", "gemm_bias_gelu",
               "bench_gemm_bias_gelu.py", ["--sizes", ",".join(sizes)])
    j.variant = "tanh"
    j.expect = [(z, "tanh", i) for z in sizes
                for i in ("ours", "cublaslt", "torch")]
    return jobs + [j]


def softmax_jobs(s: Settings) -> list[Job]:
    sizes = shapes(s, "softmax", SOFTMAX_SHAPES)
    jobs = []
    args = ["--shapes", ",".join(sizes)]
    if s.tuned:
        jobs.append(tile_tune(s, "softmax-tune", "softmax", "softmax.mlir",
                              "softmax", sizes, []))
        args += ["--tuned", str(s.out / "tuned")]
    j = script(s, "softmax", "softmax", "bench_softmax.py", args)
    j.expect = [(z, "", i) for z in sizes
                for i in _ours(s.tuned) + ["torch", "copy"]]
    return jobs + [j]


def attention_jobs(s: Settings) -> list[Job]:
    sizes = shapes(s, "attention", ATTENTION_SHAPES)
    jobs = []
    args = ["--configs", ",".join(sizes), "--causal", "both"]
    if s.tuned:
        for mask in MASKS:
            jobs.append(tile_tune(
                s, f"attention-tune-{mask}", "attention",
                "flash_attention.mlir", "attention", sizes,
                ["--causal"] if mask == "causal" else []))
        args += ["--tuned", str(s.out / "tuned")]
    j = script(s, "attention", "attention", "bench_attention.py", args)
    j.expect = [(z, m, i) for z in sizes for m in MASKS
                for i in _ours(s.tuned) + ["sdpa-flash", "sdpa-cudnn"]]
    return jobs + [j]
