"""The quantised and ragged examples of kernels/examples, compiled for
real and launched against the fake CUDA driver with the argument lists
their GPU tests pass (int8-gpu, fp8-gpu, bounds-gpu, moe-gpu, varlen-gpu,
swiglu-gpu): the
contracts, grids, shared memory and tensor-map shapes are checked by the
runtime as on a GPU, so a signature, a contract or a view that does not
fit shows up without one (examples-fake-launch.test). Shapes that break a
contract are refused before the driver.

Usage: TILE_RT_LIBCUDA=.../libtile_rt_fake_cuda.so
       examples_fake_launch_test.py KERNELS_DIR
"""
import os
import sys

import tile_mlir as tm

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from fake_driver import lib as fake  # noqa: E402

kernels_dir = sys.argv[1]
SPACE = 1 << 30  # the views' base addresses are spaced by this much


def load(rt, name, folder="examples/"):
    """The example's kernels, compiled, in a fake image naming them."""
    real = tm.compile(f"{kernels_dir}/{folder}{name}.mlir")
    names = [line.split()[1] for line in real.kernel_info.splitlines()
             if line.startswith("kernel ")]
    return rt.load(tm.Compiled(("FAKECUBIN " + " ".join(names)).encode(),
                               real.kernel_info))


class Views:
    """Row-major views at distinct, aligned fake addresses."""

    def __init__(self):
        self.next = SPACE

    def __call__(self, dtype, *sizes, strides=None):
        ref = tm.MemRef(self.next, dtype, tuple(sizes), strides)
        self.next += SPACE
        return ref


def run(label, kernel, *args):
    try:
        kernel.launch(*args)
        launch = fake.fake_cuda_last_launch().contents
        print(f"{label}: grid {list(launch.grid)} block {launch.block[0]} "
              f"smem {launch.smem}")
    except tm.TileError as e:
        print(f"{label}: {type(e).__name__}: {e}")


