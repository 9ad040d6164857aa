/*===- grid_test.c - Grid computation from argument sizes -----------------===*
 *
 * Prints the grid tile_rt_kernel_desc_grid computes for a range of sizes,
 * and the errors for arguments the grid rules cannot read (grid.test).
 *
 *===----------------------------------------------------------------------===*/

#include "test_util.h"

#include <string.h>

static const char info_text[] =
    "tile-kernel-info 1\n"
    /* x over N = C.sizes[1] / 256, y over M = C.sizes[0] / 128 */
    "kernel gemm\n"
    "block 384 1 1\n"
    "smem 0\n"
    "grid 0 2 1 256\n"
    "grid 1 2 0 128\n"
    "param memref 0 f16 2\n"
    "param memref 1 f16 2\n"
    "param memref 2 f16 2\n"
    "end\n"
    /* x constant (a persistent kernel), z over the batch of a 3-d memref */
    "kernel persistent\n"
    "block 128 1 1\n"
    "smem 0\n"
    "grid 2 1 0 1\n"
    "grid 0 -1 0 132\n"
    "param scalar 0 i32\n"
    "param memref 1 bf16 3\n"
    "end\n"
    /* gemm's rules in clusters of 2 x 2: whole clusters only */
    "kernel gemm_cluster\n"
    "block 384 1 1\n"
    "smem 0\n"
    "cluster 2 2 1\n"
    "grid 0 2 1 256\n"
    "grid 1 2 0 128\n"
    "param memref 0 f16 2\n"
    "param memref 1 f16 2\n"
    "param memref 2 f16 2\n"
    "end\n"
    /* no grid lines: one block */
    "kernel single\n"
    "block 32 1 1\n"
    "smem 0\n"
    "param memref 0 f32 1\n"
    "end\n"
    /* y over a 1-element tile: extents past the 65535 limit */
    "kernel rows\n"
    "block 32 1 1\n"
    "smem 0\n"
    "grid 1 0 0 1\n"
    "param memref 0 f32 1\n"
    "end\n";

static const tile_rt_kernel_desc *find(tile_rt_kernel_info *info,
                                       const char *name) {
  const tile_rt_kernel_desc *k;
  MUST(tile_rt_kernel_info_find(&k, info, name));
  return k;
}

static void show(const char *label, const tile_rt_kernel_desc *k,
                 const tile_rt_arg *args, int nargs) {
  uint32_t grid[3] = {7, 7, 7};
  if (report(label, tile_rt_kernel_desc_grid(grid, k, args, nargs)) ==
      TILE_RT_SUCCESS)
    printf("%s: grid %u %u %u\n", label, grid[0], grid[1], grid[2]);
}

/* C (argument 2) of an M x N gemm; A and B are not read by the rules. */
static void gemm(const tile_rt_kernel_desc *k, int64_t m, int64_t n) {
  tile_rt_arg args[3];
  MUST(tile_rt_arg_memref_2d(&args[0], TILE_RT_F16, 0x1000, m, 64, 64));
  MUST(tile_rt_arg_memref_2d(&args[1], TILE_RT_F16, 0x2000, 64, n, n));
  MUST(tile_rt_arg_memref_2d(&args[2], TILE_RT_F16, 0x3000, m, n, n));
  char label[64];
  snprintf(label, sizeof label, "gemm M=%lld N=%lld", (long long)m,
           (long long)n);
  show(label, k, args, 3);
}

int main(void) {
  tile_rt_kernel_info *info;
  MUST(tile_rt_kernel_info_parse(&info, info_text, strlen(info_text)));
  const tile_rt_kernel_desc *g = find(info, "gemm");
  gemm(g, 4096, 4096);
  gemm(g, 4097, 4095);
  gemm(g, 1, 1);
  gemm(g, 128, 256);
  gemm(g, 129, 257);
  gemm(g, 0, 512);
  gemm(g, 8192, 0);

  const tile_rt_kernel_desc *gc = find(info, "gemm_cluster");
  gemm(gc, 4096, 4096);
  gemm(gc, 4097, 4352);
  gemm(gc, 1, 1);
  gemm(gc, 0, 512);

  tile_rt_arg args[3];
  /* Too few arguments for the rule reading argument 2. */
  show("gemm 2 args", g, args, 0);
  /* A scalar where the rule wants a memref. */
  MUST(tile_rt_arg_memref_2d(&args[0], TILE_RT_F16, 0x1000, 64, 64, 64));
  MUST(tile_rt_arg_memref_2d(&args[1], TILE_RT_F16, 0x1000, 64, 64, 64));
  MUST(tile_rt_arg_i32(&args[2], 5));
  show("gemm scalar C", g, args, 3);
  /* A rank-1 memref where the rule reads size 1. */
  MUST(tile_rt_arg_memref_1d(&args[2], TILE_RT_F16, 0x1000, 64));
  show("gemm rank-1 C", g, args, 3);
  /* A negative size. */
  MUST(tile_rt_arg_memref_2d(&args[2], TILE_RT_F16, 0x1000, -5, 64, 64));
  show("gemm negative M", g, args, 3);

  const tile_rt_kernel_desc *p = find(info, "persistent");
  MUST(tile_rt_arg_i32(&args[0], 3));
  MUST(tile_rt_arg_memref_3d(&args[1], TILE_RT_BF16, 0x1000, 12, 1024, 64));
  show("persistent batch=12", p, args, 2);

  const tile_rt_kernel_desc *s = find(info, "single");
  MUST(tile_rt_arg_memref_1d(&args[0], TILE_RT_F32, 0x1000, 1 << 20));
  show("single", s, args, 1);

  const tile_rt_kernel_desc *r = find(info, "rows");
  MUST(tile_rt_arg_memref_1d(&args[0], TILE_RT_F32, 0x1000, 65535));
  show("rows 65535", r, args, 1);
  MUST(tile_rt_arg_memref_1d(&args[0], TILE_RT_F32, 0x1000, 65536));
  show("rows 65536", r, args, 1);

  show("NULL grid", r, NULL, 1);
  MUST(tile_rt_kernel_info_free(info));
  return 0;
}
