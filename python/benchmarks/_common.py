"""Shared pieces of the benchmarks: argument parsing, GPU facts, kernel
loading, numerical checks, CUDA-event timing with an L2 flush, and the
report table.

Everything is measured in one process with CUDA events on torch's current
stream (the default stream), where tile_mlir launches too: each timed run is
preceded by a 256 MB write that evicts the L2 (outside the timed span), and
the median of the runs after the warm-up is reported.

torch is imported lazily so that ``--help`` works without it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import _profile

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python"))

# The timing protocol and the check are the package's (tile_mlir.timing),
# which tile_mlir.autotune times and checks candidates with too.
from tile_mlir import timing  # noqa: E402
from tile_mlir.timing import rel_fro  # noqa: E402,F401


def parser(description: str, kernel_file: str) -> argparse.ArgumentParser:
    """An ArgumentParser with the options every benchmark takes."""
    p = argparse.ArgumentParser(
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Environment: TILE_MLIR_LIB_DIR (the directory holding "
               "libTileCAPI.so and libtile_rt.so; default <repo>/build/lib) "
               "and LD_LIBRARY_PATH (libMLIR.so.22.1, libLLVM.so.22.1).")
    p.add_argument("--kernel-file", default=str(REPO / kernel_file),
                   help="the .mlir file holding our kernels "
                        "(default: %(default)s)")
    p.add_argument("--iters", type=int, default=50,
                   help="timed runs per measurement; the median is "
                        "reported (default: %(default)s, at least 30)")
    p.add_argument("--warmup", type=int, default=10,
                   help="untimed runs first (default: %(default)s)")
    p.add_argument("--no-flush", action="store_true",
                   help="do not evict the L2 (256 MB write) before each run")
    p.add_argument("--seed", type=int, default=0, help="input RNG seed")
    p.add_argument("--device", type=int, default=0, help="CUDA device")
    p.add_argument("--tol", type=float, default=None,
                   help="largest relative Frobenius error accepted")
    p.add_argument("--csv", metavar="FILE",
                   help="also write the table as CSV to FILE (numbers "
                        "to 6 significant digits, a missing value empty)")
    _profile.add_options(p)
    return p


# --profile ncu|nsys: the benchmark's command under Nsight (_profile.py).
maybe_profile = _profile.maybe_profile


DTYPES = ("f16", "bf16")


def add_dtype_option(p: argparse.ArgumentParser, what: str) -> None:
    """--dtype f16|bf16, the element type of `what` and of our kernel's
    name suffix."""
    p.add_argument("--dtype", choices=DTYPES, default="f16",
                   help=f"element type of {what} (default: %(default)s)")


def torch_dtype(name: str):
    """The torch dtype of a kernel dtype name (f16, bf16)."""
    t = torch()
    return {"f16": t.float16, "bf16": t.bfloat16}[name]


def torch():
    """torch, imported on first use (so that --help needs no torch)."""
    try:
        import torch as _torch
    except ImportError as e:
        raise SystemExit(f"the benchmarks need torch with CUDA: {e}")
    return _torch


class Bench:
    """The process-wide set-up: torch on `device`, a tile_mlir Runtime on
    the same primary context, the L2 flush buffer and the timing settings."""

    def __init__(self, args: argparse.Namespace):
        if args.iters < 30:
            raise SystemExit("--iters must be at least 30")
        t = torch()
        if not t.cuda.is_available():
            raise SystemExit("no CUDA device visible to torch")
        import tile_mlir
        self.tm = tile_mlir
        self.args = args
        self.device = args.device
        t.cuda.set_device(self.device)
        t.manual_seed(args.seed)
        t.backends.cuda.matmul.allow_tf32 = False
        t.backends.cudnn.allow_tf32 = False
        self.rt = tile_mlir.Runtime(self.device)
        self._flush = None if args.no_flush else timing.l2_flush()
        self._compiled: dict[str, object] = {}
        self._modules: dict[str, object] = {}

    # -- Facts ------------------------------------------------------------ #

    def banner(self, title: str) -> None:
        t = torch()
        props = t.cuda.get_device_properties(self.device)
        print(f"# {title}")
        flush = "no L2 flush" if self.args.no_flush else \
            "256 MB L2 flush before each run"
        print(f"# GPU {self.device}: {props.name}, "
              f"{props.multi_processor_count} SMs, "
              f"{props.total_memory / 2**30:.0f} GiB; "
              f"{sm_clock(self.device)}")
        print(f"# torch {t.__version__}, CUDA {t.version.cuda}; "
              f"median of {self.args.iters} runs after {self.args.warmup} "
              f"warm-up, CUDA events, {flush}")

    # -- Our kernels ------------------------------------------------------ #

    def kernel(self, path: str, name: str):
        """Kernel `name` of `path`, compiled once per file and loaded; or
        the reason it is not available (a str)."""
        if path not in self._modules:
            try:
                compiled = self.tm.compile(Path(path))
                self._modules[path] = self.rt.load(compiled)
            except (OSError, self.tm.TileError) as e:
                self._modules[path] = f"{Path(path).name}: {e}"
        mod = self._modules[path]
        if isinstance(mod, str):
            return mod
        try:
            return mod.kernel(name)
        except self.tm.TileError as e:
            return f"{name}: {e}"

    def tuned_kernel(self, directory: str, name: str, shape: str):
        """The configuration tile-tune --emit-dir wrote for `shape` (its
        text, shown as the kernel's name) and its kernel; or the reason it
        is not available (a str) in place of the kernel."""
        stem = Path(directory) / f"{name}_{shape}"
        try:
            config = stem.with_suffix(".config").read_text().strip()
            compiled = self.tm.Compiled.load(stem.with_suffix(".cubin"),
                                             stem.with_suffix(".kinfo"))
            return config, self.rt.load(compiled).kernel(name)
        except (OSError, self.tm.TileError) as e:
            return f"{name} (tuned)", f"no tuned kernel for {shape}: {e}"

    # -- Timing ----------------------------------------------------------- #

    def flush(self) -> None:
        if self._flush is not None:
            self._flush()

    def time_ms(self, fn) -> float:
        """Median milliseconds of `fn()` on the current stream: warm-up
        runs, then `iters` runs each bracketed by CUDA events, each after an
        L2 flush that is not timed."""
        return self.time_in_turns([fn])[0]

    def time_in_turns(self, fns) -> list[float]:
        """Median milliseconds of each of `fns`, timed in turns
        (tile_mlir.timing.time_in_turns) with `--warmup`, `--iters` and the
        L2 flush unless `--no-flush`."""
        return timing.time_in_turns(fns, self.args.warmup, self.args.iters,
                                    self._flush)

    def def_over_tuned(self, default_run, tuned_run) -> float | None:
        """The default's time over the tuned one's, both timed in turns
        (None unless both run)."""
        if default_run is None or tuned_run is None:
            return None
        default_ms, tuned_ms = self.time_in_turns([default_run, tuned_run])
        return default_ms / tuned_ms

    def close(self) -> None:
        self._modules.clear()
        self.rt.close()


def sm_clock(device: int) -> str:
    """The SM clock now and its maximum, as nvidia-smi reports them."""
    try:
        out = subprocess.run(
            ["nvidia-smi", f"--id={device}",
             "--query-gpu=clocks.sm,clocks.max.sm,driver_version",
             "--format=csv,noheader"],
            capture_output=True, text=True, timeout=30)
        if out.returncode == 0 and out.stdout.strip():
            sm, max_sm, driver = (f.strip() for f in
                                  out.stdout.strip().split(","))
            return f"SM clock {sm} (max {max_sm}), driver {driver}"
        return f"nvidia-smi failed: {out.stderr.strip() or out.returncode}"
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"nvidia-smi unavailable ({e})"


def verdict(err: float, tol: float) -> str:
    if err != err:  # NaN
        return "FAIL(nan)"
    return f"{err:.1e}" + ("" if err <= tol else " FAIL")


# ===--------------------------------------------------------------------=== #
# Report
# ===--------------------------------------------------------------------=== #


@dataclass
class Table:
    columns: list[str]

    def __post_init__(self):
        self.rows: list[list[str]] = []
        self.values: list[list[str]] = []  # the CSV's cells, 6 significant digits
        self.notes: list[str] = []

    def add(self, *cells) -> None:
        self.rows.append([fmt(c) for c in cells])
        self.values.append([csv_cell(c) for c in cells])

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def print(self, csv_path: str | None = None) -> None:
        widths = [max(len(c), *(len(r[i]) for r in self.rows))
                  if self.rows else len(c)
                  for i, c in enumerate(self.columns)]
        line = "  ".join(c.rjust(w) for c, w in zip(self.columns, widths))
        print(line)
        print("-" * len(line))
        for r in self.rows:
            print("  ".join(c.rjust(w) for c, w in zip(r, widths)))
        for n in self.notes:
            print(f"note: {n}")
        if csv_path:
            import csv
            with open(csv_path, "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(self.columns)
                w.writerows(self.values)


def fmt(v) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, float):
        if v != v:
            return "nan"
        return f"{v:.3f}" if abs(v) < 100 else f"{v:.1f}"
    return str(v)


def csv_cell(v) -> str:
    """A CSV cell: numbers to 6 significant digits (the printed table
    rounds them for reading), nothing for a missing value."""
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a and b else None


def exit_code(table: Table) -> int:
    """1 when any numerical check failed, else 0."""
    return 1 if any("FAIL" in c for r in table.rows for c in r) else 0

