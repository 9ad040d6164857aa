"""The softmax of long rows split over a thread-block cluster
(kernels/softmax_cluster.mlir, tile.reduction ... across cluster)
on the GPU (softmax-cluster-gpu.test): rows of 1000 to 262144 columns,
lengths that are and are not multiples of the chunks (chunks wholly past
a row's end), f16 and bf16, against softmax in float64. With --time,
against torch.softmax, tile_mlir.ops.softmax and a copy of X in
alternating rounds (L2 flushed), as a fraction of the copy's bandwidth.

Usage: softmax_cluster_gpu_test.py KERNELS_DIR [--time]
"""
import sys

import torch

import tile_mlir as tm

kernels_dir = sys.argv[1]
torch.manual_seed(0)
dev = torch.device("cuda")
failed = 0

module = tm.Runtime(0).load(
    tm.compile(f"{kernels_dir}/softmax_cluster.mlir"))

for name, dtype, (rows, cols) in [
        ("softmax_cluster_f16", torch.float16, (8, 262144)),
        ("softmax_cluster_f16", torch.float16, (5, 200003)),
        ("softmax_cluster_f16", torch.float16, (3, 1000)),
        ("softmax_cluster_bf16", torch.bfloat16, (2, 131072)),
        ("softmax_cluster_w16k_f16", torch.float16, (7, 65536)),
        ("softmax_cluster_w16k_f16", torch.float16, (1, 50257))]:
    x = (torch.randn(rows, cols, device=dev) * 4).to(dtype)
    y = torch.full_like(x, float("nan"))
    module.kernel(name).launch(x, y)
    ref = torch.softmax(x.double(), dim=1)
    err = ((y.double() - ref).norm() / ref.norm()).item()
    tol = 3e-3 if dtype == torch.float16 else 2e-2
    ok = err < tol
    failed += not ok
    print(f"{name} {rows}x{cols}: {'ok' if ok else f'FAILED rel {err:.3g}'}")

if "--time" in sys.argv:
    from tile_mlir import ops
    from tile_mlir.timing import l2_flush, median_in_turns
    flush = l2_flush()
    for name, rows, cols in [("softmax_cluster_f16", 8, 262144),
                             ("softmax_cluster_f16", 16, 131072),
                             ("softmax_cluster_f16", 4, 262144),
                             ("softmax_cluster_w16k_f16", 32, 65536)]:
        x = torch.randn(rows, cols, device=dev, dtype=torch.float16)
        y = torch.empty_like(x)
        z = torch.empty_like(x)
        ours = module.kernel(name).prepare(x, y)
        o, t, d, c = median_in_turns(
            [ours, lambda: torch.softmax(x, dim=1),
             lambda: ops.softmax(x), lambda: z.copy_(x)], flush=flush)
        print(f"time {name} {rows}x{cols}: ours {o * 1e3:.1f} us, torch "
              f"{t * 1e3:.1f} us, ops.softmax {d * 1e3:.1f} us, copy "
              f"{c * 1e3:.1f} us: torch/ours {t / o:.3f}, of the copy's "
              f"bandwidth {c / o:.3f} (ops.softmax {c / d:.3f})")

print("failed:", failed)
