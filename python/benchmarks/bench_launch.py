#!/usr/bin/env python3
"""Host time per launch of a small kernel, with torch tensors, in one
process: our softmax launched with tensors (the fast path: one C call), the
same by the general path, a prepared launch, torch.softmax, and a Triton
JIT softmax kernel (when Triton is installed).

A decode loop of small kernels is bound by this host time, not by the GPU.
Each measurement queues --calls launches back to back on torch's current
stream and divides the host time that took (the GPU is drained before,
and the queue holds them all, so no launch waits for the GPU); the rounds
alternate the candidates (the clock moves under load) and the medians of
--rounds rounds are reported.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python"))


def triton_softmax():
    """A Triton softmax launcher over rows of at most BLOCK columns, or
    None without Triton."""
    try:
        import triton
        import triton.language as tl
    except ImportError:
        return None

    @triton.jit
    def softmax_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < n
        x = tl.load(x_ptr + row * n + cols, mask=mask,
                    other=-float("inf")).to(tl.float32)
        e = tl.exp(x - tl.max(x, axis=0))
        y = e / tl.sum(e, axis=0)
        tl.store(y_ptr + row * n + cols, y.to(tl.float16), mask=mask)

    def launch(x, y):
        softmax_kernel[(x.shape[0],)](x, y, x.shape[1], BLOCK=128)
    return launch


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kernel-file", default=str(REPO / "kernels/softmax.mlir"))
    p.add_argument("--kernel", default="softmax_n128_f16")
    p.add_argument("--shape", default="4x64", help="ROWSxCOLS (small)")
    p.add_argument("--calls", type=int, default=500,
                   help="launches per measurement (default: %(default)s)")
    p.add_argument("--rounds", type=int, default=9,
                   help="alternating rounds; medians reported")
    p.add_argument("--json", metavar="FILE", help="also write the results")
    args = p.parse_args()

    import torch
    import tile_mlir as tm

    rows, cols = (int(v) for v in args.shape.lower().split("x"))
    x = torch.randn(rows, cols, dtype=torch.float16, device="cuda")
    y = torch.empty_like(x)
    rt = tm.Runtime(0)
    kernel = rt.load(tm.compile(args.kernel_file)).kernel(args.kernel)
    kernel.launch(x, y)
    torch.cuda.synchronize()
    err = ((y.float() - torch.softmax(x.float(), -1)).norm() /
           torch.softmax(x.float(), -1).norm()).item()
    if err > 1e-2:
        print(f"FAILED: our softmax is off by {err:.3g}", file=sys.stderr)
        return 1
    fast = tm.loaded_libraries().get("_tile_launch.abi3.so")
    prepared = kernel.prepare(x, y)

    candidates = {
        "tile_mlir launch": lambda: kernel.launch(x, y),
        "tile_mlir general path":
            lambda: kernel._prepare((x, y), None, check_now=False)(),
        "tile_mlir prepared": prepared,
        "torch.softmax": lambda: torch.softmax(x, -1),
    }
    tri = triton_softmax()
    if tri is not None:
        tri(x, y)  # compile outside the timing
        candidates["triton softmax"] = lambda: tri(x, y)

    def measure(fn) -> float:
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(args.calls):
            fn()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        return (t1 - t0) / args.calls * 1e6

    for fn in candidates.values():
        measure(fn)  # warm
    samples = {name: [] for name in candidates}
    for _ in range(args.rounds):
        for name, fn in candidates.items():
            samples[name].append(measure(fn))
    result = {name: statistics.median(v) for name, v in samples.items()}
    ref = result["torch.softmax"]
    print(f"host time per launch, {args.kernel} on {rows}x{cols} f16 "
          f"(fast path {'on' if fast else 'off'}), medians of "
          f"{args.rounds} rounds of {args.calls}:")
    for name, us in result.items():
        print(f"  {name:24s} {us:7.2f} us  ({us / ref:.2f}x torch.softmax)")
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"kernel": args.kernel, "shape": [rows, cols],
             "fast_path": bool(fast), "us_per_launch": result,
             "samples": samples}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
