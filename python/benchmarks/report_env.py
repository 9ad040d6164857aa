#!/usr/bin/env python3
"""The facts of a report's GPU that torch knows, and its physical limits
measured now: the tensor-core peak (the best of large fp16 and bf16
torch.matmul) and the device-to-device copy bandwidth (a 1 GiB copy_).
Prints them as one JSON object. Run by report.py in a process of its own,
so that the report itself needs no torch.

Each measurement is the median of --iters runs after --warmup, timed with
CUDA events; no L2 flush (the operands are far larger than the L2).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys

MATMUL_SHAPES = [(8192, 8192, 8192), (16384, 16384, 16384)]
COPY_BYTES = 1 << 30


def median_ms(torch, fn, warmup: int, iters: int) -> float:
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    events = [(torch.cuda.Event(enable_timing=True),
               torch.cuda.Event(enable_timing=True)) for _ in range(iters)]
    for start, end in events:
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in events)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--device", type=int, default=0)
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--warmup", type=int, default=5)
    args = p.parse_args(argv)
    import torch
    if not torch.cuda.is_available():
        raise SystemExit("no CUDA device visible to torch")
    torch.cuda.set_device(args.device)
    props = torch.cuda.get_device_properties(args.device)
    facts = {
        "gpu": props.name,
        "sm_count": props.multi_processor_count,
        "compute_capability": f"{props.major}.{props.minor}",
        "memory_gib": round(props.total_memory / 2**30, 1),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version(),
        "peak_tflops": {},
    }
    for name, dtype in (("f16", torch.float16), ("bf16", torch.bfloat16)):
        best = None
        for m, n, k in MATMUL_SHAPES:
            a = torch.randn(m, k, device="cuda", dtype=dtype)
            b = torch.randn(k, n, device="cuda", dtype=dtype)
            c = torch.empty(m, n, device="cuda", dtype=dtype)
            ms = median_ms(torch, lambda: torch.matmul(a, b, out=c),
                           args.warmup, args.iters)
            tflops = 2 * m * n * k / (ms * 1e-3) / 1e12
            if best is None or tflops > best["tflops"]:
                best = {"tflops": round(tflops, 1),
                        "shape": f"{m}x{n}x{k}", "ms": round(ms, 4)}
        facts["peak_tflops"][name] = best
    x = torch.empty(COPY_BYTES, device="cuda", dtype=torch.uint8)
    y = torch.empty_like(x)
    ms = median_ms(torch, lambda: y.copy_(x), args.warmup, args.iters)
    facts["copy_tbps"] = round(2 * COPY_BYTES / (ms * 1e-3) / 1e12, 3)
    facts["copy_bytes"] = COPY_BYTES
    json.dump(facts, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