with tm.Runtime(0) as rt:
    v = Views()
    quantize = load(rt, "quantize")
    run("quantize int8 1x4099", quantize.kernel("quantize_f16"),
        v("f16", 1, 4099), v("f32", 1), v("i8", 1, 4099))
    run("dequantize_pipelined 300x1040",
        quantize.kernel("dequantize_pipelined_f16"), v("i8", 300, 1040),
        v("f32", 300), v("f16", 300, 1040))
    run("quantize_fp8 1030x4097", quantize.kernel("quantize_fp8_e4m3_f16"),
        v("f16", 1030, 4097), v("f8E4M3FN", 1030, 4097), 0.75)
    run("dequantize_fp8 3x77", quantize.kernel("dequantize_fp8_e5m2_bf16"),
        v("f8E5M2", 3, 77), v("bf16", 3, 77), 0.375)

    norm = load(rt, "rmsnorm_fp8")
    for name, n in (("add_rmsnorm_fp8_f16", 1000),
                    ("add_rmsnorm_fp8_long_f16", 8192),
                    ("add_rmsnorm_fp8_f16", 2000)):
        run(f"{name} 37x{n}", norm.kernel(name), v("f16", 37, n),
            v("f16", 37, n), v("f16", n), v("f16", 37, n),
            v("f8E4M3FN", 37, n), 1e-6, 0.02)

    fp8 = load(rt, "gemm_fp8")
    for m, n, k, kb in ((77, 1000, 2000, 16), (1, 256, 4096, 32),
                        (77, 1000, 2000, 15)):
        run(f"gemm_fp8_blockscale {m}x{n}x{k} SA[{kb}]",
            fp8.kernel("gemm_fp8_blockscale_e4m3"), v("f8E4M3FN", m, k),
            v("f8E4M3FN", n, k), v("f32", kb, m),
            v("f32", (n + 127) // 128, (k + 127) // 128), v("bf16", m, n))

    w4 = load(rt, "gemm_w4a16")
    for m, n, k in ((16, 300, 1040), (1, 128, 4224)):
        run(f"gemm_w4a16 {m}x{n}x{k}", w4.kernel("gemm_w4a16_f16"),
            v("f16", m, k), v("i8", n, (k + 255) // 256 * 128),
            v("f32", (k + 127) // 128, n), v("f16", m, n))
    run("gemm_w4a16 unpacked Q", w4.kernel("gemm_w4a16_f16"),
        v("f16", 16, 1024), v("i8", 300, 1024), v("f32", 8, 300),
        v("f16", 16, 300))

    w8 = load(rt, "gemm_w8a16")
    run("gemm_w8a16 16x300x1040", w8.kernel("gemm_w8a16_f16"),
        v("f16", 16, 1040), v("i8", 300, 1040), v("f32", 300),
        v("f16", 16, 300))

    ragged = load(rt, "ragged")
    run("scale_rows_until 77x1000 end 37",
        ragged.kernel("scale_rows_until_f16"), v("f16", 77, 1000),
        v("f16", 77, 1000), 37)

    moe = load(rt, "moe_gemm")
    run("moe_gemm 4 experts, 5 tiles", moe.kernel("moe_gemm_f16"),
        v("f16", 195, 512), v("f16", 4, 256, 512), v("i32", 5), v("i32", 5),
        v("i32", 5), v("f16", 195, 256))

    i8 = load(rt, "gemm_int8")
    run("int_mm 77x1000x2064", i8.kernel("int_mm_i32"), v("i8", 77, 2064),
        v("i8", 1000, 2064), v("i32", 77, 1000))
    run("gemm_w8a8 77x1000x2064", i8.kernel("gemm_w8a8_bf16"),
        v("i8", 77, 2064), v("i8", 1000, 2064), v("f32", 77), v("f32", 1000),
        v("bf16", 77, 1000))

    swiglu = load(rt, "swiglu")
    run("swiglu 300x520x1000", swiglu.kernel("swiglu_f16"),
        v("f16", 300, 1000), v("f16", 520, 1000), v("f16", 520, 1000),
        v("f16", 300, 520))

    # Packed sequences: [rows, heads, D] tensors read as [heads, rows, D].
    varlen = load(rt, "varlen_attention")

    def packed(t, n, heads, d=128):
        return v(t, heads, n, d, strides=(d, heads * d, 1))

    for name, hq, hkv, d in (("varlen_attention_d128_f16", 8, 8, 128),
                             ("varlen_attention_gqa4_causal_d128_bf16", 8, 2,
                              128),
                             ("varlen_attention_d64_bf16", 8, 8, 64)):
        t = "bf16" if name.endswith("bf16") else "f16"
        rows, keys, seqs, tiles = 1577, 1577, 3, 13
        run(name, varlen.kernel(name), packed(t, rows, hq, d),
            packed(t, keys, hkv, d), packed(t, keys, hkv, d),
            packed(t, rows, hq, d), v("i32", seqs + 1), v("i32", seqs + 1),
            v("i32", tiles), v("i32", tiles), d ** -0.5)
    run("varlen heads not grouped", varlen.kernel("varlen_attention_d128_f16"),
        packed("f16", 100, 8), packed("f16", 100, 2), packed("f16", 100, 2),
        packed("f16", 100, 8), v("i32", 2), v("i32", 2), v("i32", 1),
        v("i32", 1), 0.1)

    # Split-K combined in the kernel: W is SPLIT x M x N floats, Count one
    # counter per tile of C.
    reduce = load(rt, "gemm_splitk_reduce", folder="")
    run("gemm_splitk_reduce 16x4096x4096",
        reduce.kernel("gemm_splitk_reduce_f16"), v("f16", 16, 4096),
        v("f16", 4096, 4096), v("f16", 16, 4096), v("f32", 2, 16, 4096),
        v("i32", 64))
    run("gemm_splitk_reduce_nt 33x136x264",
        reduce.kernel("gemm_splitk_reduce_nt_f16"), v("f16", 33, 264),
        v("f16", 136, 264), v("f16", 33, 136), v("f32", 2, 33, 136),
        v("i32", 3))
    run("gemm_splitk_reduce W of 3 splits",
        reduce.kernel("gemm_splitk_reduce_f16"), v("f16", 16, 4096),
        v("f16", 4096, 4096), v("f16", 16, 4096), v("f32", 3, 16, 4096),
        v("i32", 64))
    run("gemm_splitk_reduce one counter short",
        reduce.kernel("gemm_splitk_reduce_f16"), v("f16", 16, 4096),
        v("f16", 4096, 4096), v("f16", 16, 4096), v("f32", 2, 16, 4096),
        v("i32", 63))

    sw4 = load(rt, "gemm_w4a16_swapab")
    for m, n, k in ((16, 300, 1040), (5, 4100, 4096)):
        run(f"gemm_w4a16_swapab {m}x{n}x{k}",
            sw4.kernel("gemm_w4a16_swapab_f16"), v("f16", m, k),
            v("i8", n, (k + 255) // 256 * 128),
            v("f32", (k + 127) // 128, n), v("f16", n, m))
    run("gemm_w4a16_swapab_splitk 16x4096x4096",
        sw4.kernel("gemm_w4a16_swapab_splitk_f16"), v("f16", 16, 4096),
        v("i8", 4096, 2048), v("f32", 32, 4096), v("f16", 4096, 16),
        v("f32", 2, 4096, 16), v("i32", 64))

    sw8 = load(rt, "gemm_w8a16_swapab")
    run("gemm_w8a16_swapab_splitk 16x4096x4096",
        sw8.kernel("gemm_w8a16_swapab_splitk_f16"), v("f16", 16, 4096),
        v("i8", 4096, 4096), v("f32", 4096), v("f16", 4096, 16),
        v("f32", 2, 4096, 16), v("i32", 64))

    # Clusters of 2 (4) blocks along N: the grid's x rounded up to whole
    # clusters; 384 threads with the producer warpgroup.
    gc = load(rt, "gemm_cluster")
    run("gemm_cluster 1000x2568x520", gc.kernel("gemm_cluster_f16"),
        v("f16", 1000, 520), v("f16", 520, 2568), v("f16", 1000, 2568))
    run("gemm_cluster4 200x136x1000", gc.kernel("gemm_cluster4_f16"),
        v("f16", 200, 1000), v("f16", 1000, 136), v("f16", 200, 136))

    sc = load(rt, "softmax_cluster", folder="")
    run("softmax_cluster 8x262144", sc.kernel("softmax_cluster_f16"),
        v("f16", 8, 262144), v("f16", 8, 262144))
    run("softmax_cluster 8x262145", sc.kernel("softmax_cluster_f16"),
        v("f16", 8, 262145), v("f16", 8, 262145))
