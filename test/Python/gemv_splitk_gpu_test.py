"""The matrix-vector product with K split over blocks (kernels/gemv.mlir's
gemv_splitk, tile.arrive), on the GPU (gemv-splitk-gpu.test): each
instance on lengths that are and are not multiples of its tiles, with more
splits than k tiles (empty splits), B row-major and read in place as
N x K, launched three times on the same counters (each launch must leave
them zero), against a float64 reference; the result must be the same, bit
for bit, on every launch. With --time, against torch's x @ B (cuBLAS), the
unsplit gemv and tile_mlir.ops.gemm in alternating rounds, L2 flushed.
With --sweep, SPLIT x BK x STAGES configurations against cuBLAS in the
same turns: what the dispatch's gemv rules are chosen from.

Usage: gemv_splitk_gpu_test.py KERNELS_DIR [--time] [--sweep]
"""
import json
import os
import sys

import torch

import tile_mlir as tm

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from split_launches import split_launch_problems  # noqa: E402

kernels_dir = sys.argv[1]
torch.manual_seed(0)
dev = torch.device("cuda")
failed = 0

module = tm.Runtime(0).load(tm.compile(f"{kernels_dir}/gemv.mlir"))

# name: (SPLIT, BN, T, TRANS_B), as the instances bind them.
instances = {
    "gemv_splitk_f16": (2, 64, torch.float16, False),
    "gemv_splitk_bf16": (3, 64, torch.bfloat16, False),
    "gemv_splitk_nt_f16": (4, 32, torch.float16, True),
}


def row(n, dtype, fill=None):
    """A [1, n] tensor whose row stride is rounded up to 16 bytes (a
    single row's stride addresses nothing; TMA wants it aligned)."""
    per = 16 // torch.empty(0, dtype=dtype).element_size()
    t = torch.empty(1, -(-n // per) * per, device=dev, dtype=dtype)
    if fill is not None:
        t[:, :n] = fill
    return t[:, :n]


def buffers(split, bn, n):
    w = torch.empty(split, -(-n // 4) * 4, device=dev)[:, :n]
    count = torch.zeros(-(-n // bn), device=dev, dtype=torch.int32)
    return w, count


def operands(n, k, t, trans_b):
    x = row(k, t, torch.randn(1, k, device=dev).to(t))
    b = torch.randn(n, k, device=dev).to(t) if trans_b else \
        torch.randn(k, n, device=dev).to(t)
    return x, b


for name, (n, k) in [("gemv_splitk_f16", (4096, 4096)),
                     ("gemv_splitk_f16", (4104, 1000)),
                     ("gemv_splitk_f16", (200, 520)),
                     ("gemv_splitk_f16", (8, 24)),
                     ("gemv_splitk_bf16", (11008, 4096)),
                     ("gemv_splitk_bf16", (136, 264)),
                     ("gemv_splitk_nt_f16", (4099, 4104)),
                     ("gemv_splitk_nt_f16", (100, 24)),
                     ("gemv_splitk_nt_f16", (4096, 14336))]:
    split, bn, t, trans_b = instances[name]
    x, b = operands(n, k, t, trans_b)
    y = row(n, t)
    w, count = buffers(split, bn, n)
    ref = x.double() @ (b.double().t() if trans_b else b.double())
    tol = 4e-3 if t == torch.float16 else 2e-2
    problems = split_launch_problems(
        lambda: module.kernel(name).launch(x, b, y, w, count),  # noqa: B023
        y, count, ref, tol)
    failed += bool(problems)
    print(f"{name} 1x{n}x{k}: "
          f"{'ok' if not problems else 'FAILED ' + ', '.join(problems)}")

if "--time" in sys.argv or "--sweep" in sys.argv:
    from tile_mlir import dispatch, ops
    from tile_mlir.timing import l2_flush, median_in_turns, rel_fro
    flush = l2_flush()
    source = f"{kernels_dir}/gemv.mlir"
    compiled = {}

    def kernel(name, **params):
        key = (name, tuple(sorted(params.items())))
        if key not in compiled:
            compiled[key] = tm.Runtime(0).load(tm.compile(
                source, kernels=[name], params={"T": "f16", **params}))
        return compiled[key].kernel(name)

    if "--sweep" in sys.argv:
        configs = [dict(SPLIT=s, BK=bk, STAGES=st, BN=bn)
                   for s in (2, 3, 4) for bk in (128, 256)
                   for st in (4, 6) for bn in (32, 64)]
    else:
        configs = [dict(SPLIT=2, BK=128, STAGES=4, BN=64)]
    for trans_b, (n, k) in [(False, (4096, 4096)), (False, (8192, 8192)),
                            (False, (4096, 14336)), (True, (4096, 4096))]:
        x, b = operands(n, k, torch.float16, trans_b)
        rhs = b.t() if trans_b else b
        ref = (x.float() @ rhs.float())
        fns = [lambda: x @ rhs, lambda: ops.gemm(x, rhs)]  # noqa: E731
        names = ["cuBLAS", "ops.gemm"]
        # The unsplit kernel as the dispatch binds it (row-major B below
        # 8192 columns has no rule: the rule of 8192 and more).
        rule = dispatch.gemv_config(n, k, "f16", trans_b) or \
            dispatch.gemv_config(8192, k, "f16", trans_b)
        plain = kernel("gemv", **{p: v for p, v in rule.items() if p != "T"})
        y0 = row(n, torch.float16)
        fns.append(plain.prepare(x, b, y0))
        names.append("gemv")
        for cfg in configs:
            if not trans_b and cfg["BN"] < 64:
                continue
            kern = kernel("gemv_splitk", TRANS_B=trans_b, **cfg)
            y = row(n, torch.float16)
            w, count = buffers(cfg["SPLIT"], cfg["BN"], n)
            kern.launch(x, b, y, w, count)
            err = rel_fro(y, ref)
            if not err < 4e-3:
                failed += 1
                print(f"sweep {cfg} 1x{n}x{k}: FAILED rel {err:.3g}")
            fns.append(kern.prepare(x, b, y, w, count))
            names.append(json.dumps(cfg))
        times = median_in_turns(fns, flush=flush)
        ranked = sorted(zip(times[1:], names[1:]))
        split = [(t, nm) for t, nm in ranked if nm.startswith("{")]
        if split:
            print(f"best {'nt' if trans_b else 'nn'} 1x{n}x{k}: "
                  f"{split[0][1]} {times[0] / split[0][0]:.3f}x cuBLAS, "
                  f"{times[names.index('gemv')] / split[0][0]:.3f}x gemv")
        print(f"time {'nt' if trans_b else 'nn'} 1x{n}x{k}: cuBLAS "
              f"{times[0] * 1e3:.1f} us; " + ", ".join(
                  f"{nm} {t * 1e3:.1f} ({times[0] / t:.2f}x)"
                  for t, nm in ranked[:6]))

print("failed:", failed)
