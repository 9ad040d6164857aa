/*===- turns_test.c - Timing kernels in turns, on a fake GPU
 * ----------------===*
 *
 * tool_time_in_turns (lib/Host/timing.c) against fake_cuda.c, whose
 * clock advances 1.25 ms a launch: kernel k launches the fake kernel k + 1
 * times, so its median must be (k + 1) x 1.25 ms whatever the order. Also
 * the order (every round launches each kernel once; the first of a round
 * varies), the input sets (each launch takes the next), and the refusals.
 * One line per rule; a rule that does not hold says FAIL.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "timing.h"

#include "tile-rt/tile_rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char image[] = "FAKECUBIN scale";
static const char kinfo[] = "tile-kernel-info 1\n"
                            "kernel scale\n"
                            "block 256 1 1\n"
                            "smem 0\n"
                            "grid 0 0 0 256\n"
                            "param memref 0 f32 1\n"
                            "end\n";

#define KERNELS 3
#define WARMUP 2
#define ROUNDS 8
#define NSETS 4
#define MAX_LOG 256

typedef struct fake_kernel {
  tile_rt_kernel *kernel;
  tile_rt_arg *args;
  int id, times;
} fake_kernel;

static int log_kernel[MAX_LOG], log_set[MAX_LOG], nlog;

static int launch(void *user, int set, tile_rt_stream *stream) {
  fake_kernel *k = user;
  if (nlog < MAX_LOG) {
    log_kernel[nlog] = k->id;
    log_set[nlog] = set;
  }
  ++nlog;
  for (int i = 0; i < k->times; ++i)
    if (tile_rt_launch(k->kernel, k->args, 1, stream) != TILE_RT_SUCCESS)
      return 1;
  return 0;
}

static int failures;

static void expect(int ok, const char *what) {
  printf("%s: %s\n", ok ? "ok" : "FAIL", what);
  failures += !ok;
}

#define MUST(x)                                                                \
  do {                                                                         \
    if ((x) != TILE_RT_SUCCESS) {                                              \
      printf("FATAL: %s: %s\n", #x, tile_rt_last_error());                     \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0); /* in order with the errors on stderr */
  setenv("TILE_RT_LIBCUDA", TILE_RT_FAKE_CUDA, 1);
  tile_rt_context *ctx;
  MUST(tile_rt_context_create(&ctx, 0));
  tile_rt_module *mod;
  MUST(tile_rt_module_load(&mod, ctx, image, strlen(image), kinfo,
                           strlen(kinfo)));
  tile_rt_kernel *scale;
  MUST(tile_rt_module_get_kernel(&scale, mod, "scale"));
  tile_rt_deviceptr buf;
  MUST(tile_rt_mem_alloc(&buf, ctx, 4096));
  tile_rt_arg args[1];
  MUST(tile_rt_arg_memref_1d(&args[0], TILE_RT_F32, buf, 1024));
  tile_rt_stream *stream;
  MUST(tile_rt_stream_create(&stream, ctx));

  fake_kernel kernels[KERNELS];
  tool_turn turns[KERNELS];
  for (int k = 0; k < KERNELS; ++k) {
    kernels[k] = (fake_kernel){scale, args, k, k + 1};
    turns[k] = (tool_turn){launch, &kernels[k], NULL};
  }
  tool_timing out[KERNELS];
  int rc = tool_time_in_turns(out, turns, KERNELS, ctx, stream, NSETS, WARMUP,
                              ROUNDS, 10.0);
  expect(rc == 0, "three kernels are timed in turns");
  int own = 1;
  for (int k = 0; k < KERNELS; ++k)
    own &= out[k].median_ms == 1.25 * (k + 1) &&
           out[k].min_ms == out[k].median_ms &&
           out[k].max_ms == out[k].median_ms && out[k].iters == ROUNDS;
  expect(own, "each kernel gets its own launches' times, ROUNDS of them");
  expect(nlog == (WARMUP + ROUNDS) * KERNELS,
         "every kernel launches WARMUP + ROUNDS times");

  int sets = 1;
  for (int i = 0; i < nlog && i < MAX_LOG; ++i)
    sets &= log_set[i] == i % NSETS;
  expect(sets, "each launch takes the next input set");

  int rounds_ok = 1, first_count[KERNELS] = {0}, orders_differ = 0;
  for (int r = 0; r < ROUNDS; ++r) {
    const int *round = log_kernel + (WARMUP + r) * KERNELS;
    int seen[KERNELS] = {0};
    for (int j = 0; j < KERNELS; ++j)
      seen[round[j]]++;
    for (int k = 0; k < KERNELS; ++k)
      rounds_ok &= seen[k] == 1;
    first_count[round[0]]++;
    if (r > 0)
      orders_differ |=
          memcmp(round, round - KERNELS, KERNELS * sizeof *round) != 0;
  }
  expect(rounds_ok, "every round launches each kernel once");
  int firsts = 0;
  for (int k = 0; k < KERNELS; ++k)
    firsts += first_count[k] > 0;
  expect(orders_differ && firsts > 1,
         "the order changes between rounds, and more than one kernel "
         "goes first");

  /* The same rounds in a second run: the order does not depend on luck. */
  int first_run[ROUNDS * KERNELS];
  memcpy(first_run, log_kernel + WARMUP * KERNELS, sizeof first_run);
  nlog = 0;
  rc = tool_time_in_turns(out, turns, KERNELS, ctx, stream, NSETS, WARMUP,
                          ROUNDS, 10.0);
  expect(rc == 0 && memcmp(first_run, log_kernel + WARMUP * KERNELS,
                           sizeof first_run) == 0,
         "a second run takes the same order");

  /* Refusals, and a launch that fails. */
  printf("-- expected errors:\n");
  expect(tool_time_in_turns(out, turns, 0, ctx, stream, NSETS, 0, 1, 1.0) != 0,
         "no kernels is refused");
  expect(tool_time_in_turns(out, turns, KERNELS, ctx, stream, NSETS, 0,
                            0x7fffffff, 1.0) != 0,
         "rounds x kernels past an int is refused");
  kernels[1].kernel = NULL;
  expect(tool_time_in_turns(out, turns, KERNELS, ctx, stream, NSETS, 0, 2,
                            1.0) != 0,
         "a launch that fails fails the timing");

  tile_rt_stream_free(stream);
  tile_rt_mem_free(ctx, buf);
  tile_rt_module_free(mod);
  tile_rt_context_free(ctx);
  printf("%d failures\n", failures);
  return failures != 0;
}
