/*===- args_test.c - Arguments checked against kernel records -------------===*
 *
 * tile_rt_kernel_desc_check_args without a GPU: counts, kinds, dtypes,
 * ranks, alignment, and the TMA rules of tensor-map arguments (args.test).
 *
 *===----------------------------------------------------------------------===*/

#include "test_util.h"

#include <stdint.h>
#include <string.h>

static const char info_text[] =
    "tile-kernel-info 1\n"
    "kernel gemm\n"
    "block 384 1 1\n"
    "smem 197632\n"
    "grid 0 2 1 256\n"
    "grid 1 2 0 128\n"
    "param memref 0 f16 2\n"
    "param memref 1 f16 2\n"
    "param memref 2 f32 2\n"
    "param scalar 3 f32\n"
    "param scalar 4 i64\n"
    "param tensormap 0 f16 2 box 64 128 swizzle 128\n"
    "param tensormap 1 f16 2 box 64 256 swizzle 128\n"
    "end\n";

static tile_rt_arg args[5];

/* A valid call: A 4096x1024, B 1024x2048, C 4096x2048 f32, alpha, k-tiles. */
static void reset(void) {
  MUST(tile_rt_arg_memref_2d(&args[0], TILE_RT_F16, 0x10000, 4096, 1024, 1024));
  MUST(tile_rt_arg_memref_2d(&args[1], TILE_RT_F16, 0x20000, 1024, 2048, 2048));
  MUST(tile_rt_arg_memref_2d(&args[2], TILE_RT_F32, 0x30000, 4096, 2048, 2048));
  MUST(tile_rt_arg_f32(&args[3], 1.0f));
  MUST(tile_rt_arg_i64(&args[4], 16));
}

static void check(const char *label, const tile_rt_kernel_desc *k, int n) {
  report(label, tile_rt_kernel_desc_check_args(k, args, n));
  reset();
}

/* A hand-made record of one 2-d memref argument read through a tensor map
 * with the given box and swizzle. */
static void hand_record(tile_rt_kernel_desc *k, tile_rt_param_desc p[2],
                        const char *name, tile_rt_dtype dtype, uint32_t box0,
                        uint32_t box1, int swizzle) {
  memset(p, 0, 2 * sizeof p[0]);
  p[0].kind = TILE_RT_PARAM_MEMREF;
  p[0].dtype = dtype;
  p[0].rank = 2;
  p[1] = p[0];
  p[1].kind = TILE_RT_PARAM_TENSORMAP;
  p[1].box[0] = box0;
  p[1].box[1] = box1;
  p[1].swizzle = swizzle;
  memset(k, 0, sizeof *k);
  k->name = name;
  k->nargs = 1;
  k->nparams = 2;
  k->params = p;
}

