/*===- gpu_test.c - The runtime on a real GPU -----------------------------===*
 *
 * Usage: tile-rt-gpu-test KERNELS.ptx KERNELS.kinfo
 * Loads hand-written ABI kernels (Inputs/abi_kernels.ptx) through the driver's
 * JIT and checks, on the device: scalar and memref parameters as the kernel
 * sees them, the dynamic shared memory opt-in, the JIT error log, and the
 * watchdog on a kernel that outlives it (gpu.test, REQUIRES: cuda).
 *
 *===----------------------------------------------------------------------===*/

#include "test_util.h"

#include <string.h>

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    printf("FATAL: cannot open %s\n", path);
    exit(1);
  }
  char *text = NULL;
  size_t size = 0, cap = 0, got;
  char chunk[4096];
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (size + got + 1 > cap) {
      cap = 2 * (size + got + 1);
      text = realloc(text, cap);
      if (!text)
        exit(1);
    }
    memcpy(text + size, chunk, got);
    size += got;
  }
  fclose(f);
  *n = size;
  return text;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s KERNELS.ptx KERNELS.kinfo\n", argv[0]);
    return 2;
  }
  size_t nptx, ninfo;
  char *ptx = slurp(argv[1], &nptx), *kinfo = slurp(argv[2], &ninfo);
  tile_rt_context *ctx;
  MUST(tile_rt_context_create(&ctx, 0));
  tile_rt_module *mod;
  MUST(tile_rt_module_load(&mod, ctx, ptx, nptx, kinfo, ninfo));

  /* Parameters as the kernel reads them. */
  tile_rt_kernel *probe;
  MUST(tile_rt_module_get_kernel(&probe, mod, "abi_probe"));
  tile_rt_deviceptr out;
  MUST(tile_rt_mem_alloc(&out, ctx, 1 << 20));
  MUST(tile_rt_mem_set8(ctx, out, 0xff, 64));
  tile_rt_arg args[4];
  MUST(tile_rt_arg_memref_1d(&args[0], TILE_RT_I64, out, 1000));
  MUST(tile_rt_arg_f32(&args[1], 3.14159265f));
  MUST(tile_rt_arg_i32(&args[2], -7));
  MUST(tile_rt_arg_i64(&args[3], ((int64_t)1 << 33) + 3));
  report("launch abi_probe", tile_rt_launch(probe, args, 4, NULL));
  report("sync", tile_rt_context_synchronize(ctx, 30));
  int64_t seen[5];
  MUST(tile_rt_mem_dtoh(ctx, seen, out, sizeof seen));
  printf("abi_probe saw: size %lld stride %lld alpha 0x%08llx n %lld off "
         "%lld\n",
         (long long)seen[0], (long long)seen[1], (long long)seen[2],
         (long long)seen[3], (long long)seen[4]);

  /* 100000 bytes of dynamic shared memory need the opt-in attribute. */
  tile_rt_kernel *smem;
  MUST(tile_rt_module_get_kernel(&smem, mod, "smem_probe"));
  tile_rt_kernel_attrs attrs;
  MUST(tile_rt_kernel_attributes(&attrs, smem));
  printf("smem_probe: max dynamic smem %d\n", attrs.max_dynamic_smem);
  MUST(tile_rt_mem_set32(ctx, out, 0, 1));
  MUST(tile_rt_arg_memref_1d(&args[0], TILE_RT_I32, out, 1));
  report("launch smem_probe", tile_rt_launch(smem, args, 1, NULL));
  report("sync", tile_rt_context_synchronize(ctx, 30));
  int32_t byte = 0;
  MUST(tile_rt_mem_dtoh(ctx, &byte, out, sizeof byte));
  printf("smem_probe read back %d\n", byte);
  tile_rt_kernel *big;
  report("get smem_too_big",
         tile_rt_module_get_kernel(&big, mod, "smem_too_big"));

  /* The driver's JIT log comes back in the message. */
  const char bad[] = ".version 7.0\n.target sm_75\n.address_size 64\n"
                     ".visible .entry abi_probe() { bogus; }\n";
  tile_rt_module *bad_mod;
  report("load bad ptx",
         tile_rt_module_load(&bad_mod, ctx, bad, strlen(bad), kinfo, ninfo));

  /* A kernel running 3 s against a 0.5 s watchdog, then waited for. */
  tile_rt_kernel *hang;
  MUST(tile_rt_module_get_kernel(&hang, mod, "hang"));
  MUST(tile_rt_mem_set32(ctx, out, 0, 1));
  MUST(tile_rt_arg_memref_1d(&args[0], TILE_RT_I32, out, 1));
  MUST(tile_rt_arg_i64(&args[1], 3000000000LL));
  tile_rt_stream *stream;
  MUST(tile_rt_stream_create(&stream, ctx));
  report("launch hang", tile_rt_launch(hang, args, 2, stream));
  report("watchdog", tile_rt_stream_synchronize(ctx, stream, 0.5));
  report("wait it out", tile_rt_stream_synchronize(ctx, stream, 60));

  MUST(tile_rt_stream_free(stream));
  MUST(tile_rt_mem_free(ctx, out));
  MUST(tile_rt_module_free(mod));
  MUST(tile_rt_context_free(ctx));
  free(ptx);
  free(kinfo);
  return 0;
}
