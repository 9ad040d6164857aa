/*===- launch_test.c - Modules, marshalling, memory, timing on a fake GPU -===*
 *
 * Usage: tile-rt-launch-test [--old]
 * Runs the runtime against fake_cuda.c (the old-driver build with --old) and
 * prints what reached the "driver": the parameter bytes of each launch, the
 * tensor-map operands, grids, and the errors of every failure path
 * (launch.test).
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "fake_cuda.h"
#include "test_util.h"

#include <cuda.h>
#include <dlfcn.h>
#include <string.h>

/* The fake driver's controls, from the very library the runtime opened
 * (dlopen of the same path gives the same instance). */
static void (*fake_cuda_expect_params)(const size_t *, int);
static const fake_cuda_launch *(*fake_cuda_last_launch)(void);
static void (*fake_cuda_set_hang)(int);
static void (*fake_cuda_fail_next_launch)(int);
static void (*fake_cuda_set_capturing)(void *);
static void (*fake_cuda_lifetime_of)(fake_cuda_lifetime_counts *);

static void bind_fake(const char *path) {
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("FATAL: cannot open %s: %s\n", path, dlerror());
    exit(1);
  }
  void *f[6] = {dlsym(lib, "fake_cuda_expect_params"),
                dlsym(lib, "fake_cuda_last_launch"),
                dlsym(lib, "fake_cuda_set_hang"),
                dlsym(lib, "fake_cuda_fail_next_launch"),
                dlsym(lib, "fake_cuda_set_capturing"),
                dlsym(lib, "fake_cuda_lifetime")};
  for (int i = 0; i < 6; ++i)
    if (!f[i]) {
      printf("FATAL: %s lacks the fake_cuda_* controls\n", path);
      exit(1);
    }
  memcpy(&fake_cuda_expect_params, &f[0], sizeof f[0]);
  memcpy(&fake_cuda_last_launch, &f[1], sizeof f[1]);
  memcpy(&fake_cuda_set_hang, &f[2], sizeof f[2]);
  memcpy(&fake_cuda_fail_next_launch, &f[3], sizeof f[3]);
  memcpy(&fake_cuda_set_capturing, &f[4], sizeof f[4]);
  memcpy(&fake_cuda_lifetime_of, &f[5], sizeof f[5]);
}

static const char image[] = "FAKECUBIN gemm scale pairs big static@2048";

static const char kinfo[] = "tile-kernel-info 1\n"
                            "kernel gemm\n"
                            "block 384 1 1\n"
                            "smem 197632\n"
                            "grid 0 2 1 256\n"
                            "grid 1 2 0 128\n"
                            "param memref 0 f16 2\n"
                            "param memref 1 bf16 2\n"
                            "param memref 2 f32 2\n"
                            "param scalar 3 f32\n"
                            "param tensormap 0 f16 2 box 64 128 swizzle 128\n"
                            "param tensormap 1 bf16 2 box 32 64 swizzle 64\n"
                            "require 1 0 eq 0 1 0 B A\n"
                            "require 2 1 eq 1 1 0 C B\n"
                            "require 0 1 le -1 0 4096 A -\n"
                            "require eq 0:1:A,64,mod 0\n"
                            "end\n"
                            "kernel scale\n"
                            "block 256 1 1\n"
                            "smem 0\n"
                            "grid 0 0 0 256\n"
                            "param memref 0 f32 1\n"
                            "param scalar 1 f32\n"
                            "param scalar 2 i32\n"
                            "param scalar 3 i64\n"
                            "end\n"
                            "kernel pairs\n"
                            "block 128 1 1\n"
                            "smem 0\n"
                            "cluster 2 1 1\n"
                            "grid 0 0 0 384\n"
                            "param memref 0 f32 1\n"
                            "param scalar 1 f32\n"
                            "param scalar 2 i32\n"
                            "param scalar 3 i64\n"
                            "end\n"
                            "kernel big\n"
                            "block 128 1 1\n"
                            "smem 240000\n"
                            "end\n"
                            "kernel static\n"
                            "block 128 1 1\n"
                            "smem 231424\n"
                            "end\n"
                            "kernel missing\n"
                            "block 128 1 1\n"
                            "smem 0\n"
                            "end\n";

