/*===- tune_internal.h - The tuner's pieces ----------------------*- C -*-===*
 *
 * One candidate configuration as it goes through the tuner: enumerated with
 * its verdict (tune_space.c), compiled (tune_compile.c), checked and timed
 * (tune_measure.c); the problem it runs on (tune_problem.c) and the cache
 * record of the result (tune_cache.c).
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_TUNE_INTERNAL_H
#define TILE_TOOLS_TUNE_INTERNAL_H

#include "host_check.h"
#include "problem.h"
#include "tune.h"

#include "tile-rt/tile_rt.h"

#include "tile-c/Cache.h"

#include "mlir-c/IR.h"

/// Where a candidate ended.
typedef enum tune_verdict {
  /* Dropped before compiling (tile-c/Tune.h's statuses). */
  TUNE_VIABLE = 0,
  TUNE_CONSTRAINT,
  TUNE_CONTRACT,
  TUNE_REFUSED,
  TUNE_SHARED_MEMORY,
  TUNE_THREADS,
  /* Compiling. */
  TUNE_COMPILE_ERROR,
  TUNE_COMPILE_TIMEOUT,
  TUNE_SPILLS,
  TUNE_COMPILED,
  /* Running. */
  TUNE_LAUNCH_ERROR,
  TUNE_WRONG,
  TUNE_EARLY_STOP,
  TUNE_MEASURED,
  TUNE_NUM_VERDICTS
} tune_verdict;

/// "viable", "constraint", ..., "measured".
const char *tune_verdict_name(tune_verdict v);

typedef struct tune_candidate {
  char config[1024]; ///< The tuned parameters, `NAME=VALUE ...`.
  tune_verdict verdict;
  char message[1024]; ///< Why it was dropped.
  int64_t smem, threads;
  /* After compiling. */
  tool_buffer image, kinfo;
  double compile_s;
  int compile_cache_hit;
  int registers, spill_bytes;
  /* After measuring. */
  double rel_err;
  double ms;      ///< Median (or the early-stop estimate).
  int is_default; ///< The kernel's own configuration (tune_is_default).
  int finalist;   ///< Timed again in the final round (ms is from there).
} tune_candidate;

/// The rounds of the final round that time its fastest against the default
/// alone, alternating which goes first; each round times
/// TUNE_DUEL_LAUNCHES launches of each in turns and takes their medians.
#define TUNE_DUEL_ROUNDS 7
#define TUNE_DUEL_LAUNCHES 10
/// Fewer rounds than this (a failure part way) decide nothing.
#define TUNE_DUEL_MIN_ROUNDS 5

/// What the rounds against the default found.
typedef struct tune_duel {
  struct tune_candidate *challenger; ///< NULL: no such rounds.
  int rounds;                        ///< How many completed.
  double ratio[TUNE_DUEL_ROUNDS];    ///< Per round: challenger ms / default ms.
  double median, noise; ///< The ratios' median and interquartile range.
  int wins;             ///< tune_beats_default's verdict.
} tune_duel;

/// A tuning space: the source, its description, and the candidates once
/// enumerated.
typedef struct tune_space {
  tool_buffer source; ///< The kernel source's text.
  MlirContext ctx;
  MlirModule module;
  tool_buffer space_text; ///< `axis ...` and `fixed ...` lines.
  tune_candidate *c;
  int n;
  tune_duel duel; ///< The final round's challenger against the default.
  tool_problem_desc problem; ///< What the candidates run on.
} tune_space;

/// Describes the problem of `r`, reads and parses the source and describes
/// the space (no candidates yet). Returns 0, or 1 after printing why (a bad
/// problem, a missing file, a bad kernel name, binding or axis).
int tune_space_open(tune_space *s, const tune_request *r);
/// Binds the boolean parameter that the problem decides (its flag_param:
/// gemm_bias_gelu's ERF by --gelu, attention's CAUSAL by --causal) where
/// the kernel has it and neither its instance nor the caller binds it: adds
/// the binding to `r` and opens the space again. Where one of them binds
/// it, checks that it agrees. Returns 0, or 1 after printing why (a
/// disagreement, or the parameter as an axis).
int tune_space_bind_flag(tune_space *s, tune_request *r);
/// Enumerates the candidates within the limits and the problem's shape
/// contracts. 0, or 1 after printing why.
int tune_space_enumerate(tune_space *s, const tune_request *r,
                         int64_t smem_limit, int64_t threads_limit);
void tune_space_free(tune_space *s);
/// Whether `config` gives every tuned parameter its `default` value of the
/// space's text (the configuration the kernel runs with untuned).
int tune_is_default(const tune_space *s, const char *config);

