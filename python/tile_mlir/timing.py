"""Timing kernels the way the tools, the tuner and the benchmarks do: the
protocol of libtile_tune.so (tile_tune_time_in_turns), on torch's current
stream, each run bracketed by CUDA events and preceded by an untimed 256 MB
write that evicts the L2 (the caller's tensors cannot be rotated past it
as the tools rotate their own inputs), the median of the runs after a
warm-up, several kernels timed in turns. And the relative Frobenius error
that checks their outputs. torch is imported only when these are called.
"""

from __future__ import annotations

import ctypes
import math

from . import _ffi

L2_FLUSH_BYTES = 256 << 20


def l2_flush(device=None, nbytes: int = L2_FLUSH_BYTES):
    """A callable that evicts the L2 of `device` (torch's current one by
    default) by writing `nbytes` there."""
    import torch
    buf = torch.empty(nbytes, dtype=torch.uint8,
                      device=device if device is not None else "cuda")
    return lambda: buf.fill_(1)


def _context(device: int):
    """The runtime's context of `device` (its primary context, torch's),
    made once and kept for the process."""
    ctx = _CONTEXTS.get(device)
    if ctx is None:
        ctx = ctypes.c_void_p()
        _ffi.check(_ffi.rt().tile_rt_context_create(ctypes.byref(ctx), device))
        _CONTEXTS[device] = ctx
    return ctx


_CONTEXTS: dict = {}


def time_in_turns(fns, warmup: int = 10, iters: int = 50,
                  flush=None, timeout_s: float = 60.0) -> list[float]:
    """Median milliseconds of each of `fns` by the project's one timing
    protocol (tile_tune_time_in_turns, the tools' and the tuner's own), on
    torch's current stream: `warmup` runs of each, then `iters` rounds
    that run each once in an order shuffled per round, each run bracketed
    by CUDA events and preceded, untimed, by `flush()` when given. A GPU
    under load drifts (clocks, temperature, power) by more than close
    kernels differ; runs that take turns meet the same conditions."""
    import torch
    n = len(fns)
    if n == 0:
        return []
    failures = []

    def callable_of(fn):
        def call(user, input_set, stream):
            try:
                fn()
                return 0
            except BaseException as e:  # re-raised below, after the C call
                failures.append(e)
                return 1
        return _ffi.tile_tune_run_fn(call)

    runs = (_ffi.tile_tune_run_fn * n)(*[callable_of(f) for f in fns])
    prepare = None
    if flush is not None:
        each = callable_of(flush)
        prepare = (_ffi.tile_tune_run_fn * n)(*([each] * n))
    users = (ctypes.c_void_p * n)()
    out = (ctypes.c_double * n)()
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    lib = _ffi.tune()
    rc = lib.tile_tune_time_in_turns(
        _context(torch.cuda.current_device()), stream, n, runs, prepare,
        users, 1, warmup, iters, timeout_s, out)
    if failures:
        raise failures[0]
    if rc != 0:
        why = (lib.tile_tune_last_error() or b"").decode(errors="replace")
        raise RuntimeError(f"timing failed: {why.strip()}")
    return list(out)


def median_in_turns(fns, rounds: int = 3, **kwargs) -> list[float]:
    """The median over `rounds` calls of time_in_turns (same arguments) of
    each of `fns`' times, in milliseconds: the SM clock moves within a run,
    so one call's medians can still fall on a slow stretch."""
    times = [time_in_turns(fns, **kwargs) for _ in range(rounds)]
    return [sorted(t[i] for t in times)[rounds // 2] for i in range(len(fns))]


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
