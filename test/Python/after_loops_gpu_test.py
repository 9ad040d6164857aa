"""Shared tiles that live after the loops (`tile.alloc_shared ...
{after_loops}`), on the GPU (after-loops-gpu.test): kernels/gemm.mlir with
its staging tile for the TMA store of C placed over the ring's stages,
which gives the 128x256x64 GEMM a fourth stage; warp-specialised and not,
3 and 4 stages, shapes that are and are not multiples of the tiles and K
shorter than the ring, against a float64 reference, launched twice (the
same bits). A race between the epilogue's writes and a stage still being
read shows as a wrong or unstable result. With --time, against the kernel
as written (C's tile beside the ring, 3 stages) and torch (cuBLAS), in
alternating rounds, L2 flushed.

Usage: after_loops_gpu_test.py KERNELS_DIR [--time]
"""
import sys

import torch

import tile_mlir as tm

kernels_dir = sys.argv[1]
torch.manual_seed(0)
dev = torch.device("cuda")
failed = 0

plain = open(f"{kernels_dir}/gemm.mlir").read()
staging = "%cs = tile.alloc_shared [BM, BN] :"
assert staging in plain, "gemm.mlir's staging tile moved: update the test"
source = plain.replace(staging,
                       "%cs = tile.alloc_shared [BM, BN] {after_loops} :")
compiled = {}


def gemm(text, **params):
    key = (text is source, tuple(sorted(params.items())))
    if key not in compiled:
        compiled[key] = tm.Runtime(0).load(tm.compile(
            text, kernels=["gemm"], params=params)).kernel("gemm")
    return compiled[key]


configs = [dict(WS=True, STAGES=4), dict(WS=True, STAGES=3),
           dict(WS=False, STAGES=4), dict(WS=True, STAGES=4, TRANS_B=True)]
for params in configs:
    for m, n, k in [(1024, 1024, 1024), (1000, 2568, 520), (256, 256, 64),
                    (777, 3000, 1232)]:
        trans_b = params.get("TRANS_B", False)
        a = torch.randn(m, k, device=dev, dtype=torch.float16)
        b = torch.randn(n, k, device=dev, dtype=torch.float16) if trans_b \
            else torch.randn(k, n, device=dev, dtype=torch.float16)
        c = torch.empty(m, n, device=dev, dtype=torch.float16)
        ref = a.double() @ (b.double().t() if trans_b else b.double())
        kern = gemm(source, **params)
        problems, first = [], None
        for launch in range(2):
            c.fill_(float("nan"))
            kern.launch(a, b, c)
            torch.cuda.synchronize()
            err = ((c.double() - ref).norm() / ref.norm()).item()
            if not err < 4e-3:
                problems.append(f"rel {err:.3g}")
            if first is None:
                first = c.clone()
            elif not torch.equal(c.view(torch.int16),
                                 first.view(torch.int16)):
                problems.append("the second launch differs")
        failed += bool(problems)
        label = " ".join(f"{p}={v}" for p, v in sorted(params.items()))
        print(f"gemm after_loops {label} {m}x{n}x{k}: "
              f"{'ok' if not problems else 'FAILED ' + ', '.join(problems)}")

if "--time" in sys.argv:
    from tile_mlir.timing import l2_flush, median_in_turns
    flush = l2_flush()
    for m, n, k in [(4096, 4096, 4096), (8192, 8192, 8192),
                    (4096, 14336, 4096)]:
        a = torch.randn(m, k, device=dev, dtype=torch.float16)
        b = torch.randn(k, n, device=dev, dtype=torch.float16)
        runs = {"cuBLAS": lambda: a @ b}  # noqa: E731
        for name, text, params in [
                ("WS 3 stages, C beside", plain, dict(WS=True)),
                ("WS 3 stages, C over", source, dict(WS=True)),
                ("WS 4 stages, C over", source, dict(WS=True, STAGES=4))]:
            c = torch.empty(m, n, device=dev, dtype=torch.float16)
            runs[name] = gemm(text, **params).prepare(a, b, c)
        times = median_in_turns(list(runs.values()), flush=flush)
        print(f"time {m}x{n}x{k}: " + ", ".join(
            f"{name} {t * 1e3:.1f} us ({times[0] / t:.3f}x)"
            for name, t in zip(runs, times)))

print("failed:", failed)