/// printf on stdout, unless the request is quiet.
void tune_say(const tune_request *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/// A progress bar on stderr, "what [####    ] done/total", when asked for
/// and stderr is a terminal.
void tune_progress(const tune_request *r, const char *what, int done,
                   int total);

/// Compiles every TUNE_VIABLE candidate, `r->jobs` at once, through the
/// compile cache; each ends TUNE_COMPILED, TUNE_COMPILE_ERROR,
/// TUNE_COMPILE_TIMEOUT or TUNE_SPILLS. Returns 0, or 1 when nothing could
/// be attempted.
int tune_compile_all(tune_space *s, const tune_request *r);

/// The problem of `r`: its problem_json or problem_path, else the
/// built-in operator `op` of its sizes. 0, or 1 after printing why.
int tune_request_problem(const tune_request *r, tool_problem_desc *d);

/// The problem the candidates run on.
typedef struct tune_problem tune_problem;

/// Sets up problem `d` for kernels like `desc` (their argument types), its
/// inputs from `seed`. Returns 0, or 1 after printing why (a kernel that
/// does not take the problem among them).
int tune_problem_init(tune_problem **out, const tool_problem_desc *d,
                      uint64_t seed, tile_rt_context *ctx,
                      const tile_rt_kernel_desc *desc);
void tune_problem_free(tune_problem *p);
/// Whether the problem has no host reference, so that the candidates are
/// checked against a reference kernel's outputs (tune_problem_set_reference
/// first).
int tune_problem_needs_reference(const tune_problem *p);
/// Runs `kernel` once into the reference outputs. 0, or 1 after printing
/// why.
int tune_problem_set_reference(tune_problem *p, tile_rt_kernel *kernel,
                               tile_rt_stream *stream, double timeout_s);
/// Runs `kernel` once on poisoned outputs and checks them against the fp64
/// reference, or the reference outputs. Returns 0 (see `*check`), or 1
/// after printing why it could not run.
int tune_problem_check(tune_problem *p, tile_rt_kernel *kernel,
                       tile_rt_stream *stream, double timeout_s,
                       tool_check *check);
/// Times `iters` launches after `warmup`; 0, or 1 after printing why.
int tune_problem_time(tune_problem *p, tile_rt_kernel *kernel,
                      tile_rt_stream *stream, int warmup, int iters,
                      double timeout_s, double *median_ms);
/// Times `n` kernels in turns (tool_time_in_turns): `warmup` launches of
/// each, then `rounds` rounds of one launch of each; their medians in
/// `median_ms`. 0, or 1 after printing why.
int tune_problem_time_in_turns(tune_problem *p, tile_rt_kernel *const *kernels,
                               int n, tile_rt_stream *stream, int warmup,
                               int rounds, double timeout_s, double *median_ms);
/// The useful work of one launch (tool_problem_work).
double tune_problem_work(const tune_problem *p, const char **unit);

/// Checks and times every TUNE_COMPILED candidate on `ctx`, then times the
/// fastest TUNE_FINALISTS and the default configuration again in turns
/// (the final round: their `ms` is its result, `finalist` set); `*work` and
/// `*unit` are one launch's useful work (tune_problem_work). Returns 0, or 1
/// when nothing could be measured.
int tune_measure_all(tune_space *s, const tune_request *r, tile_rt_context *ctx,
                     double *work, const char **unit);

/// qsort's order of candidate pointers by time, fastest first.
int tune_by_ms(const void *a, const void *b);

/// The candidates of the final round, and its rounds (one launch of each
/// candidate a round).
#define TUNE_FINALISTS 4
#define TUNE_FINAL_ROUNDS 30
/// A configuration replaces the default only when it is faster by more
/// than this fraction, and by more than the measured noise.
#define TUNE_DEFAULT_MARGIN 0.01

/// Whether a challenger beats the default over `n` rounds whose time
/// ratios (challenger / default) are `ratio`: their median is below
/// 1 - max(noise, TUNE_DEFAULT_MARGIN), the noise being their interquartile
/// range. `*median` and `*noise` get both (1 and 0 when undecided). 0 with
/// fewer than TUNE_DUEL_MIN_ROUNDS rounds, or where a ratio is not a
/// positive finite number: the default stays.
int tune_beats_default(const double *ratio, int n, double *median,
                       double *noise);

/// The configuration to keep. Where the final round timed its fastest
/// against the default (`s->duel`), the fastest if it beat the default
/// (tune_beats_default), else the default. Otherwise the fastest finalist
/// (the fastest measured one when there was no final round), but the
/// default where it is within TUNE_DEFAULT_MARGIN of that. NULL when
/// nothing was measured.
tune_candidate *tune_choose_best(tune_space *s);

/// The tuning cache key of `r` and its space `s` (with s->problem, the
/// problem tune_space_open described) on `dev` (NULL: no GPU): its
/// components.
#define TUNE_KEY_MAX 16
typedef struct tune_key {
  MlirTileCacheComponent c[TUNE_KEY_MAX];
  int n;
  char op[32], shape[TOOL_PROBLEM_KEY_SIZE], gpu[512], limits[96];
  tool_buffer build;
} tune_key;
void tune_key_init(tune_key *k, const tune_request *r, const tune_space *s,
                   const tile_rt_device_info *dev);
void tune_key_free(tune_key *k);

/// Reads a cached result for `r` into `out`; 1 on a hit, 0 on a miss (a
/// corrupted entry is reported, and is a miss).
int tune_cache_load(const tune_request *r, const tune_space *s,
                    const tile_rt_device_info *dev, tune_result *out);
/// Stores the result of a finished tuning (best `best`); a failure is
/// reported, not fatal.
void tune_cache_store(const tune_request *r, const tune_space *s,
                      const tile_rt_device_info *dev,
                      const tune_candidate *best, tune_result *out);

#endif /* TILE_TOOLS_TUNE_INTERNAL_H */
