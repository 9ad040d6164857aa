"""8-bit floats on the GPU (fp8-gpu.test). kernels/examples/gemm_fp8.mlir:
C = A . W^T for 8-bit float A [M, K] and W [N, K] (f8E4M3FN and f8E5M2,
bf16 or f16 out), on shapes that are and are not multiples of the tiles, with a per-tensor
scale, against the scaled fp32 product of the same 8-bit values (the
products are exact in fp32; the error is the output's rounding). With
--time, against torch._scaled_mm (unit scales) in alternating rounds. The
block-scaled GEMM (1x128 scales of A, 128x128 of W) against the dequantised
fp32 product; with --time, its speed against the per-tensor kernel's.
kernels/examples/quantize.mlir's 8-bit float quantisers: the same codes as
torch's conversion, and back. kernels/examples/rmsnorm_fp8.mlir: residual
add, RMSNorm and fp8 quantisation in one pass.

Usage: fp8_gpu_test.py KERNELS_DIR [--time]
"""
import sys

import torch

import tile_mlir as tm
from tile_mlir.timing import l2_flush, median_in_turns

kernels_dir = sys.argv[1]
torch.manual_seed(0)
rt = tm.Runtime(0)
module = rt.load(tm.compile(f"{kernels_dir}/examples/gemm_fp8.mlir"))
failed = 0
for name, t8, tc in (("gemm_fp8_e4m3", torch.float8_e4m3fn, torch.bfloat16),
                     ("gemm_fp8_e5m2", torch.float8_e5m2, torch.bfloat16),
                     ("gemm_fp8_e4m3_f16", torch.float8_e4m3fn,
                      torch.float16)):
    kernel = module.kernel(name)
    for m, n, k in ((128, 256, 128), (300, 520, 384), (77, 1000, 2048),
                    (1, 64, 4112)):
        a = torch.randn(m, k, device="cuda").to(t8)
        w = (torch.randn(n, k, device="cuda") / k ** 0.5).to(t8)
        c = torch.full((m, n), float("nan"), device="cuda", dtype=tc)
        scale = 0.375  # the product of per-tensor scales
        kernel.launch(a, w, c, scale)
        ref = (a.float() @ w.float().t()) * scale
        err = ((c.float() - ref).norm() / ref.norm()).item()
        ok = err < 1e-2
        failed += not ok
        print(f"{name} {m}x{n}x{k}: {'ok' if ok else f'FAILED rel {err:.3g}'}")
# Block scales: 1 x 128 for A (passed K-block major), 128 x 128 for W.
for name in ("gemm_fp8_blockscale_e4m3", "gemm_fp8_blockscale_e4m3_m64"):
    kernel = module.kernel(name)
    for m, n, k in ((128, 128, 128), (300, 520, 384), (77, 1000, 2000),
                    (1, 256, 4096)):
        kb, nb = (k + 127) // 128, (n + 127) // 128
        a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
        w = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
        sa = torch.rand(kb, m, device="cuda") + 0.5   # [K/128, M]
        sw = (torch.rand(nb, kb, device="cuda") + 0.5) / k ** 0.5
        c = torch.full((m, n), float("nan"), device="cuda",
                       dtype=torch.bfloat16)
        kernel.launch(a, w, sa, sw, c)
        af = a.float() * sa.t().repeat_interleave(128, dim=1)[:, :k]
        wf = w.float() * sw.repeat_interleave(128, dim=0)[:n].repeat_interleave(
            128, dim=1)[:, :k]
        ref = af @ wf.t()
        err = ((c.float() - ref).norm() / ref.norm()).item()
        ok = err < 1e-2
        failed += not ok
        print(f"{name} {m}x{n}x{k}: {'ok' if ok else f'FAILED rel {err:.3g}'}")
# Quantisation into 8-bit floats (kernels/examples/quantize.mlir): the codes
# are torch's, bit for bit, saturated values included; and back.
qmodule = rt.load(tm.compile(f"{kernels_dir}/examples/quantize.mlir"))
for name, t, t8 in (("quantize_fp8_e4m3_f16", torch.float16,
                     torch.float8_e4m3fn),
                    ("quantize_fp8_e4m3_bf16", torch.bfloat16,
                     torch.float8_e4m3fn),
                    ("quantize_fp8_e5m2_f16", torch.float16,
                     torch.float8_e5m2)):
    fmax = torch.finfo(t8).max
    for m, n in ((16, 256), (100, 1000), (3, 77), (1030, 4097)):
        x = (torch.randn(m, n, device="cuda") * fmax / 4).to(t)
        scale = 0.75
        q = torch.zeros(m, n, device="cuda", dtype=torch.uint8).view(t8)
        qmodule.kernel(name).launch(x, q, scale)
        ref = (x.float() / scale).clamp(-fmax, fmax).to(t8)
        diff = (q.view(torch.uint8) != ref.view(torch.uint8)).sum().item()
        failed += diff != 0
        print(f"{name} {m}x{n}: {'ok' if not diff else f'FAILED {diff} codes'}")
