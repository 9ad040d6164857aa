"""Kernels that combine across blocks with tile.atomic (atomics-gpu.test):
the reductions of kernels/examples/reductions.mlir (row sums split over
blocks, row maxima of negative and mixed values, the total and the absmax
of a tensor) and the split-K GEMM of gemm_splitk.mlir, on shapes that are
and are not multiples of the tiles, against float64 references. Then, with
--time, the split-K GEMM against torch.matmul (cuBLAS) in alternating
rounds, our time with and without the zeroing of C.

Usage: atomics_gpu_test.py KERNELS_DIR [--time]
"""
import statistics
import sys

import torch

import tile_mlir as tm

kernels_dir = sys.argv[1]
timing = "--time" in sys.argv
torch.manual_seed(0)
dev = torch.device("cuda")
failed = 0


def report(label, out, ref, tol):
    global failed
    err = ((out.double() - ref).norm() / ref.norm()).item()
    ok = err < tol
    failed += not ok
    print(f"{label}: {'ok' if ok else f'FAILED rel {err:.3g}'}")


rt = tm.Runtime(0)
modules = {}


def kernel(path, name):
    if path not in modules:
        modules[path] = rt.load(tm.compile(f"{kernels_dir}/examples/{path}"))
    return modules[path].kernel(name)


dtypes = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}

# Row sums: each row's column blocks add into S.
for name, t, (m, n) in [("row_sum_f32", "f32", (4, 1024)),
                        ("row_sum_f32", "f32", (37, 3000)),
                        ("row_sum_f32", "f32", (1, 50000)),
                        ("row_sum_f16", "f16", (13, 5000))]:
    x = torch.randn(m, n, device=dev).to(dtypes[t])
    s = torch.zeros(m, device=dev)
    kernel("reductions.mlir", name).launch(x, s)
    report(f"{name} {m}x{n}", s, x.double().sum(1), 1e-5)

# Row maxima: all-negative rows (the unsigned half of the float max), then
# mixed signs; M starts at -inf.
for lo, hi in [(-3.0, -1.0), (-1.0, 1.0)]:
    for m, n in [(9, 1500), (3, 512)]:
        x = (torch.rand(m, n, device=dev) * (hi - lo) + lo)
        out = torch.full((m,), float("-inf"), device=dev)
        kernel("reductions.mlir", "row_max_f32").launch(x, out)
        report(f"row_max [{lo:g}, {hi:g}) {m}x{n}", out,
               x.double().amax(1), 1e-7)

# The total and the absmax, one value a block.
for name, t, (m, n) in [("total_f32", "f32", (8, 512)),
                        ("total_f32", "f32", (100, 3000)),
                        ("total_bf16", "bf16", (33, 777))]:
    x = torch.randn(m, n, device=dev).to(dtypes[t])
    total = torch.zeros(1, device=dev)
    peak = torch.zeros(1, device=dev)
    kernel("reductions.mlir", name).launch(x, total, peak)
    ref = x.double()
    # A sum of random signs is small beside its terms: compare the error
    # with the sum of magnitudes.
    err = abs(total.item() - ref.sum().item()) / ref.abs().sum().item()
    ok = err < 1e-6
    failed += not ok
    print(f"{name} sum {m}x{n}: {'ok' if ok else f'FAILED rel {err:.3g}'}")
    report(f"{name} absmax {m}x{n}", peak, ref.abs().max().reshape(1), 1e-7)

# Split-K GEMM: odd shapes, more splits than k tiles (empty splits add
# zeros), bf16, and SPLIT = 1.
for name, t, (m, n, k) in [("gemm_splitk_f16", "f16", (128, 4096, 4096)),
                           ("gemm_splitk_f16", "f16", (100, 1000, 3000)),
                           ("gemm_splitk8_f16", "f16", (64, 256, 64)),
                           ("gemm_splitk8_f16", "f16", (77, 200, 1000)),
                           ("gemm_splitk_bf16", "bf16", (200, 304, 1000)),
                           ("gemm_splitk1_f16", "f16", (257, 136, 520))]:
    a = torch.randn(m, k, device=dev).to(dtypes[t])
    b = torch.randn(k, n, device=dev).to(dtypes[t])
    c = torch.zeros(m, n, device=dev)
    kernel("gemm_splitk.mlir", name).launch(a, b, c)
    report(f"{name} {m}x{n}x{k}", c, a.double() @ b.double(), 1e-5)

if timing:
    # Alternating rounds of ours (with and without zeroing C) and cuBLAS
    # (torch.matmul in f16, as a user runs it); medians of 7 rounds.
    def elapsed(fn, iters=50):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        fn()
        start.record()
        for _ in range(iters):
            fn()
        stop.record()
        torch.cuda.synchronize()
        return start.elapsed_time(stop) / iters

    for m, n, k in [(128, 4096, 4096), (64, 4096, 4096), (32, 4096, 14336),
                    (128, 14336, 4096), (256, 8192, 8192)]:
        a = torch.randn(m, k, device=dev, dtype=torch.float16)
        b = torch.randn(k, n, device=dev, dtype=torch.float16)
        c = torch.zeros(m, n, device=dev)
        for name in ("gemm_splitk_f16", "gemm_splitk8_f16"):
            g = kernel("gemm_splitk.mlir", name)
            ours, zeroed, theirs = [], [], []
            for _ in range(7):
                ours.append(elapsed(lambda: g.launch(a, b, c)))
                zeroed.append(elapsed(lambda: (c.zero_(), g.launch(a, b, c))))
                theirs.append(elapsed(lambda: torch.matmul(a, b)))
            o, z, t = (statistics.median(v) for v in (ours, zeroed, theirs))
            print(f"time {name} {m}x{n}x{k}: ours {o * 1e3:.1f} us, with "
                  f"zeroing {z * 1e3:.1f} us, cuBLAS {t * 1e3:.1f} us: "
                  f"{t / o:.2f}x ({t / z:.2f}x with zeroing)")

print("failed:", failed)
