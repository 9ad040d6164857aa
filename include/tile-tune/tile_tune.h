/*===- tile_tune.h - The autotuner's C API (libtile_tune.so) -----*- C -*-===*
 *
 * Tunes a parametric kernel's schedule for one problem on one GPU, or reads
 * the answer from the tuning cache: the same tuner as tile-tune
 * (docs/Tuning.md). Links libTileCAPI.so (compiling) and libtile_rt.so
 * (running); the context comes from the caller's runtime.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TUNE_TILE_TUNE_H
#define TILE_TUNE_TILE_TUNE_H

#include "tile-rt/tile_rt.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What to tune, and how. Strings are borrowed for the call.
typedef struct tile_tune_options {
  const char *source_path; ///< The kernel source (.mlir).
  const char *kernel;      ///< A parametric kernel or an instance of it.
  /// "gemm", "gemm_bias_gelu", "softmax" or "attention"; NULL or
  /// "problem" with `problem_json` (below).
  const char *op;
  int64_t m, n, k; ///< The gemms' problem; softmax's is M x N.
  int gelu_erf;    ///< gemm_bias_gelu: the erf form (else tanh).
  /// NAME=VALUE bindings fixed for every configuration.
  const char *const *params;
  int nparams;
  /// NAME=V1,V2,... replacing or adding an axis of the space.
  const char *const *axes;
  int naxes;
  const char *cache_dir; ///< NULL: the default directory.
  int no_cache;          ///< Neither read nor write any cache.
  int retune;            ///< Tune even when the answer is cached.
  int lookup_only;       ///< Only read the cache (TILE_TUNE_MISS if absent).
  int compile_only;      ///< No GPU: enumerate and compile, choose nothing.
  int jobs;              ///< Compilations at once (0: every CPU).
  double compile_timeout_s;
  int64_t max_spill_bytes; ///< Drop configurations spilling more (<0: keep).
  double early_stop;
  int iters, warmup;
  uint64_t seed;
  double timeout_s;                  ///< Longest wait for one launch.
  int64_t smem_limit, threads_limit; ///< 0: the device's.
  int verbose; ///< Print each dropped configuration and timing.
  int quiet;   ///< Print nothing on stdout (errors: see capture_errors).
  /// attention's problem: Q, K, V and O of [b, h, s, d], keys past the
  /// query masked when `causal` (the kernel's CAUSAL follows it). Last, and
  /// read only for "attention", so that callers built before them still
  /// work.
  int64_t b, h, s, d;
  int causal;
  /// Print no error on stderr: tile_tune_last_error() has them, the MLIR
  /// diagnostics included (after the fields above, for the same reason).
  int capture_errors;
  /// A problem given as JSON text (docs/Problems.md) instead of a built-in
  /// `op` and its sizes: any kernel, checked against the reference kernel
  /// it names or the kernel's default configuration (last, as above).
  const char *problem_json;
} tile_tune_options;

/// The defaults of tile-tune.
void tile_tune_options_init(tile_tune_options *options);

/// What tuning chose. The buffers are owned: tile_tune_result_free.
typedef struct tile_tune_result {
  char best[1024]; ///< The best configuration, `NAME=VALUE ...`.
  double best_ms;  ///< Its median time.
  int from_cache;  ///< Read from the tuning cache.
  double seconds;  ///< The call's wall time.
  char key[65];    ///< The tuning cache key.
  void *image;     ///< The best's cubin.
  size_t image_size;
  char *kinfo; ///< Its kernel info (docs/KernelABI.md).
  size_t kinfo_size;
} tile_tune_result;

#define TILE_TUNE_OK 0
#define TILE_TUNE_FAILED 1 ///< Why: stderr, or tile_tune_last_error().
#define TILE_TUNE_MISS 2   ///< lookup_only, and the cache has no answer.

/// Tunes (or reads the cached answer for) `options` on `ctx` (NULL only
/// with compile_only). Returns TILE_TUNE_OK, TILE_TUNE_FAILED or
/// TILE_TUNE_MISS.
int tile_tune_run(const tile_tune_options *options, tile_rt_context *ctx,
                  tile_tune_result *result);

/// One run that tile_tune_time_in_turns times: enqueues it on `stream` (a
/// CUstream) with input set `set`; returns 0, or nonzero to stop.
typedef int (*tile_tune_run_fn)(void *user, int set, void *stream);

/// The timing protocol of the tools, the benchmarks and the tuner
/// (docs/Performance.md), for callers with their own launches (Python):
/// `warmup` runs of each of the `n` callables, then `rounds` rounds that run
/// each once in an order shuffled per round, each run between two events on
/// `stream` (a CUstream of `ctx`'s device) and preceded, untimed, by
/// `prepare[k](users[k], ...)` when `prepare` and it are not NULL (an L2
/// flush where the inputs are the caller's own); run i takes input set
/// i % `nsets`. Waits at most `timeout_s` per callable. Writes each
/// callable's median into `median_ms[k]`. TILE_TUNE_OK, or
/// TILE_TUNE_FAILED with tile_tune_last_error() saying why.
int tile_tune_time_in_turns(tile_rt_context *ctx, void *stream, int n,
                            const tile_tune_run_fn *run,
                            const tile_tune_run_fn *prepare, void *const *users,
                            int nsets, int warmup, int rounds, double timeout_s,
                            double *median_ms);

/// Frees the result's buffers (NULL is a no-op).
void tile_tune_result_free(tile_tune_result *result);

/// Why this thread's last tile_tune_run with capture_errors failed, one
/// line per message ("" when nothing was captured); valid until the
/// thread's next tile_tune_run.
const char *tile_tune_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* TILE_TUNE_TILE_TUNE_H */