for name, t8, t in (("dequantize_fp8_e4m3_f16", torch.float8_e4m3fn,
                     torch.float16),
                    ("dequantize_fp8_e5m2_bf16", torch.float8_e5m2,
                     torch.bfloat16)):
    for m, n in ((16, 256), (3, 77), (1030, 4097)):
        q = (torch.randn(m, n, device="cuda") * 8).to(t8)
        y = torch.full((m, n), float("nan"), device="cuda", dtype=t)
        qmodule.kernel(name).launch(q, y, 0.375)
        same = torch.equal(y, (q.float() * 0.375).to(t))
        failed += not same
        print(f"{name} {m}x{n}: {'ok' if same else 'FAILED'}")
# Residual add + RMSNorm + fp8 quantisation (kernels/examples/rmsnorm_fp8.mlir):
# the new residual exactly as torch rounds it; the codes torch's but where
# the two computations (rsqrt.approx here) land on either side of a rounding
# boundary: a fraction of a percent, one step apart.
nmodule = rt.load(tm.compile(f"{kernels_dir}/examples/rmsnorm_fp8.mlir"))
for name, t in (("add_rmsnorm_fp8_f16", torch.float16),
                ("add_rmsnorm_fp8_bf16", torch.bfloat16),
                ("add_rmsnorm_fp8_long_f16", torch.float16)):
    kernel = nmodule.kernel(name)
    for m, n in ((37, 1000), (64, 1024), (5, 8192 if "long" in name else 77)):
        x, r = (torch.randn(m, n, device="cuda", dtype=t) for _ in range(2))
        w = (torch.rand(n, device="cuda") + 0.5).to(t)
        h = torch.empty_like(x)
        y = torch.zeros(m, n, device="cuda", dtype=torch.uint8).view(
            torch.float8_e4m3fn)
        eps, scale = 1e-6, 0.02
        kernel.launch(x, r, w, h, y, eps, scale)
        href = (x.float() + r.float()).to(t).float()
        yref = (href * torch.rsqrt(href.pow(2).mean(-1, keepdim=True) + eps)
                * w.float() / scale).clamp(-448, 448).to(torch.float8_e4m3fn)
        same_h = torch.equal(h.float(), href)
        off = (y.view(torch.uint8) != yref.view(torch.uint8))
        steps = (y.view(torch.uint8).int() - yref.view(torch.uint8).int())[off]
        ok = (same_h and off.float().mean().item() < 1e-2
              and bool((steps.abs() == 1).all()))
        failed += not ok
        print(f"{name} {m}x{n}: "
              f"{'ok' if ok else f'FAILED h {same_h}, {off.sum().item()} codes'}")
# A row stride that TMA cannot take is refused before the launch.
a = torch.zeros(64, 136, device="cuda").to(torch.float8_e4m3fn)[:, :130]
try:
    module.kernel("gemm_fp8_e4m3").launch(
        a, torch.zeros(64, 130, device="cuda").to(torch.float8_e4m3fn),
        torch.empty(64, 64, device="cuda", dtype=torch.bfloat16), 1.0)
    print("unaligned K: FAILED, accepted")
    failed += 1
except tm.TileError as e:
    print(f"unaligned K: {type(e).__name__}")
if "--time" in sys.argv:
    flush = l2_flush()
    for m, n, k in ((4096, 4096, 4096), (8192, 8192, 8192), (16, 4096, 4096)):
        a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
        w = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
        c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        one = torch.ones((), device="cuda")
        ours = module.kernel("gemm_fp8_e4m3").prepare(a, w, c, 1.0)
        peer = lambda: torch._scaled_mm(a, w.t(), one, one,  # noqa: E731
                                        out_dtype=torch.bfloat16)
        sa = torch.ones((k + 127) // 128, m, device="cuda")
        sw = torch.ones((n + 127) // 128, (k + 127) // 128, device="cuda")
        blocks = module.kernel("gemm_fp8_blockscale_e4m3").prepare(
            a, w, sa, sw, c)
        o, p, b = median_in_turns([ours, peer, blocks], flush=flush)
        print(f"time {m}x{n}x{k}: ours {o * 1e3:.1f} us, _scaled_mm "
              f"{p * 1e3:.1f} us, {p / o:.3f}x, "
              f"{2 * m * n * k / o / 1e9:.0f} TFLOP/s; block-scaled "
              f"{b * 1e3:.1f} us, {o / b:.3f}x of per-tensor")
print(f"fp8: {failed} failed")
sys.exit(1 if failed else 0)
