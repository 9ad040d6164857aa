"""Timing kernels the way the benchmarks do (python/benchmarks): on torch's
current stream, each run bracketed by CUDA events and preceded by an
untimed 256 MB write that evicts the L2, the median of the runs after a
warm-up, several kernels timed in turns. And the relative Frobenius error
that checks their outputs. torch is imported only when these are called.
"""

from __future__ import annotations

import math
import statistics

L2_FLUSH_BYTES = 256 << 20


def l2_flush(device=None, nbytes: int = L2_FLUSH_BYTES):
    """A callable that evicts the L2 of `device` (torch's current one by
    default) by writing `nbytes` there."""
    import torch
    buf = torch.empty(nbytes, dtype=torch.uint8,
                      device=device if device is not None else "cuda")
    return lambda: buf.fill_(1)


def time_in_turns(fns, warmup: int = 10, iters: int = 50,
                  flush=None) -> list[float]:
    """Median milliseconds of each of `fns`, timed in turns: `warmup` runs
    of each, then `iters` rounds that run each once (the first of a round
    rotating), each run after an untimed `flush()` (when given) and
    bracketed by CUDA events. A GPU under load drifts (clocks, temperature,
    power) by more than close kernels differ; runs that take turns meet
    the same conditions."""
    import torch
    for _ in range(warmup):
        for fn in fns:
            if flush is not None:
                flush()
            fn()
    torch.cuda.synchronize()
    n = len(fns)
    events = [[(torch.cuda.Event(enable_timing=True),
                torch.cuda.Event(enable_timing=True))
               for _ in range(iters)] for _ in fns]
    for r in range(iters):
        for j in range(n):
            k = (j + r) % n
            start, end = events[k][r]
            if flush is not None:
                flush()
            start.record()
            fns[k]()
            end.record()
    torch.cuda.synchronize()
    return [statistics.median(s.elapsed_time(e) for s, e in mine)
            for mine in events]


def rel_fro(out, ref) -> float:
    """Relative Frobenius-norm error of `out` against `ref`: torch tensors
    (in fp32) or sequences of numbers; the absolute one where `ref` is all
    zeros, NaN where either holds a NaN."""
    if hasattr(ref, "float") and hasattr(ref, "norm"):
        ref = ref.float()
        diff, scale = (out.float() - ref).norm().item(), ref.norm().item()
    else:
        diff = math.sqrt(math.fsum((o - r) ** 2 for o, r in zip(out, ref)))
        scale = math.sqrt(math.fsum(r * r for r in ref))
    return diff / scale if scale else diff
