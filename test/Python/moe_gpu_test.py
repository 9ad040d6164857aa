"""kernels/examples/moe_gemm.mlir on the GPU (moe-gpu.test): a grouped GEMM
over tokens sorted by expert, C[r] = X[r] . W[e]^T, with the tile list
built on the host (one tile per BM rows of each expert, clipped at the
expert's end by `bounds`), against torch per expert in fp32. Experts with
no tokens, one token, and counts that are and are not multiples of BM.

Usage: moe_gpu_test.py KERNELS_DIR
"""
import sys

import torch

import tile_mlir as tm

BM = 64  # the kernel's default tile rows

kernels_dir = sys.argv[1]
torch.manual_seed(0)
rt = tm.Runtime(0)
module = rt.load(tm.compile(f"{kernels_dir}/examples/moe_gemm.mlir"))
failed = 0
for suffix, dtype in (("f16", torch.float16), ("bf16", torch.bfloat16)):
    kernel = module.kernel(f"moe_gemm_{suffix}")
    for counts, n, k in (([64, 0, 1, 130], 256, 512), ([7] * 8, 200, 1024),
                         ([300, 5], 128, 4096)):
        m = sum(counts)
        x = torch.randn(m, k, device="cuda").to(dtype)
        w = (torch.randn(len(counts), n, k, device="cuda") / k ** 0.5).to(dtype)
        expert, row, end = [], [], []
        start = 0
        for e, c in enumerate(counts):
            for r in range(start, start + c, BM):
                expert.append(e)
                row.append(r)
                end.append(start + c)
            start += c

        def ints(v):
            return torch.tensor(v, device="cuda", dtype=torch.int32)

        c_out = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
        kernel.launch(x, w, ints(expert), ints(row), ints(end), c_out)
        ref = torch.empty(m, n, device="cuda")
        start = 0
        for e, c in enumerate(counts):
            ref[start:start + c] = x[start:start + c].float() @ w[e].float().t()
            start += c
        err = ((c_out.float() - ref).norm() / ref.norm()).item()
        ok = err < 1e-2
        failed += not ok
        print(f"moe {suffix} {counts} n={n} k={k}: "
              f"{'ok' if ok else f'FAILED rel {err:.3g}'}")
print(f"moe: {failed} failed")
sys.exit(1 if failed else 0)
