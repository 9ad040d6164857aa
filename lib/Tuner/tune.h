/*===- tune.h - The autotuner: space, compile, measure, cache ----*- C -*-===*
 *
 * Tunes one kernel for one problem: enumerates its configurations and drops
 * those that cannot run before compiling anything (tile-c/Tune.h), compiles
 * the rest in parallel through the compile cache, checks each one's output
 * against the problem's reference (problem.h: an fp64 host reference, a
 * reference kernel, or the default configuration), times the survivors
 * (stopping early those far behind the best) and keeps the best in the tuning
 * cache with its cubin. A later request with the same key is a file read.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_TUNE_H
#define TILE_TOOLS_TUNE_H

#include "host_util.h"

#include <stdint.h>

#define TUNE_MAX_LIST 64

/// tune_run's result with lookup_only when the cache has no answer.
#define TUNE_MISS 2

/// What to tune, and how.
typedef struct tune_request {
  const char *mlir_path; ///< The kernel source.
  const char *kernel;    ///< A kernel or an instance of it.
  /// "gemm", "gemm_bias_gelu", "softmax" or "attention" with the sizes
  /// below; "problem" with problem_json or problem_path.
  const char *op;
  /// A problem as JSON text, or a file of it (problem_json.h); NULL for a
  /// built-in operator's.
  const char *problem_json, *problem_path;
  int64_t m, n, k;    ///< The gemms' problem; softmax's is M x N.
  int gelu_erf;       ///< gemm_bias_gelu: the erf form (else tanh).
  int64_t b, h, s, d; ///< attention: batch, heads, sequence, head_dim.
  int causal;         ///< attention: keys past the query masked.
  /// NAME=VALUE bindings fixed for every configuration.
  const char *params[TUNE_MAX_LIST];
  int nparams;
  /// NAME=V1,V2,... replacing or adding an axis of the space.
  const char *axes[TUNE_MAX_LIST];
  int naxes;
  const char *cache_dir; ///< NULL: the default directory.
  int no_cache;          ///< Neither read nor write any cache.
  int retune;            ///< Ignore a cached result (and replace it).
  int jobs;              ///< Compilations at once (0: every CPU).
  double compile_timeout_s;
  int64_t max_spill_bytes; ///< Drop configurations spilling more (<0: keep).
  double early_stop;       ///< Stop timing one this many times the best.
  int iters, warmup;
  uint64_t seed;
  double timeout_s; ///< Longest wait for one launch.
  /// Limits for an offline target (0: the device's, or sm_90a's).
  int64_t smem_limit, threads_limit;
  int compile_only; ///< No GPU: enumerate and compile only.
  int verbose;      ///< Print every dropped configuration and timing.
  int quiet;        ///< Print nothing on stdout (errors still go to stderr).
  int lookup_only;  ///< Only read the tuning cache: a miss is not tuned.
  int progress;     ///< A progress bar on stderr.
} tune_request;

/// The defaults: 4 s compile timeout, early stop at 1.5x, 20 iterations
/// after 3 warm-up launches, seed 1, 10 s launch timeout.
void tune_request_init(tune_request *r);

/// What tuning found.
typedef struct tune_result {
  char best[1024];          ///< The best configuration, `NAME=VALUE ...`.
  double best_ms;           ///< Its median time.
  tool_buffer image, kinfo; ///< Its cubin and kernel info.
  int from_cache;           ///< 1 when read from the tuning cache.
  double seconds;           ///< Wall time of tune_run.
  char key[65];             ///< The tuning cache key.
} tune_result;

/// Frees the result's buffers.
void tune_result_free(tune_result *r);

/// Tunes (or reads the cached answer) for `r`, on GPU context `ctx` (may be
/// NULL with compile_only). Prints a summary and the final table on stdout,
/// progress on stderr. Returns 0; TUNE_MISS with lookup_only when nothing
/// is cached; or 1 after printing why nothing could be chosen.
struct tile_rt_context;
int tune_run(const tune_request *r, struct tile_rt_context *ctx,
             tune_result *out);

/// The cache directory `r` uses: its own, or the default ("" when none),
/// with a warning on stderr (once a process) where the default one is
/// writable by other users or owned by another.
const char *tune_cache_dir(const tune_request *r, char *buf, size_t n);

#endif /* TILE_TOOLS_TUNE_H */
