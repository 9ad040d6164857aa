"""The split-K GEMM that combines its partial tiles inside the kernel
(kernels/gemm_splitk_reduce.mlir, tile.arrive), on the GPU
(splitk-reduce-gpu.test): each instance on shapes that are and are not
multiples of its tiles, with more splits than k tiles (empty splits), B
read in place as N x K, launched three times on the same counters (each
launch must leave them zero), against a float64 reference; the result must
be the same, bit for bit, on every launch. With --time, against torch's
fp16 x @ W.T (cuBLAS) and tile_mlir.ops.gemm in alternating rounds, L2
flushed.

With --sweep, the same shapes over SPLIT x BN x STAGES configurations
(with TRANS_B as the shape's), each against cuBLAS in the same turns: what
the dispatch's split-K rules are chosen from.

Usage: splitk_reduce_gpu_test.py KERNELS_DIR [--time] [--sweep]
"""
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

module = tm.Runtime(0).load(
    tm.compile(f"{kernels_dir}/gemm_splitk_reduce.mlir"))

# name: (SPLIT, BM, BN, T, TRANS_B), as the instances bind them.
instances = {
    "gemm_splitk_reduce_f16": (2, 64, 64, torch.float16, False),
    "gemm_splitk_reduce_bf16": (3, 64, 64, torch.bfloat16, False),
    "gemm_splitk_reduce_nt_f16": (2, 64, 64, torch.float16, True),
    "gemm_splitk_reduce4_f16": (4, 64, 128, torch.float16, False),
    "gemm_splitk_reduce1_f16": (1, 128, 64, torch.float16, False),
}