static const char *dtype_name(uint64_t t) {
  switch (t) {
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
    return "FLOAT16";
  case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
    return "BFLOAT16";
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    return "FLOAT32";
  default:
    return "other";
  }
}

/* Prints the parameters of the last launch, 8-byte words as integers
 * relative to `base` where they look like its addresses. */
static void print_launch(uint64_t base) {
  const fake_cuda_launch *l = fake_cuda_last_launch();
  printf("launch #%d %s grid %u %u %u block %u %u %u smem %u\n", l->count,
         l->function, l->grid[0], l->grid[1], l->grid[2], l->block[0],
         l->block[1], l->block[2], l->smem);
  if (l->cluster[0] * l->cluster[1] * l->cluster[2] != 1)
    printf("  in clusters of %u %u %u\n", l->cluster[0], l->cluster[1],
           l->cluster[2]);
  for (int i = 0; i < l->nparams; ++i) {
    const unsigned char *b = l->bytes + l->offset[i];
    printf("  param %d (%zu bytes): ", i, l->size[i]);
    if (l->size[i] == 4) {
      int32_t v;
      float f;
      memcpy(&v, b, 4);
      memcpy(&f, b, 4);
      printf("i32 %d / f32 %g\n", v, (double)f);
    } else if (l->size[i] == 8) {
      int64_t v;
      memcpy(&v, b, 8);
      if (base && (uint64_t)v >= base && (uint64_t)v < base + (1u << 24))
        printf("base+0x%llx\n", (unsigned long long)((uint64_t)v - base));
      else
        printf("%lld\n", (long long)v);
    } else {
      uint64_t w[16];
      memcpy(w, b, sizeof w);
      printf("tensormap%s%s at %s-aligned storage\n",
             w[FAKE_MAP_MAGIC] == FAKE_MAP_MAGIC_VALUE ? "" : " (NOT ENCODED)",
             "", l->address[i] % 64 == 0 ? "64-byte" : "MIS");
      printf("    base+0x%llx %s rank %llu dims",
             (unsigned long long)(w[FAKE_MAP_ADDRESS] - base),
             dtype_name(w[FAKE_MAP_DTYPE]),
             (unsigned long long)w[FAKE_MAP_RANK]);
      for (uint64_t d = 0; d < w[FAKE_MAP_RANK]; ++d)
        printf(" %llu", (unsigned long long)w[FAKE_MAP_DIMS + d]);
      printf(" strides");
      for (uint64_t d = 0; d + 1 < w[FAKE_MAP_RANK]; ++d)
        printf(" %llu", (unsigned long long)w[FAKE_MAP_STRIDES + d]);
      printf(" box");
      for (uint64_t d = 0; d < w[FAKE_MAP_RANK]; ++d)
        printf(" %llu",
               (unsigned long long)(w[FAKE_MAP_BOX] >> (10 * d)) & 0x3ff);
      printf(" estrides");
      for (uint64_t d = 0; d < w[FAKE_MAP_RANK]; ++d)
        printf(" %llu",
               (unsigned long long)(w[FAKE_MAP_ESTRIDES] >> (10 * d)) & 0x3ff);
      uint64_t modes = w[FAKE_MAP_MODES];
      printf(" interleave %llu swizzle %llu l2 %llu oob %llu\n",
             (unsigned long long)(modes & 0xff),
             (unsigned long long)((modes >> 8) & 0xff),
             (unsigned long long)((modes >> 16) & 0xff),
             (unsigned long long)((modes >> 24) & 0xff));
    }
  }
}

