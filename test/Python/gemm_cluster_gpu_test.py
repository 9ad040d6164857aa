"""The GEMM in thread-block clusters with TMA multicast of A
(kernels/examples/gemm_cluster.mlir), on the GPU (gemm-cluster-gpu.test):
each instance on shapes that are and are not multiples of its tiles
(including a grid whose x is rounded up to whole clusters, and K shorter
than the ring), against a float64 reference, launched twice (the result
must be the same bit for bit). With --time, against torch (cuBLAS), the
kernel file's gemm instance of the same tiles without clusters (kernels/
gemm.mlir, WS) and ops.gemm, in alternating rounds, L2 flushed.

Usage: gemm_cluster_gpu_test.py KERNELS_DIR [--time]
"""
import sys

import torch

import tile_mlir as tm

kernels_dir = sys.argv[1]
torch.manual_seed(0)
dev = torch.device("cuda")
failed = 0

module = tm.Runtime(0).load(
    tm.compile(f"{kernels_dir}/examples/gemm_cluster.mlir"))

# name: (T, TRANS_B)
instances = {
    "gemm_cluster_f16": (torch.float16, False),
    "gemm_cluster_bf16": (torch.bfloat16, False),
    "gemm_cluster_nt_f16": (torch.float16, True),
    "gemm_cluster4_f16": (torch.float16, False),
}

for name, (m, n, k) in [("gemm_cluster_f16", (1024, 1024, 1024)),
                        ("gemm_cluster_f16", (1000, 2568, 520)),
                        ("gemm_cluster_f16", (256, 256, 64)),
                        ("gemm_cluster_bf16", (777, 3000, 1232)),
                        ("gemm_cluster_nt_f16", (512, 4096, 4096)),
                        ("gemm_cluster_nt_f16", (130, 264, 72)),
                        ("gemm_cluster4_f16", (1024, 1152, 2048)),
                        ("gemm_cluster4_f16", (200, 136, 1000))]:
    t, trans_b = instances[name]
    a = torch.randn(m, k, device=dev).to(t)
    b = torch.randn(n, k, device=dev).to(t) if trans_b else \
        torch.randn(k, n, device=dev).to(t)
    c = torch.empty(m, n, device=dev, dtype=t)
    ref = a.double() @ (b.double().t() if trans_b else b.double())
    tol = 4e-3 if t == torch.float16 else 2e-2
    problems, first = [], None
    for launch in range(2):
        c.fill_(float("nan"))
        module.kernel(name).launch(a, b, c)
        torch.cuda.synchronize()
        err = ((c.double() - ref).norm() / ref.norm()).item()
        if not err < tol:
            problems.append(f"rel {err:.3g}")
            break
        if first is None:
            first = c.clone()
        elif not torch.equal(c.view(torch.int16), first.view(torch.int16)):
            problems.append("the second launch differs from the first")
    failed += bool(problems)
    print(f"{name} {m}x{n}x{k}: "
          f"{'ok' if not problems else 'FAILED ' + ', '.join(problems)}")

if "--time" in sys.argv:
    from tile_mlir import ops
    from tile_mlir.timing import l2_flush, median_in_turns
    flush = l2_flush()
    plain = tm.Runtime(0).load(tm.compile(
        f"{kernels_dir}/gemm.mlir", kernels=["gemm"],
        params={"WS": True})).kernel("gemm")
    for name, (m, n, k) in [("gemm_cluster_f16", (4096, 4096, 4096)),
                            ("gemm_cluster_f16", (8192, 8192, 8192)),
                            ("gemm_cluster_f16", (4096, 14336, 4096)),
                            ("gemm_cluster_f16", (8192, 8192, 1024)),
                            ("gemm_cluster4_f16", (4096, 4096, 4096))]:
        a = torch.randn(m, k, device=dev, dtype=torch.float16)
        b = torch.randn(k, n, device=dev, dtype=torch.float16)
        c = torch.empty(m, n, device=dev, dtype=torch.float16)
        c2 = torch.empty_like(c)
        ours = module.kernel(name).prepare(a, b, c)
        ws = plain.prepare(a, b, c2)
        o, p, w, d = median_in_turns(
            [ours, lambda: a @ b, ws, lambda: ops.gemm(a, b)], flush=flush)
        tflops = 2 * m * n * k / o / 1e9
        print(f"time {name} {m}x{n}x{k}: ours {o * 1e3:.1f} us "
              f"({tflops:.0f} TFLOP/s), cuBLAS/ours {p / o:.3f}, "
              f"gemm WS/ours {w / o:.3f}, ops.gemm/ours {d / o:.3f}")

print("failed:", failed)
