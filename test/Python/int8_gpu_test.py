"""kernels/examples/quantize.mlir on the GPU (int8-gpu.test): row-wise int8
quantisation Q = clamp(round(X / s), -127, 127) and dequantisation
Y = Q * s, on shapes that are and are not multiples of the tiles (rows of
odd byte lengths take the masked paths), and dequantisation through a
pipelined TMA ring read into registers, against torch computing the same
in f32. All are exact: every element must match.

the integer tensor-core GEMMs of kernels/examples/gemm_int8.mlir (the i32
product exactly, and W8A8 with per-token and per-channel scales), and the
weight-only GEMMs of gemm_w8a16.mlir, gemm_w8a16_swapab.mlir and
gemm_w4a16.mlir (int4 packed two a byte, group-wise scales) and
gemm_w4a16_swapab.mlir (the same weights, swapped), and the
weight-only matrix-vector product of gemv_w8a16.mlir against the fp32
product of the same values.
With --time, int_mm against torch._int_mm and the weight-only GEMMs and
matrix-vector product against torch's fp16 GEMM on the dequantised
weights, in alternating rounds.

Usage: int8_gpu_test.py KERNELS_DIR [--time]
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
# The pipelined form: int8 tiles through a TMA ring, read into registers
# from the stage of each iteration (K a multiple of 16 for TMA).
pipelined = module.kernel("dequantize_pipelined_f16")
for n, k in ((64, 128), (300, 1040), (129, 4096)):
    q = torch.randint(-127, 128, (n, k), device="cuda", dtype=torch.int8)
    s = torch.rand(n, device="cuda") / 64 + 1e-3
    y = torch.full((n, k), float("nan"), device="cuda", dtype=torch.float16)
    pipelined.launch(q, s, y)
    ref = (q.float() * s[:, None]).to(torch.float16)
    bad = (y.view(torch.int16) != ref.view(torch.int16)).sum().item()
    failed += bad != 0
    print(f"int8 pipelined {n}x{k}: {'ok' if bad == 0 else f'FAILED {bad} differ'}")
# The weight-only GEMM: C = X . (Q * s)^T against the fp32 product of the
# same values (the int8 weights are exact in T; the error is the output's
# rounding).
w8 = rt.load(tm.compile(f"{kernels_dir}/examples/gemm_w8a16.mlir"))
for suffix, dtype in (("f16", torch.float16), ("bf16", torch.bfloat16)):
    kernel = w8.kernel(f"gemm_w8a16_{suffix}")
    for m, n, k in ((64, 64, 128), (16, 300, 1040), (130, 520, 4096)):
        x = torch.randn(m, k, device="cuda").to(dtype)
        q = torch.randint(-127, 128, (n, k), device="cuda", dtype=torch.int8)
        s = torch.rand(n, device="cuda") / (64 * k ** 0.5) + 1e-4
        c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
        kernel.launch(x, q, s, c)
        ref = x.float() @ (q.float() * s[:, None]).t()
        err = ((c.float() - ref).norm() / ref.norm()).item()
        ok = err < 1e-2
        failed += not ok
        print(f"w8a16 {suffix} {m}x{n}x{k}: "
              f"{'ok' if ok else f'FAILED rel {err:.3g}'}")
# The swapped form for a few rows (gemm_w8a16_swapab.mlir): Y^T = (Q * s)
# . X^T, the weights as the tensor cores' A operand from registers; M and N
# not multiples of the tiles, M past one tile (33 rows in tiles of 16).
sw8 = rt.load(tm.compile(f"{kernels_dir}/examples/gemm_w8a16_swapab.mlir"))
for name, dtype, shapes in (
        ("f16", torch.float16, ((5, 4100, 4096), (16, 300, 1040),
                                (33, 1000, 2064))),
        ("bf16", torch.bfloat16, ((7, 300, 1040), (16, 4096, 4096))),
        ("m64_f16", torch.float16, ((64, 520, 4096), (70, 4096, 1040)))):
    kernel = sw8.kernel(f"gemm_w8a16_swapab_{name}")
    for m, n, k in shapes:
        x = torch.randn(m, k, device="cuda").to(dtype)
        q = torch.randint(-127, 128, (n, k), device="cuda", dtype=torch.int8)
        s = torch.rand(n, device="cuda") / (64 * k ** 0.5) + 1e-4
        yt = torch.full((n, m), float("nan"), device="cuda", dtype=dtype)
        kernel.launch(x, q, s, yt)
        ref = x.double() @ (q.double() * s.double()[:, None]).t()
        err = ((yt.t().double() - ref).norm() / ref.norm()).item()
        ok = err < 1e-2
        failed += not ok
        print(f"w8a16 swapab {name} {m}x{n}x{k}: "
              f"{'ok' if ok else f'FAILED rel {err:.3g}'}")


def splitk_launches(kernel, x, q, s, ref, split, bm):
    """Launches a split-K swap-AB kernel three times on one workspace and
    one set of counters; the worst relative error of Y^T's transpose
    against `ref` (inf for a NaN) and what the counters were left at."""
    (m, _), n = x.shape, q.shape[0]
    work = torch.empty(split, n, m, device="cuda")
    count = torch.zeros(-(-n // 64) * -(-m // bm), device="cuda",
                        dtype=torch.int32)
    worst = 0.0
    for _ in range(3):
        yt = torch.full((n, m), float("nan"), device="cuda", dtype=x.dtype)
        kernel.launch(x, q, s, yt, work, count)
        err = ((yt.t().double() - ref).norm() / ref.norm()).item()
        worst = max(worst, err if err == err else float("inf"))
    return worst, int(count.abs().sum())


# Its split-K twin: three launches on the same counters, each correct and
# leaving them zero.
for name, dtype, split, bm, shapes in (
        ("f16", torch.float16, 2, 16, ((16, 4096, 4096), (5, 300, 1040))),
        ("bf16", torch.bfloat16, 3, 16, ((7, 520, 4096),)),
        ("m64_f16", torch.float16, 2, 64, ((70, 4096, 1040),))):
    kernel = sw8.kernel(f"gemm_w8a16_swapab_splitk_{name}")
    for m, n, k in shapes:
        x = torch.randn(m, k, device="cuda").to(dtype)
        q = torch.randint(-127, 128, (n, k), device="cuda", dtype=torch.int8)
        s = torch.rand(n, device="cuda") / (64 * k ** 0.5) + 1e-4
        ref = x.double() @ (q.double() * s.double()[:, None]).t()
        worst, left = splitk_launches(kernel, x, q, s, ref, split, bm)
        ok = worst < 1e-2 and left == 0
        failed += not ok
        print(f"w8a16 swapab splitk {name} {m}x{n}x{k}: "
              f"{'ok' if ok else f'FAILED rel {worst:.3g}, counters {left}'}")
# The weight-only int8 matrix-vector product (gemv_w8a16.mlir, M = 1):
# y = (Q * s) . x against the fp32 product, N not a multiple of the tile.
gw8 = rt.load(tm.compile(f"{kernels_dir}/examples/gemv_w8a16.mlir"))
for suffix, dtype in (("f16", torch.float16), ("bf16", torch.bfloat16)):
    kernel = gw8.kernel(f"gemv_w8a16_{suffix}")
    for n, k in ((300, 1040), (4096, 4096), (11001, 4112)):
        x = torch.randn(k, device="cuda").to(dtype)
        q = torch.randint(-127, 128, (n, k), device="cuda", dtype=torch.int8)
        s = torch.rand(n, device="cuda") / (64 * k ** 0.5) + 1e-4
        y = torch.full((n,), float("nan"), device="cuda", dtype=dtype)
        kernel.launch(x, q, s, y)
        ref = (q.float() * s[:, None]) @ x.float()
        err = ((y.float() - ref).norm() / ref.norm()).item()
        ok = err < 1e-2
        failed += not ok
        print(f"gemv w8a16 {suffix} 1x{n}x{k}: "
              f"{'ok' if ok else f'FAILED rel {err:.3g}'}")
# The integer tensor-core GEMMs: the i32 product exactly (fp64 holds it),
# and W8A8 with per-token and per-channel scales.
i8 = rt.load(tm.compile(f"{kernels_dir}/examples/gemm_int8.mlir"))
for name in ("int_mm_i32", "int_mm_i32_m64"):
    for m, n, k in ((128, 128, 128), (300, 520, 384), (77, 1000, 2064),
                    (1, 64, 4096)):
        a = torch.randint(-128, 128, (m, k), device="cuda", dtype=torch.int8)
        w = torch.randint(-128, 128, (n, k), device="cuda", dtype=torch.int8)
        c = torch.full((m, n), -1, device="cuda", dtype=torch.int32)
        i8.kernel(name).launch(a, w, c)
        ref = (a.double() @ w.double().t()).to(torch.int32)
        bad = (c != ref).sum().item()
        failed += bad != 0
        print(f"{name} {m}x{n}x{k}: {'ok' if bad == 0 else f'FAILED {bad} differ'}")
for suffix, dtype in (("f16", torch.float16), ("bf16", torch.bfloat16)):
    for m, n, k in ((128, 256, 256), (77, 1000, 2064)):
        a = torch.randint(-127, 128, (m, k), device="cuda", dtype=torch.int8)
        w = torch.randint(-127, 128, (n, k), device="cuda", dtype=torch.int8)
        sa = torch.rand(m, device="cuda") / 100 + 1e-3
        sw = torch.rand(n, device="cuda") / (100 * k ** 0.5) + 1e-4
        c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
        i8.kernel(f"gemm_w8a8_{suffix}").launch(a, w, sa, sw, c)
        ref = (a.double() @ w.double().t()) * sa.double()[:, None] * sw.double()
        err = ((c.double() - ref).norm() / ref.norm()).item()
        ok = err < 1e-2
        failed += not ok
        print(f"w8a8 {suffix} {m}x{n}x{k}: {'ok' if ok else f'FAILED rel {err:.3g}'}")
# The int4 GEMM: weights in -8 .. 7 packed two a byte in the kernel's
# layout (in each block of 256 values of K, byte j holds value j low and
# 128 + j high), one scale per channel and group of 128.


def pack_int4(w):
    n, k = w.shape
    blocks = (k + 255) // 256
    padded = torch.zeros(n, blocks * 256, dtype=torch.int32, device=w.device)
    padded[:, :k] = w
    halves = padded.view(n, blocks, 2, 128) & 0xF
    packed = halves[:, :, 0] | (halves[:, :, 1] << 4)
    return packed.to(torch.uint8).view(torch.int8).reshape(n, blocks * 128)


def int4_weights(n, k, scale):
    w = torch.randint(-8, 8, (n, k), device="cuda", dtype=torch.int32)
    s = torch.rand((k + 127) // 128, n, device="cuda") * scale + scale / 8
    dense = w.float() * s.repeat_interleave(128, dim=0)[:k].t()
    return pack_int4(w), s, dense


w4 = rt.load(tm.compile(f"{kernels_dir}/examples/gemm_w4a16.mlir"))
for suffix, dtype in (("f16", torch.float16), ("bf16", torch.bfloat16)):
    kernel = w4.kernel(f"gemm_w4a16_{suffix}")
    for m, n, k in ((64, 64, 256), (16, 300, 1040), (130, 520, 4096),
                    (1, 128, 4224)):
        x = torch.randn(m, k, device="cuda").to(dtype)
        q, s, dense = int4_weights(n, k, 1 / (8 * k ** 0.5))
        c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
        kernel.launch(x, q, s, c)
        ref = x.float() @ dense.t()
        err = ((c.float() - ref).norm() / ref.norm()).item()
        ok = err < 1e-2
        failed += not ok
        print(f"w4a16 {suffix} {m}x{n}x{k}: "
              f"{'ok' if ok else f'FAILED rel {err:.3g}'}")
# The swapped int4 form (gemm_w4a16_swapab.mlir): Y^T = (Wq * s) . X^T,
# the same packed weights and group-major scales.
sw4 = rt.load(tm.compile(f"{kernels_dir}/examples/gemm_w4a16_swapab.mlir"))
for name, dtype, shapes in (
        ("f16", torch.float16, ((16, 300, 1040), (5, 4100, 4096),
                                (1, 128, 4224))),
        ("bf16", torch.bfloat16, ((7, 520, 1040), (16, 4096, 4096))),
        ("m64_f16", torch.float16, ((64, 520, 4096), (70, 4096, 1040)))):
    kernel = sw4.kernel(f"gemm_w4a16_swapab_{name}")
    for m, n, k in shapes:
        x = torch.randn(m, k, device="cuda").to(dtype)
        q, s, dense = int4_weights(n, k, 1 / (8 * k ** 0.5))
        yt = torch.full((n, m), float("nan"), device="cuda", dtype=dtype)
        kernel.launch(x, q, s, yt)
        ref = x.double() @ dense.double().t()
        err = ((yt.t().double() - ref).norm() / ref.norm()).item()
        ok = err < 1e-2
        failed += not ok
        print(f"w4a16 swapab {name} {m}x{n}x{k}: "
              f"{'ok' if ok else f'FAILED rel {err:.3g}'}")
# Its split-K twin: three launches on the same counters, each correct and
# leaving them zero (SPLIT 4 over K = 1040: five blocks of 256, an empty
# split).
for name, dtype, split, shapes in (
        ("splitk_f16", torch.float16, 2, ((16, 4096, 4096), (5, 300, 1040))),
        ("splitk_bf16", torch.bfloat16, 3, ((7, 520, 4096),)),
        ("splitk4_f16", torch.float16, 4, ((16, 136, 1040),))):
    kernel = sw4.kernel(f"gemm_w4a16_swapab_{name}")
    for m, n, k in shapes:
        x = torch.randn(m, k, device="cuda").to(dtype)
        q, s, dense = int4_weights(n, k, 1 / (8 * k ** 0.5))
        ref = x.double() @ dense.double().t()
        worst, left = splitk_launches(kernel, x, q, s, ref, split, 16)
        ok = worst < 1e-2 and left == 0
        failed += not ok
        print(f"w4a16 swapab {name} {m}x{n}x{k}: "
              f"{'ok' if ok else f'FAILED rel {worst:.3g}, counters {left}'}")
if "--time" in sys.argv:
    from tile_mlir.timing import l2_flush, median_in_turns
    flush = l2_flush()
    shapes = ((1, 4096, 4096), (16, 11008, 4096), (64, 14336, 4096),
              (1024, 4096, 4096))

    def int8_weights(n, k, scale):
        q = torch.randint(-127, 128, (n, k), device="cuda", dtype=torch.int8)
        s = torch.rand(n, device="cuda") * scale
        return q, s, q.float() * s[:, None]

    for m, n, k in ((4096, 4096, 4096), (8192, 8192, 8192), (32, 4096, 4096)):
        a = torch.randint(-128, 128, (m, k), device="cuda", dtype=torch.int8)
        w = torch.randint(-128, 128, (n, k), device="cuda", dtype=torch.int8)
        c = torch.empty(m, n, device="cuda", dtype=torch.int32)
        ours = i8.kernel("int_mm_i32").prepare(a, w, c)
        peer = lambda: torch._int_mm(a, w.t())  # noqa: E731
        o, p = median_in_turns([ours, peer], flush=flush)
        print(f"time int_mm {m}x{n}x{k}: ours {o * 1e3:.1f} us, torch._int_mm "
              f"{p * 1e3:.1f} us, peer/ours {p / o:.3f}, "
              f"{2 * m * n * k / o / 1e9:.0f} TOP/s")
    for label, kernel, weights in (
            ("w8a16", w8.kernel("gemm_w8a16_f16"), int8_weights),
            ("w4a16", w4.kernel("gemm_w4a16_f16"), int4_weights)):
        for m, n, k in shapes:
            x = torch.randn(m, k, device="cuda", dtype=torch.float16)
            q, s, dense = weights(n, k, 1e-3)
            w = dense.half()
            c = torch.empty(m, n, device="cuda", dtype=torch.float16)
            ours = kernel.prepare(x, q, s, c)
            peer = lambda: x @ w.t()  # noqa: E731
            o, p = median_in_turns([ours, peer], flush=flush)
            print(f"time {label} {m}x{n}x{k}: ours {o * 1e3:.1f} us, torch "
                  f"fp16 {p * 1e3:.1f} us, peer/ours {p / o:.3f}")
    for m, n, k in ((16, 4096, 4096), (16, 11008, 4096), (16, 14336, 4096),
                    (16, 4096, 14336), (64, 11008, 4096), (64, 14336, 4096)):
        x = torch.randn(m, k, device="cuda", dtype=torch.float16)
        q, s, dense = int8_weights(n, k, 1e-3)
        w = dense.half()
        yt = torch.empty(n, m, device="cuda", dtype=torch.float16)
        ours = sw8.kernel("gemm_w8a16_swapab_f16" if m <= 16 else
                          "gemm_w8a16_swapab_m64_f16").prepare(x, q, s, yt)
        peer = lambda: x @ w.t()  # noqa: E731
        o, p = median_in_turns([ours, peer], flush=flush)
        print(f"time w8a16 swapab {m}x{n}x{k}: ours {o * 1e3:.1f} us, torch "
              f"fp16 {p * 1e3:.1f} us, peer/ours {p / o:.3f}")
    for m, n, k in ((16, 4096, 4096), (16, 11008, 4096), (16, 14336, 4096),
                    (16, 4096, 14336), (64, 11008, 4096), (64, 14336, 4096)):
        x = torch.randn(m, k, device="cuda", dtype=torch.float16)
        q, s, dense = int4_weights(n, k, 1e-3)
        w = dense.half()
        yt = torch.empty(n, m, device="cuda", dtype=torch.float16)
        ours = sw4.kernel("gemm_w4a16_swapab_f16" if m <= 16 else
                          "gemm_w4a16_swapab_m64_f16").prepare(x, q, s, yt)
        peer = lambda: x @ w.t()  # noqa: E731
        o, p = median_in_turns([ours, peer], flush=flush)
        print(f"time w4a16 swapab {m}x{n}x{k}: ours {o * 1e3:.1f} us, torch "
              f"fp16 {p * 1e3:.1f} us, peer/ours {p / o:.3f}")
    for m, n, k in ((16, 4096, 4096), (16, 4096, 14336), (64, 4096, 4096)):
        x = torch.randn(m, k, device="cuda", dtype=torch.float16)
        q, s, dense = int8_weights(n, k, 1e-3)
        w = dense.half()
        yt = torch.empty(n, m, device="cuda", dtype=torch.float16)
        bm = 16 if m <= 16 else 64
        work = torch.empty(2, n, m, device="cuda")
        count = torch.zeros(-(-n // 64) * -(-m // bm), device="cuda",
                            dtype=torch.int32)
        ours = sw8.kernel("gemm_w8a16_swapab_splitk_f16" if m <= 16 else
                          "gemm_w8a16_swapab_splitk_m64_f16").prepare(
            x, q, s, yt, work, count)
        peer = lambda: x @ w.t()  # noqa: E731
        o, p = median_in_turns([ours, peer], flush=flush)
        print(f"time w8a16 swapab splitk {m}x{n}x{k}: ours {o * 1e3:.1f} us, "
              f"torch fp16 {p * 1e3:.1f} us, peer/ours {p / o:.3f}")
    for m, n, k, split in ((16, 4096, 4096, 4), (16, 11008, 4096, 2),
                           (16, 14336, 4096, 2), (16, 4096, 14336, 4)):
        x = torch.randn(m, k, device="cuda", dtype=torch.float16)
        q, s, dense = int4_weights(n, k, 1e-3)
        w = dense.half()
        yt = torch.empty(n, m, device="cuda", dtype=torch.float16)
        work = torch.empty(split, n, m, device="cuda")
        count = torch.zeros(-(-n // 64) * -(-m // 16), device="cuda",
                            dtype=torch.int32)
        name = "splitk4_f16" if split == 4 else "splitk_f16"
        ours = sw4.kernel(f"gemm_w4a16_swapab_{name}").prepare(
            x, q, s, yt, work, count)
        peer = lambda: x @ w.t()  # noqa: E731
        o, p = median_in_turns([ours, peer], flush=flush)
        print(f"time w4a16 swapab splitk {split} {m}x{n}x{k}: ours "
              f"{o * 1e3:.1f} us, torch fp16 {p * 1e3:.1f} us, peer/ours "
              f"{p / o:.3f}")
    for n, k in ((4096, 4096), (11008, 4096), (14336, 4096), (4096, 14336)):
        x = torch.randn(1, k, device="cuda", dtype=torch.float16)
        q, s, dense = int8_weights(n, k, 1e-3)
        w = dense.half()
        y = torch.empty(n, device="cuda", dtype=torch.float16)
        ours = gw8.kernel("gemv_w8a16_f16").prepare(x[0], q, s, y)
        peer = lambda: x @ w.t()  # noqa: E731
        o, p = median_in_turns([ours, peer], flush=flush)
        print(f"time gemv w8a16 1x{n}x{k}: ours {o * 1e3:.1f} us, torch fp16 "
              f"{p * 1e3:.1f} us, peer/ours {p / o:.3f}")
print(f"int8: {failed} failed")
sys.exit(1 if failed else 0)
