/*===- bench.h - tile-bench's arguments and benchmarks ------------*- C -*-===*
 *
 * tile-bench.c reads the arguments, loads the module and the kernel, and
 * runs one of the benchmarks below (one file each) over the sizes given.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_BENCH_BENCH_H
#define TILE_BENCH_BENCH_H

#include "bench_csv.h"
#include "gemm_problem.h"
#include "problem.h"
#include "profile.h"
#include "timing.h"
#include "tool_compile.h"

#define BENCH_MAX_SIZES 64

/// One --sizes entry: M x N x K for the gemms, M x N (k 0) for softmax;
/// zero for --problem.
typedef struct bench_size {
  int64_t m, n, k;
} bench_size;

/// The command line.
typedef struct bench_args {
  tool_source source;
  const char *op, *kernel;
  /// --problem: a problem described as data (problem_json.h), instead of
  /// --op and --sizes.
  const char *problem_path;
  /// gemm_bias_gelu: the plain gemm to compare with, and the gelu form of
  /// the fused kernel.
  const char *plain_file, *plain_kernel;
  gemm_epilogue gelu;
  bench_size sizes[BENCH_MAX_SIZES];
  int nsizes;
  int iters, warmup, device, trans_b, tf32;
  /// Per size, the tuned configuration (tile-tune's cache), beside the
  /// default one.
  int tuned;
  /// --csv: also write each measurement there (bench_csv.h).
  const char *csv_path;
  /// --profile: run again under Nsight (profile.h).
  tool_profile profile;
  uint64_t seed;
  double timeout_s;
} bench_args;

/// What a benchmark runs with; it borrows everything.
typedef struct bench_env {
  const bench_args *args;
  tile_rt_context *ctx;
  tile_rt_stream *stream;
  tile_rt_module *module; ///< The module --kernel is in.
  tile_rt_kernel *kernel;
  const tile_rt_kernel_desc *desc;
  /// With --tuned, the kernel of each size (else NULL: `kernel`) and its
  /// configuration (`NAME=VALUE ...`).
  tile_rt_kernel *size_kernel[BENCH_MAX_SIZES];
  char *size_config[BENCH_MAX_SIZES];
  /// With --csv, where the rows go (else NULL).
  bench_csv *csv;
} bench_env;

/// The kernel to run at size `s` (one of env->args->sizes).
tile_rt_kernel *bench_kernel_of(const bench_env *env, const bench_size *s);

/// Runs our kernel once on poisoned outputs and checks them; a mismatch is
/// printed with `who` ("ours", "default") naming the kernel. Returns 0
/// (the verdict in `*r`), or 1 after printing why it could not run.
typedef int (*bench_check_fn)(const bench_env *env, void *user, const char *who,
                              tool_check *r);

/// How a benchmark runs our kernel: `check` and `launch` (on input set
/// `set`, of `nsets`) run `*kernel`, both given `user`.
typedef struct bench_ours {
  void *user;
  tile_rt_kernel **kernel;
  bench_check_fn check;
  tool_launch_fn launch;
  int nsets;
} bench_ours;

/// With --tuned, what became of the default configuration (the kernel as
/// compiled from the source, env->kernel) at a size.
typedef enum bench_default_state {
  BENCH_DEFAULT_NONE = 0, ///< Not --tuned: nothing to compare.
  BENCH_DEFAULT_REFUSED,  ///< Its shape contracts refuse the size.
  BENCH_DEFAULT_WRONG,    ///< Its output failed the check.
  BENCH_DEFAULT_TIMED,
} bench_default_state;

typedef struct bench_default {
  bench_default_state state;
  tool_timing t; ///< When timed: the default's own series.
  /// The default's median over the tuned one's, the two timed again in
  /// turns (tool_time_in_turns).
  double def_over_tuned;
} bench_default;

/// With --tuned, runs the default configuration where `ours` runs the
/// tuned one of the size, on the same inputs: checks it (a refusal of its
/// contracts, seen in `args`, or a failed check is reported, not timed)
/// and times it with the same loop. Without --tuned, does nothing.
/// Returns 0, or 1 when something could not run.
int bench_run_default(const bench_env *env, const bench_ours *ours,
                      const tile_rt_arg *args, int nargs, bench_default *d);

/// With --tuned, the default's columns of the table: " default ms
/// def/tuned" (the default's own series; the default's time over the
/// tuned one's, the two timed in turns: above 1, tuning won); without,
/// nothing.
void bench_print_default_header(const bench_env *env);
void bench_print_default(const bench_env *env, const bench_default *d);

/// Ends the table row of ours at size `s` (its `work` in `t`, checked in
/// `r`): the default's columns, the relative error, `fail_word` when ours
/// or the default is wrong, then the CSV rows of both. Returns whether
/// both passed.
int bench_end_row(const bench_env *env, const bench_size *s,
                  const tool_timing *t, double work, const tool_check *r,
                  const bench_default *d, const char *fail_word);

/// The problem of built-in operator `op` at size `s` (NULL: 1 x 1 x 1,
/// for its types), with --trans-b and --gelu, bound to `kernel` (NULL:
/// env->desc). 0, or 1 after printing why (bench_problem.c).
int bench_describe(tool_problem_desc *d, const bench_env *env, const char *op,
                   const bench_size *s, const tile_rt_kernel_desc *kernel);

/// bench_describe's problem on the GPU, its inputs rotated past the L2.
int bench_problem(tool_problem *p, const bench_env *env, const char *op,
                  const bench_size *s);

/// --problem: ours alone (and with --tuned the default beside it), checked
/// against the problem's reference kernel, else with --tuned the default's
/// outputs, else for written and finite outputs (bench_problem.c).
int bench_described(const bench_env *env);

/// Our gemm against cublasGemmEx (bench_gemm.c).
int bench_gemm(const bench_env *env);

/// Our fused gemm + bias + gelu against our plain gemm and cuBLASLt's fused
/// epilogue (bench_gemm_bias_gelu.c).
int bench_gemm_bias_gelu(const bench_env *env);

/// Our row softmax against the device-to-device copy bandwidth
/// (bench_softmax.c).
int bench_softmax(const bench_env *env);

/// Loads the module (`image` and its `kinfo`) on `ctx` and looks up kernel
/// `name` (NULL: the module's only kernel). Returns 0, or 1 after printing
/// why not.
int bench_load_kernel(tile_rt_module **module, tile_rt_kernel **kernel,
                      const tile_rt_kernel_desc **desc, tile_rt_context *ctx,
                      const tool_buffer *image, const tool_buffer *kinfo,
                      const char *name);

#endif /* TILE_BENCH_BENCH_H */
