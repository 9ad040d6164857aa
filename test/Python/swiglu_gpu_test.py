"""kernels/examples/swiglu.mlir on the GPU (swiglu-gpu.test):
Y = silu(X . Wg^T) * (X . Wu^T) against torch in fp32, on shapes that are
and are not multiples of the tiles. With --time, against torch's
silu(x @ Wg.T) * (x @ Wu.T) (two cuBLAS GEMMs and the element-wise ops) at
4096 x 4096 in, 11008 out, in alternating rounds.

Usage: swiglu_gpu_test.py KERNELS_DIR [--time]
"""
import sys

import torch
import torch.nn.functional as F

import tile_mlir as tm

kernels_dir = sys.argv[1]
torch.manual_seed(0)
rt = tm.Runtime(0)
module = rt.load(tm.compile(f"{kernels_dir}/examples/swiglu.mlir"))
failed = 0
for suffix, dtype in (("f16", torch.float16), ("bf16", torch.bfloat16)):
    kernel = module.kernel(f"swiglu_{suffix}")
    for m, n, k in ((128, 128, 64), (300, 520, 1000), (1, 11008, 4096)):
        x = torch.randn(m, k, device="cuda").to(dtype)
        wg = (torch.randn(n, k, device="cuda") / k ** 0.5).to(dtype)
        wu = (torch.randn(n, k, device="cuda") / k ** 0.5).to(dtype)
        y = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
        kernel.launch(x, wg, wu, y)
        ref = F.silu(x.float() @ wg.float().t()) * (x.float() @ wu.float().t())
        err = ((y.float() - ref).norm() / ref.norm()).item()
        ok = err < 1e-2
        failed += not ok
        print(f"swiglu {suffix} {m}x{n}x{k}: "
              f"{'ok' if ok else f'FAILED rel {err:.3g}'}")
if "--time" in sys.argv:
    from tile_mlir.timing import l2_flush, median_in_turns
    flush = l2_flush()
    for m, n, k in ((4096, 11008, 4096), (8192, 14336, 4096)):
        x = torch.randn(m, k, device="cuda", dtype=torch.float16)
        wg = torch.randn(n, k, device="cuda", dtype=torch.float16) / 64
        wu = torch.randn(n, k, device="cuda", dtype=torch.float16) / 64
        y = torch.empty(m, n, device="cuda", dtype=torch.float16)
        ours = module.kernel("swiglu_f16").prepare(x, wg, wu, y)
        peer = lambda: F.silu(x @ wg.t()) * (x @ wu.t())  # noqa: E731
        o, p = median_in_turns([ours, peer], flush=flush)
        print(f"time swiglu {m}x{n}x{k}: ours {o * 1e3:.1f} us, torch "
              f"{p * 1e3:.1f} us, peer/ours {p / o:.3f}, "
              f"{4 * m * n * k / o / 1e9:.0f} TFLOP/s")
print(f"swiglu: {failed} failed")
sys.exit(1 if failed else 0)