int main(int argc, char **argv) {
  int old = argc > 1 && strcmp(argv[1], "--old") == 0;
  const char *fake = old ? TILE_RT_FAKE_CUDA_OLD : TILE_RT_FAKE_CUDA;
  setenv("TILE_RT_LIBCUDA", fake, 1);
  bind_fake(fake);
  printf("cuda.h enums: FLOAT16=%d BFLOAT16=%d SWIZZLE_128B=%d "
         "SWIZZLE_64B=%d L2_256B=%d OOB_NONE=%d\n",
         CU_TENSOR_MAP_DATA_TYPE_FLOAT16, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
         CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_SWIZZLE_64B,
         CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);

  tile_rt_context *ctx;
  MUST(tile_rt_context_create(&ctx, 0));

  /* Loading. */
  tile_rt_module *mod = (tile_rt_module *)&mod;
  report("load bad image",
         tile_rt_module_load(&mod, ctx, "ELF?", 4, kinfo, strlen(kinfo)));
  printf("module handle %s\n", mod ? "set" : "NULL");
  const char bad_info[] = "tile-kernel-info 1\nkernel gemm\nblock 0 1 1\n";
  report("load bad kinfo", tile_rt_module_load(&mod, ctx, image, strlen(image),
                                               bad_info, strlen(bad_info)));
  report("load no image",
         tile_rt_module_load(&mod, ctx, image, 0, kinfo, strlen(kinfo)));
  MUST(tile_rt_module_load(&mod, ctx, image, strlen(image), kinfo,
                           strlen(kinfo)));
  const tile_rt_kernel_info *info;
  MUST(tile_rt_module_kernel_info(&info, mod));
  int n;
  MUST(tile_rt_kernel_info_count(&n, info));
  printf("module kernels: %d\n", n);

  /* Lookups. */
  tile_rt_kernel *gemm, *scale, *k;
  report("get nope", tile_rt_module_get_kernel(&k, mod, "nope"));
  report("get missing", tile_rt_module_get_kernel(&k, mod, "missing"));
  report("get big", tile_rt_module_get_kernel(&k, mod, "big"));
  report("get static", tile_rt_module_get_kernel(&k, mod, "static"));
  MUST(tile_rt_module_get_kernel(&gemm, mod, "gemm"));
  MUST(tile_rt_module_get_kernel(&k, mod, "gemm"));
  printf("second lookup: %s handle\n", k == gemm ? "same" : "another");
  MUST(tile_rt_module_get_kernel(&scale, mod, "scale"));
  tile_rt_kernel_attrs attrs;
  MUST(tile_rt_kernel_attributes(&attrs, gemm));
  printf("gemm attrs: regs %d static %d local %d const %d threads %d "
         "max-dynamic %d ptx %d sass %d\n",
         attrs.registers, attrs.static_smem, attrs.local_bytes,
         attrs.const_bytes, attrs.max_threads_per_block, attrs.max_dynamic_smem,
         attrs.ptx_version, attrs.binary_version);
  const tile_rt_kernel_desc *desc;
  MUST(tile_rt_kernel_desc_of(&desc, scale));
  printf("scale desc: %s block %u smem %u\n", desc->name, desc->block[0],
         desc->smem);

  /* A gemm launch: M=1000 (not a multiple of 128), N=2048, K=512. */
  tile_rt_deviceptr base;
  MUST(tile_rt_mem_alloc(&base, ctx, 16 << 20));
  tile_rt_deviceptr A = base, B = base + (4 << 20), C = base + (8 << 20);
  tile_rt_arg args[4];
  MUST(tile_rt_arg_memref_2d(&args[0], TILE_RT_F16, A, 1000, 512, 512));
  MUST(tile_rt_arg_memref_2d(&args[1], TILE_RT_BF16, B, 512, 2048, 2048));
  MUST(tile_rt_arg_memref_2d(&args[2], TILE_RT_F32, C, 1000, 2048, 2048));
  MUST(tile_rt_arg_f32(&args[3], 0.5f));
  const size_t gemm_params[] = {8, 8, 8, 8, 8, 8, 8, 8,   8,
                                8, 8, 8, 8, 8, 8, 4, 128, 128};
  fake_cuda_expect_params(gemm_params, 18);
  if (report("launch gemm", tile_rt_launch(gemm, args, 4, NULL)) ==
      TILE_RT_SUCCESS)
    print_launch(base);

  /* Nothing reaches the driver when an argument is wrong or M is 0. */
  int before = fake_cuda_last_launch()->count;
  MUST(tile_rt_arg_memref_2d(&args[1], TILE_RT_BF16, B, 512, 2048, 2052));
  report("launch gemm B ld 2052", tile_rt_launch(gemm, args, 4, NULL));
  MUST(tile_rt_arg_memref_2d(&args[1], TILE_RT_BF16, B + 8, 512, 2048, 2048));
  report("launch gemm B+8", tile_rt_launch(gemm, args, 4, NULL));
  MUST(tile_rt_arg_memref_2d(&args[1], TILE_RT_BF16, B, 512, 2048, 2048));
  report("launch gemm 3 args", tile_rt_launch(gemm, args, 3, NULL));
  /* The shape contracts: B's K differs from A's, C has the wrong number of
   * columns, K is over the kernel's bound. */
  MUST(tile_rt_arg_memref_2d(&args[1], TILE_RT_BF16, B, 504, 2048, 2048));
  report("launch gemm B K=504", tile_rt_launch(gemm, args, 4, NULL));
  MUST(tile_rt_arg_memref_2d(&args[1], TILE_RT_BF16, B, 512, 2048, 2048));
  MUST(tile_rt_arg_memref_2d(&args[2], TILE_RT_F32, C, 1000, 2040, 2048));
  report("launch gemm C 2040 cols", tile_rt_launch(gemm, args, 4, NULL));
  MUST(tile_rt_arg_memref_2d(&args[0], TILE_RT_F16, A, 1000, 8192, 8192));
  MUST(tile_rt_arg_memref_2d(&args[1], TILE_RT_BF16, B, 8192, 2048, 2048));
  MUST(tile_rt_arg_memref_2d(&args[2], TILE_RT_F32, C, 1000, 2048, 2048));
  report("launch gemm K=8192", tile_rt_launch(gemm, args, 4, NULL));
  /* K must also be a multiple of 64 (a contract with arithmetic). */
  MUST(tile_rt_arg_memref_2d(&args[0], TILE_RT_F16, A, 1000, 520, 520));
  MUST(tile_rt_arg_memref_2d(&args[1], TILE_RT_BF16, B, 520, 2048, 2048));
  report("launch gemm K=520", tile_rt_launch(gemm, args, 4, NULL));
  MUST(tile_rt_arg_memref_2d(&args[0], TILE_RT_F16, A, 1000, 512, 512));
  MUST(tile_rt_arg_memref_2d(&args[1], TILE_RT_BF16, B, 512, 2048, 2048));
  MUST(tile_rt_arg_memref_2d(&args[2], TILE_RT_F32, C, 1000, 2048, 2048));
  tile_rt_kernel_desc_of(&desc, gemm);
  report("check gemm", tile_rt_kernel_desc_check_args(desc, args, 4));
  MUST(tile_rt_arg_memref_2d(&args[2], TILE_RT_F32, C, 0, 2048, 2048));
  report("launch gemm M=0", tile_rt_launch(gemm, args, 4, NULL));
  printf("launches after the rejected ones: %+d\n",
         fake_cuda_last_launch()->count - before);

  /* Scalars by value, and a driver failure naming the kernel. */
  tile_rt_arg sargs[4];
  MUST(tile_rt_arg_memref_1d(&sargs[0], TILE_RT_F32, C, 1000));
  MUST(tile_rt_arg_f32(&sargs[1], -2.5f));
  MUST(tile_rt_arg_i32(&sargs[2], -7));
  MUST(tile_rt_arg_i64(&sargs[3], (int64_t)1 << 40));
  const size_t scale_params[] = {8, 8, 8, 4, 4, 8};
  fake_cuda_expect_params(scale_params, 6);
  tile_rt_stream *stream;
  MUST(tile_rt_stream_create(&stream, ctx));
  if (report("launch scale", tile_rt_launch(scale, sargs, 4, stream)) ==
      TILE_RT_SUCCESS)
    print_launch(base);
  fake_cuda_fail_next_launch(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
  report("launch scale failing", tile_rt_launch(scale, sargs, 4, stream));

  /* In clusters of two (cuLaunchKernelEx): 1000 / 384 is 3 blocks, launched
   * as 4. The old driver has no cuLaunchKernelEx. */
  tile_rt_kernel *pairs;
  MUST(tile_rt_module_get_kernel(&pairs, mod, "pairs"));
  if (report("launch pairs", tile_rt_launch(pairs, sargs, 4, stream)) ==
      TILE_RT_SUCCESS) {
    print_launch(base);
    fake_cuda_fail_next_launch(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
    report("launch pairs failing", tile_rt_launch(pairs, sargs, 4, stream));
  }

  /* Memory. */
  uint16_t h16[4];
  uint32_t h32[2];
  MUST(tile_rt_mem_set16(ctx, C, 0x7e00, 4));
  MUST(tile_rt_mem_dtoh(ctx, h16, C, sizeof h16));
  printf("set16: %04x %04x %04x %04x\n", h16[0], h16[1], h16[2], h16[3]);
  MUST(tile_rt_mem_set32(ctx, C, 0x7fc00000u, 2));
  MUST(tile_rt_mem_dtoh(ctx, h32, C, sizeof h32));
  printf("set32: %08x %08x\n", h32[0], h32[1]);
  MUST(tile_rt_mem_set8(ctx, C, 0xab, 8));
  MUST(tile_rt_mem_dtod(ctx, A, C, 8));
  MUST(tile_rt_mem_dtoh(ctx, h32, A, sizeof h32));
  printf("set8+dtod: %08x %08x\n", h32[0], h32[1]);
  const uint32_t up[2] = {0x12345678u, 0x9abcdef0u};
  MUST(tile_rt_mem_htod(ctx, B, up, sizeof up));
  MUST(tile_rt_mem_dtoh(ctx, h32, B, sizeof h32));
  printf("htod+dtoh: %08x %08x\n", h32[0], h32[1]);
  tile_rt_deviceptr p = 1;
  report("alloc 2^40", tile_rt_mem_alloc(&p, ctx, (size_t)1 << 40));
  printf("pointer after failed alloc: %llu\n", (unsigned long long)p);
  report("alloc 0", tile_rt_mem_alloc(&p, ctx, 0));
  report("set32 misaligned", tile_rt_mem_set32(ctx, C + 2, 0, 1));
  report("set16 misaligned", tile_rt_mem_set16(ctx, C + 1, 0, 1));
  report("htod NULL", tile_rt_mem_htod(ctx, B, NULL, 4));
  /* Spans that wrap around the end of the address space reach no driver. */
  const tile_rt_deviceptr top = UINT64_MAX - 15;
  unsigned char host[32] = {0};
  report("htod wraps", tile_rt_mem_htod(ctx, top, host, 32));
  report("dtoh wraps", tile_rt_mem_dtoh(ctx, host, top, 32));
  report("dtod wraps", tile_rt_mem_dtod(ctx, B, top, 32));
  report("set32 wraps", tile_rt_mem_set32(ctx, top, 0, 8));
  report("set32 count overflows", tile_rt_mem_set32(ctx, B, 0, SIZE_MAX / 2));
  report("set8 NULL", tile_rt_mem_set8(ctx, 0, 0, 4));
  report("free 0", tile_rt_mem_free(ctx, 0));

  /* Timing: the fake spends 1.25 ms per launch. */
  tile_rt_event *e0, *e1;
  MUST(tile_rt_event_create(&e0, ctx));
  MUST(tile_rt_event_create(&e1, ctx));
  float ms = -1;
  report("elapsed unrecorded", tile_rt_event_elapsed_ms(&ms, e0, e1));
  MUST(tile_rt_event_record(e0, stream));
  MUST(tile_rt_launch(scale, sargs, 4, stream));
  MUST(tile_rt_launch(scale, sargs, 4, stream));
  MUST(tile_rt_event_record(e1, stream));
  MUST(tile_rt_event_synchronize(e1, 10));
  MUST(tile_rt_event_elapsed_ms(&ms, e0, e1));
  printf("elapsed: %.2f ms\n", (double)ms);
  report("stream sync", tile_rt_stream_synchronize(ctx, stream, 10));
  report("context sync", tile_rt_context_synchronize(ctx, 10));

  /* A kernel that never finishes: the watchdog gives up. */
  fake_cuda_set_hang(1);
  report("stream sync hung", tile_rt_stream_synchronize(ctx, stream, 0.05));
  report("default stream sync hung",
         tile_rt_stream_synchronize(ctx, NULL, 0.05));
  report("event sync hung", tile_rt_event_synchronize(e1, 0.05));
  report("context sync hung", tile_rt_context_synchronize(ctx, 0.05));
  report("context sync failing", tile_rt_context_synchronize(ctx, 0));
  fake_cuda_set_hang(0);
  report("stream sync after", tile_rt_stream_synchronize(ctx, stream, 0.05));

  void *native = NULL;
  MUST(tile_rt_stream_native(&native, stream));
  printf("native stream: %s\n", native ? "set" : "NULL");
  MUST(tile_rt_stream_native(&native, NULL));
  printf("native default stream: %s\n", native ? "set" : "NULL");

  /* A stream someone else made (torch's, say): launches go to that very
   * CUstream, through a wrapper or directly; freeing the wrapper leaves the
   * CUstream alone; a capturing stream takes launches but no waits. */
  static int foreign_storage;
  void *foreign = &foreign_storage;
  tile_rt_stream *wrapped;
  MUST(tile_rt_stream_wrap(&wrapped, ctx, foreign));
  MUST(tile_rt_stream_native(&native, wrapped));
  printf("wrapped native is the foreign stream: %s\n",
         native == foreign ? "yes" : "no");
  report("launch on wrapped", tile_rt_launch(scale, sargs, 4, wrapped));
  printf("launched on the foreign stream: %s\n",
         fake_cuda_last_launch()->stream == (uintptr_t)foreign ? "yes" : "no");
  report("launch native", tile_rt_launch_native(scale, sargs, 4, foreign));
  printf("launched on the foreign stream: %s\n",
         fake_cuda_last_launch()->stream == (uintptr_t)foreign ? "yes" : "no");
  report("launch native default", tile_rt_launch_native(scale, sargs, 4, NULL));
  printf("launched on the default stream: %s\n",
         fake_cuda_last_launch()->stream == 0 ? "yes" : "no");
  report("launch native NULL kernel",
         tile_rt_launch_native(NULL, sargs, 4, foreign));
  report("launch native bad args",
         tile_rt_launch_native(scale, sargs, 3, foreign));
  int capturing = -1;
  MUST(tile_rt_stream_is_capturing(&capturing, ctx, wrapped));
  printf("capturing before: %d\n", capturing);
  fake_cuda_set_capturing(foreign);
  MUST(tile_rt_stream_is_capturing(&capturing, ctx, wrapped));
  printf("capturing during: %d\n", capturing);
  report("launch while capturing", tile_rt_launch(scale, sargs, 4, wrapped));
  report("sync while capturing",
         tile_rt_stream_synchronize(ctx, wrapped, 0.05));
  report("sync of another stream while capturing",
         tile_rt_stream_synchronize(ctx, stream, 0.05));
  fake_cuda_set_capturing(NULL);
  MUST(tile_rt_stream_is_capturing(&capturing, ctx, wrapped));
  printf("capturing after: %d\n", capturing);
  report("is_capturing NULL out",
         tile_rt_stream_is_capturing(NULL, ctx, wrapped));
  report("wrap NULL context", tile_rt_stream_wrap(&wrapped, NULL, foreign));
  fake_cuda_lifetime_counts live_before, live_after;
  fake_cuda_lifetime_of(&live_before);
  report("free wrapped", tile_rt_stream_free(wrapped));
  fake_cuda_lifetime_of(&live_after);
  printf("streams destroyed by freeing the wrapper: %d\n",
         live_before.streams - live_after.streams);

  report("free event", tile_rt_event_free(e0));
  report("free event", tile_rt_event_free(e1));
  report("free stream", tile_rt_stream_free(stream));
  report("free memory", tile_rt_mem_free(ctx, base));
  report("free module", tile_rt_module_free(mod));
  report("free context", tile_rt_context_free(ctx));
  return 0;
}
