"""kernels/examples/quantize.mlir on the GPU (int8-gpu.test): row-wise int8
quantisation Q = clamp(round(X / s), -127, 127) and dequantisation
Y = Q * s, on shapes that are and are not multiples of the tiles (rows of
odd byte lengths take the masked paths), against torch computing the same
in f32. Both are exact: every element must match.

Usage: int8_gpu_test.py KERNELS_DIR
"""
import sys

import torch

import tile_mlir as tm

kernels_dir = sys.argv[1]
torch.manual_seed(0)
rt = tm.Runtime(0)
module = rt.load(tm.compile(f"{kernels_dir}/examples/quantize.mlir"))
failed = 0
for suffix, dtype in (("f16", torch.float16), ("bf16", torch.bfloat16)):
    quantize = module.kernel(f"quantize_{suffix}")
    dequantize = module.kernel(f"dequantize_{suffix}")
    for m, k in ((16, 256), (33, 1000), (1, 4099), (300, 77)):
        x = (torch.randn(m, k, device="cuda") * 3).to(dtype)
        s = x.float().abs().amax(dim=1).clamp(min=1e-3) / 127
        q = torch.full((m, k), -128, device="cuda", dtype=torch.int8)
        quantize.launch(x, s, q)
        want = torch.clamp(torch.round(x.float() / s[:, None]), -127,
                           127).to(torch.int8)
        bad_q = (q != want).sum().item()
        y = torch.full((m, k), float("nan"), device="cuda", dtype=dtype)
        dequantize.launch(want, s, y)
        ref = (want.float() * s[:, None]).to(dtype)
        bad_y = (y.view(torch.int16) != ref.view(torch.int16)).sum().item()
        ok = bad_q == 0 and bad_y == 0
        failed += not ok
        print(f"int8 {suffix} {m}x{k}: "
              f"{'ok' if ok else f'FAILED {bad_q} q, {bad_y} y differ'}")
print(f"int8: {failed} failed")
sys.exit(1 if failed else 0)