def buffers(name, m, n):
    split, bm, bn, _, _ = instances[name]
    w = torch.empty(split, m, n, device=dev)
    count = torch.zeros(-(-m // bm) * -(-n // bn), device=dev,
                        dtype=torch.int32)
    return w, count


for name, (m, n, k) in [("gemm_splitk_reduce_f16", (16, 4096, 4096)),
                        ("gemm_splitk_reduce_f16", (100, 1000, 3000)),
                        ("gemm_splitk_reduce_f16", (1, 200, 520)),
                        ("gemm_splitk_reduce_bf16", (77, 200, 1000)),
                        ("gemm_splitk_reduce_bf16", (64, 256, 128)),
                        ("gemm_splitk_reduce_nt_f16", (16, 4104, 4096)),
                        ("gemm_splitk_reduce_nt_f16", (33, 136, 264)),
                        ("gemm_splitk_reduce4_f16", (64, 256, 64)),
                        ("gemm_splitk_reduce4_f16", (130, 520, 2056)),
                        ("gemm_splitk_reduce1_f16", (257, 136, 520))]:
    split, _, _, t, trans_b = instances[name]
    a = torch.randn(m, k, device=dev).to(t)
    b = torch.randn(n, k, device=dev).to(t) if trans_b else \
        torch.randn(k, n, device=dev).to(t)
    c = torch.empty(m, n, device=dev, dtype=t)
    w, count = buffers(name, m, n)
    ref = a.double() @ (b.double().t() if trans_b else b.double())
    tol = 4e-3 if t == torch.float16 else 2e-2
    problems = split_launch_problems(
        lambda: module.kernel(name).launch(a, b, c, w, count),  # noqa: B023
        c, count, ref, tol)
    failed += bool(problems)
    print(f"{name} {m}x{n}x{k}: "
          f"{'ok' if not problems else 'FAILED ' + ', '.join(problems)}")

if "--time" in sys.argv:
    from tile_mlir import ops
    from tile_mlir.timing import l2_flush, median_in_turns
    flush = l2_flush()
    for name, (m, n, k) in [("gemm_splitk_reduce_nt_f16", (16, 4096, 4096)),
                            ("gemm_splitk_reduce_nt_f16", (32, 4096, 4096)),
                            ("gemm_splitk_reduce_nt_f16", (16, 4096, 14336)),
                            ("gemm_splitk_reduce_f16", (16, 4096, 4096)),
                            ("gemm_splitk_reduce4_f16", (128, 4096, 4096))]:
        trans_b = instances[name][4]
        x = torch.randn(m, k, device=dev, dtype=torch.float16)
        wt = torch.randn(n, k, device=dev, dtype=torch.float16)
        b = wt if trans_b else wt.t().contiguous()
        rhs = wt.t() if trans_b else b
        c = torch.empty(m, n, device=dev, dtype=torch.float16)
        w, count = buffers(name, m, n)
        ours = module.kernel(name).prepare(x, b, c, w, count)
        peer = lambda: x @ rhs  # noqa: E731
        dispatch = lambda: ops.gemm(x, rhs)  # noqa: E731
        o, p, d = median_in_turns([ours, peer, dispatch], flush=flush)
        print(f"time {name} {m}x{n}x{k}: ours {o * 1e3:.1f} us, cuBLAS "
              f"{p * 1e3:.1f} us, ops.gemm {d * 1e3:.1f} us, cuBLAS/ours "
              f"{p / o:.3f}, cuBLAS/ops.gemm {p / d:.3f}")

if "--sweep" in sys.argv:
    from tile_mlir.timing import l2_flush, median_in_turns, rel_fro
    flush = l2_flush()
    compiled = {}
    source = f"{kernels_dir}/gemm_splitk_reduce.mlir"
    configs = [(split, bn, stages) for split in (1, 2, 3, 4, 6, 8)
               for bn, stages in ((64, 6), (128, 4))]
    for trans_b, (m, n, k) in [(True, (16, 4096, 4096)),
                               (True, (16, 4096, 14336)),
                               (True, (16, 14336, 4096)),
                               (True, (64, 4096, 4096)),
                               (True, (128, 4096, 4096)),
                               (False, (16, 4096, 4096)),
                               (False, (128, 4096, 4096))]:
        x = torch.randn(m, k, device=dev, dtype=torch.float16)
        wt = torch.randn(n, k, device=dev, dtype=torch.float16)
        b = wt if trans_b else wt.t().contiguous()
        rhs = wt.t() if trans_b else b
        ref = (x.float() @ rhs.float())
        fns, names = [lambda: x @ rhs], ["cuBLAS"]  # noqa: E731
        for split, bn, stages in configs:
            key = (split, bn, stages, trans_b)
            if key not in compiled:
                compiled[key] = tm.Runtime(0).load(tm.compile(
                    source, kernels=["gemm_splitk_reduce"], params={
                        "SPLIT": split, "BN": bn, "STAGES": stages,
                        "TRANS_B": trans_b, "T": "f16"}))
            kern = compiled[key].kernel("gemm_splitk_reduce")
            c = torch.empty(m, n, device=dev, dtype=torch.float16)
            w = torch.empty(split, m, n, device=dev)
            count = torch.zeros(-(-m // 64) * -(-n // bn), device=dev,
                                dtype=torch.int32)
            kern.launch(x, b, c, w, count)
            err = rel_fro(c, ref)
            if not err < 4e-3:
                failed += 1
                print(f"sweep SPLIT {split} BN {bn} {m}x{n}x{k}: FAILED rel "
                      f"{err:.3g}")
            fns.append(kern.prepare(x, b, c, w, count))
            names.append(f"S{split}/BN{bn}/ST{stages}")
        times = median_in_turns(fns, flush=flush)
        ranked = sorted(zip(times[1:], names[1:]))
        print(f"sweep {'nt' if trans_b else 'nn'} {m}x{n}x{k}: cuBLAS "
              f"{times[0] * 1e3:.1f} us; " + ", ".join(
                  f"{nm} {t * 1e3:.1f} ({times[0] / t:.2f}x)"
                  for t, nm in ranked[:5]))

print("failed:", failed)
