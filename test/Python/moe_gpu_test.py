"""kernels/examples/moe_gemm.mlir on the GPU (moe-gpu.test): a grouped GEMM
over tokens sorted by expert, C[r] = X[r] . W[e]^T, with the tile list
built on the host (one tile per BM rows of each expert, clipped at the
expert's end by `bounds`), against torch per expert in fp32. Experts with
no tokens, one token, and counts that are and are not multiples of BM.

With --time, the issue's case (64 experts, 8192 tokens, K 2048, N 1408)
against a loop of torch matmuls per expert and one dense GEMM of the same
total work.

Usage: moe_gpu_test.py KERNELS_DIR [--time]
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


def tile_lists(counts):
    """The kernel's tile list for experts of `counts` sorted tokens: one
    tile per BM rows of each expert, as (EXPERT, ROW, END) int32 tensors."""
    expert, row, end = [], [], []
    start = 0
    for e, c in enumerate(counts):
        for r in range(start, start + c, BM):
            expert.append(e)
            row.append(r)
            end.append(start + c)
        start += c
    return [torch.tensor(v, device="cuda", dtype=torch.int32)
            for v in (expert, row, end)]


for suffix, dtype in (("f16", torch.float16), ("bf16", torch.bfloat16)):
    kernel = module.kernel(f"moe_gemm_{suffix}")
    for counts, n, k in (([64, 0, 1, 130], 256, 512), ([7] * 8, 200, 1024),
                         ([300, 5], 128, 4096)):
        m = sum(counts)
        x = torch.randn(m, k, device="cuda").to(dtype)
        w = (torch.randn(len(counts), n, k, device="cuda") / k ** 0.5).to(dtype)
        c_out = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
        kernel.launch(x, w, *tile_lists(counts), c_out)
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
if "--time" in sys.argv:
    # The case: 64 experts, 8192 tokens sorted by expert (uneven
    # counts), K 2048, N 1408; against a loop of torch matmuls per expert
    # and one dense GEMM of the same total work, in alternating rounds.
    from tile_mlir.timing import l2_flush, median_in_turns
    flush = l2_flush()
    g = torch.Generator(device="cpu").manual_seed(1)
    experts, tokens, k, n = 64, 8192, 2048, 1408
    weights = torch.rand(experts, generator=g) + 0.2
    counts = (weights / weights.sum() * tokens).floor().long()
    counts[0] += tokens - counts.sum()
    counts = counts.tolist()
    x = torch.randn(tokens, k, device="cuda", dtype=torch.float16)
    w = torch.randn(experts, n, k, device="cuda", dtype=torch.float16) / 45
    c_out = torch.empty(tokens, n, device="cuda", dtype=torch.float16)
    ours = module.kernel("moe_gemm_f16").prepare(x, w, *tile_lists(counts),
                                                 c_out)
    bounds = [0]
    for c in counts:
        bounds.append(bounds[-1] + c)

    def loop():
        for e in range(experts):
            torch.matmul(x[bounds[e]:bounds[e + 1]], w[e].t(),
                         out=c_out[bounds[e]:bounds[e + 1]])

    dense_w = w[0]
    dense = lambda: x @ dense_w.t()  # noqa: E731
    o, p, d = median_in_turns([ours, loop, dense], flush=flush)
    print(f"time moe {experts}x{tokens}x{k}x{n}: ours {o * 1e3:.1f} us, "
          f"torch loop {p * 1e3:.1f} us ({p / o:.2f}x), one dense GEMM "
          f"{d * 1e3:.1f} us (ours/dense {o / d:.2f})")
print(f"moe: {failed} failed")
sys.exit(1 if failed else 0)
