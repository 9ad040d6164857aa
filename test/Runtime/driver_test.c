/*===- driver_test.c - Loading the driver: missing, no GPU, broken, fake --===*
 *
 * Usage: tile-rt-driver-test [--fake|--fake-old|--fake-broken]
 * Without an option, the driver comes from $TILE_RT_LIBCUDA (or
 * libcuda.so.1); the options point it at the fake drivers built beside the
 * tests. Prints what the runtime reports (driver.test).
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "test_util.h"

#include <string.h>

int main(int argc, char **argv) {
  if (argc > 1) {
    const char *path =
        strcmp(argv[1], "--fake") == 0          ? TILE_RT_FAKE_CUDA
        : strcmp(argv[1], "--fake-old") == 0    ? TILE_RT_FAKE_CUDA_OLD
        : strcmp(argv[1], "--fake-broken") == 0 ? TILE_RT_FAKE_CUDA_BROKEN
                                                : NULL;
    if (!path) {
      fprintf(stderr, "usage: %s [--fake|--fake-old|--fake-broken]\n", argv[0]);
      return 2;
    }
    setenv("TILE_RT_LIBCUDA", path, 1);
  }

  /* Freeing nothing is always fine, driver or not. */
  report("free NULL context", tile_rt_context_free(NULL));
  report("free NULL module", tile_rt_module_free(NULL));
  report("free NULL stream", tile_rt_stream_free(NULL));
  report("free NULL event", tile_rt_event_free(NULL));
  report("free NULL info", tile_rt_kernel_info_free(NULL));
  printf("last error before any driver call: '%s'\n", tile_rt_last_error());

  int count = -1;
  if (report("device count", tile_rt_device_count(&count)) == TILE_RT_SUCCESS)
    printf("devices: %d\n", count);

  tile_rt_context *ctx = (tile_rt_context *)&ctx;
  tile_rt_status st = report("context 0", tile_rt_context_create(&ctx, 0));
  if (st != TILE_RT_SUCCESS) {
    printf("context handle %s\n", ctx ? "set" : "NULL");
    /* The outcome of loading is kept: a second try says the same. */
    report("context 0 again", tile_rt_context_create(&ctx, 0));
    return 0;
  }
  tile_rt_device_info info;
  MUST(tile_rt_context_device_info(&info, ctx));
  printf("device %d: %s, sm_%d%d, %d SMs, %d bytes opt-in smem, %d threads, "
         "%d bytes L2, %d kHz, %zu MiB\n",
         info.ordinal, info.name, info.cc_major, info.cc_minor, info.sm_count,
         info.max_smem_optin, info.max_threads_per_block, info.l2_bytes,
         info.clock_khz, info.total_memory >> 20);
  tile_rt_context *other;
  report("context 1", tile_rt_context_create(&other, 1));
  report("context -1", tile_rt_context_create(&other, -1));
  report("free context", tile_rt_context_free(ctx));
  return 0;
}