int main(void) {
  tile_rt_kernel_info *info;
  MUST(tile_rt_kernel_info_parse(&info, info_text, strlen(info_text)));
  const tile_rt_kernel_desc *k;
  MUST(tile_rt_kernel_info_find(&k, info, "gemm"));
  reset();

  check("valid", k, 5);
  check("count", k, 4);
  MUST(tile_rt_arg_i32(&args[0], 1));
  check("scalar for memref", k, 5);
  MUST(
      tile_rt_arg_memref_2d(&args[1], TILE_RT_BF16, 0x20000, 1024, 2048, 2048));
  check("dtype", k, 5);
  MUST(tile_rt_arg_memref_3d(&args[2], TILE_RT_F32, 0x30000, 1, 4096, 2048));
  check("rank", k, 5);
  MUST(tile_rt_arg_i32(&args[4], 16));
  check("i32 for i64", k, 5);
  MUST(tile_rt_arg_memref_1d(&args[3], TILE_RT_F32, 0x40000, 1));
  check("memref for f32", k, 5);
  MUST(tile_rt_arg_memref_2d(&args[2], TILE_RT_F32, 0x30008, 4096, 2048, 2048));
  check("misaligned C", k, 5);
  MUST(tile_rt_arg_memref_2d(&args[2], TILE_RT_F32, 0x30000, 4096, -1, 2048));
  check("negative size", k, 5);
  {
    const int64_t sizes[2] = {4096, 2048}, strides[2] = {1, 4096};
    MUST(tile_rt_arg_memref(&args[2], TILE_RT_F32, 0x30000, 2, sizes, strides));
    check("column-major C", k, 5);
  }

  /* The TMA rules, on the tensor maps over A (param 5) and B (param 6). */
  MUST(tile_rt_arg_memref_2d(&args[0], TILE_RT_F16, 0x10000, 4096, 1000, 1000));
  check("A ld 1000 (2000 bytes)", k, 5);
  MUST(tile_rt_arg_memref_2d(&args[0], TILE_RT_F16, 0x10000, 4096, 1000, 1004));
  check("A ld 1004 (2008 bytes)", k, 5);
  MUST(tile_rt_arg_memref_2d(&args[1], TILE_RT_F16, 0x20000, 1024, 2048,
                             (int64_t)1 << 39));
  check("B ld 2^39 (2^40 bytes)", k, 5);
  MUST(tile_rt_arg_memref_2d(&args[0], TILE_RT_F16, 0x10000, 0, 1024, 1024));
  check("A M=0", k, 5);
  MUST(tile_rt_arg_memref_2d(&args[0], TILE_RT_F16, 0x10000, 4096, 1024, 0));
  check("A ld 0", k, 5);
  {
    const int64_t sizes[2] = {1024, 2048}, strides[2] = {2048, 2};
    MUST(tile_rt_arg_memref(&args[1], TILE_RT_F16, 0x20000, 2, sizes, strides));
    check("B inner stride 2", k, 5);
  }

  /* Views that start before their pointer, have none, or wrap around the
   * address space; extents that overflow 64 bits. */
  {
    const int64_t sizes[2] = {4096, 2048}, strides[2] = {-2048, 1};
    MUST(tile_rt_arg_memref(&args[2], TILE_RT_F32, 0x30000, 2, sizes, strides));
    check("C negative stride", k, 5);
  }
  MUST(tile_rt_arg_memref_2d(&args[2], TILE_RT_F32, 0, 4096, 2048, 2048));
  check("C NULL", k, 5);
  MUST(tile_rt_arg_memref_2d(&args[2], TILE_RT_F32, 0, 0, 2048, 2048));
  check("C NULL and empty", k, 5);
  MUST(tile_rt_arg_memref_2d(&args[2], TILE_RT_F32, UINT64_MAX - 0xfffff, 4096,
                             2048, 2048));
  check("C wraps", k, 5);
  MUST(tile_rt_arg_memref_2d(&args[2], TILE_RT_F32, 0x30000, (int64_t)1 << 40,
                             2048, (int64_t)1 << 40));
  check("C extent overflows", k, 5);

  /* A TMA stride whose bytes wrap: (2^62 + 4) * 4 is 16 modulo 2^64. */
  {
    tile_rt_param_desc p32[2];
    tile_rt_kernel_desc tma32;
    hand_record(&tma32, p32, "tma32", TILE_RT_F32, 4, 1, 0);
    const int64_t wrap = ((int64_t)1 << 62) + 4;
    tile_rt_arg t;
    MUST(tile_rt_arg_memref_2d(&t, TILE_RT_F32, 0x10000, 1, 4, wrap));
    report("tma32 ld 2^62+4, 1 row",
           tile_rt_kernel_desc_check_args(&tma32, &t, 1));
    MUST(tile_rt_arg_memref_2d(&t, TILE_RT_F32, 0x10000, 2, 4, wrap));
    report("tma32 ld 2^62+4, 2 rows",
           tile_rt_kernel_desc_check_args(&tma32, &t, 1));
    MUST(tile_rt_arg_memref_2d(&t, TILE_RT_F32, 0x10000, 2, 4, 4));
    report("tma32 ld 4, 2 rows", tile_rt_kernel_desc_check_args(&tma32, &t, 1));
  }

  /* Rules the parser already enforces, on a hand-made record. */
  tile_rt_param_desc params[2];
  tile_rt_kernel_desc hand;
  hand_record(&hand, params, "hand", TILE_RT_F16, 64, 300, 128);
  check("hand box 300", &hand, 1);
  params[1].box[1] = 64;
  params[1].box[0] = 128;
  check("hand inner 256 bytes swizzle 128", &hand, 1);
  params[1].swizzle = 0;
  check("hand inner 256 bytes no swizzle", &hand, 1);
  params[1].box[0] = 12;
  check("hand inner 24 bytes", &hand, 1);
  params[1].box[0] = 8;
  check("hand inner 16 bytes", &hand, 1);

  /* Building arguments. */
  tile_rt_arg a;
  const int64_t six[6] = {1, 1, 1, 1, 1, 1};
  report("rank 6", tile_rt_arg_memref(&a, TILE_RT_F16, 0, 6, six, six));
  report("rank 0", tile_rt_arg_memref(&a, TILE_RT_F16, 0, 0, six, six));
  report("bad dtype",
         tile_rt_arg_memref(&a, (tile_rt_dtype)12, 0, 1, six, six));
  MUST(tile_rt_arg_memref_4d(&a, TILE_RT_BF16, 0x100, 2, 3, 4, 5));
  printf("4d: rank %d sizes %lld %lld %lld %lld strides %lld %lld %lld %lld\n",
         a.u.memref.rank, (long long)a.u.memref.sizes[0],
         (long long)a.u.memref.sizes[1], (long long)a.u.memref.sizes[2],
         (long long)a.u.memref.sizes[3], (long long)a.u.memref.strides[0],
         (long long)a.u.memref.strides[1], (long long)a.u.memref.strides[2],
         (long long)a.u.memref.strides[3]);
  MUST(tile_rt_arg_memref_2d(&a, TILE_RT_F32, 0x100, 7, 5, 8));
  printf("2d: sizes %lld %lld strides %lld %lld\n",
         (long long)a.u.memref.sizes[0], (long long)a.u.memref.sizes[1],
         (long long)a.u.memref.strides[0], (long long)a.u.memref.strides[1]);
  report("NULL out", tile_rt_arg_i32(NULL, 1));
  const int64_t big = (int64_t)1 << 32;
  report("3d strides overflow",
         tile_rt_arg_memref_3d(&a, TILE_RT_F16, 0x100, big, big, big));
  MUST(tile_rt_kernel_info_free(info));

  /* A fused GEMM's contracts as the compiler writes them: a bias shorter
   * than N is refused, an output with M + 1 rows too. */
  static const char gelu_text[] = "tile-kernel-info 1\n"
                                  "kernel gemm_bias_gelu_f16\n"
                                  "block 256 1 1\n"
                                  "smem 0\n"
                                  "param memref 0 f16 2\n"
                                  "param memref 1 f16 2\n"
                                  "param memref 2 f16 1\n"
                                  "param memref 3 f16 2\n"
                                  "require 1 0 eq 0 1 0 B A\n"
                                  "require 3 0 eq 0 0 0 C A\n"
                                  "require 3 1 eq 1 1 0 C B\n"
                                  "require 2 0 eq 1 1 0 bias B\n"
                                  "end\n";
  MUST(tile_rt_kernel_info_parse(&info, gelu_text, strlen(gelu_text)));
  const tile_rt_kernel_desc *gelu;
  MUST(tile_rt_kernel_info_get(&gelu, info, 0));
  tile_rt_arg g[4];
  MUST(tile_rt_arg_memref_2d(&g[0], TILE_RT_F16, 0x10000, 512, 256, 256));
  MUST(tile_rt_arg_memref_2d(&g[1], TILE_RT_F16, 0x20000, 256, 1024, 1024));
  MUST(tile_rt_arg_memref_1d(&g[2], TILE_RT_F16, 0x30000, 1000));
  MUST(tile_rt_arg_memref_2d(&g[3], TILE_RT_F16, 0x40000, 512, 1024, 1024));
  report("bias 1000 of 1024", tile_rt_kernel_desc_check_args(gelu, g, 4));
  MUST(tile_rt_arg_memref_1d(&g[2], TILE_RT_F16, 0x30000, 1024));
  MUST(tile_rt_arg_memref_2d(&g[3], TILE_RT_F16, 0x40000, 513, 1024, 1024));
  report("C 513 rows", tile_rt_kernel_desc_check_args(gelu, g, 4));
  MUST(tile_rt_arg_memref_2d(&g[3], TILE_RT_F16, 0x40000, 512, 1024, 1024));
  report("consistent", tile_rt_kernel_desc_check_args(gelu, g, 4));
  MUST(tile_rt_kernel_info_free(info));

  /* Contracts with arithmetic: grouped-query attention's heads (Q's a
   * multiple of K's), a bound of a product, and sizes for which a side
   * cannot be computed (a divisor of 0, an overflow). */
  static const char gqa_text[] = "tile-kernel-info 1\n"
                                 "kernel gqa\n"
                                 "block 128 1 1\n"
                                 "smem 0\n"
                                 "param memref 0 f16 2\n"
                                 "param memref 1 f16 2\n"
                                 "require eq 0:0:Q,1:0:K,mod 0\n"
                                 "require ge 0:1:Q,0:1:Q,*,0:1:Q,* 0\n"
                                 "require le 0:1:Q 2,64,*\n"
                                 "end\n";
  MUST(tile_rt_kernel_info_parse(&info, gqa_text, strlen(gqa_text)));
  const tile_rt_kernel_desc *gqa;
  MUST(tile_rt_kernel_info_get(&gqa, info, 0));
  tile_rt_arg q[2];
  MUST(tile_rt_arg_memref_2d(&q[0], TILE_RT_F16, 0x10000, 32, 128, 128));
  MUST(tile_rt_arg_memref_2d(&q[1], TILE_RT_F16, 0x20000, 8, 128, 128));
  report("32 heads over 8", tile_rt_kernel_desc_check_args(gqa, q, 2));
  MUST(tile_rt_arg_memref_2d(&q[1], TILE_RT_F16, 0x20000, 5, 128, 128));
  report("32 heads over 5", tile_rt_kernel_desc_check_args(gqa, q, 2));
  MUST(tile_rt_arg_memref_2d(&q[1], TILE_RT_F16, 0x20000, 0, 128, 128));
  report("no K heads", tile_rt_kernel_desc_check_args(gqa, q, 2));
  MUST(tile_rt_arg_memref_2d(&q[1], TILE_RT_F16, 0x20000, 8, 128, 128));
  MUST(tile_rt_arg_memref_2d(&q[0], TILE_RT_F16, 0x10000, 32, 129, 129));
  report("head size 129", tile_rt_kernel_desc_check_args(gqa, q, 2));
  MUST(tile_rt_arg_memref_2d(&q[0], TILE_RT_F16, 0x10000, 0, 3000000, 3000000));
  MUST(tile_rt_arg_memref_2d(&q[1], TILE_RT_F16, 0x20000, 1, 128, 128));
  report("cube overflows", tile_rt_kernel_desc_check_args(gqa, q, 2));
  MUST(tile_rt_kernel_info_free(info));
  return 0;
}
