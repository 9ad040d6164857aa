/*===- problem.h - A kernel's problem, as data --------------------*- C -*-===*
 *
 * What a kernel runs on, said as data: its arguments in order (tensors with
 * their shapes and how their values are drawn, scalars with their values),
 * which outputs are checked against what, and the work one launch does.
 * The built-in operators are four such descriptions (builtin_problems.h);
 * a kernel of the user's gets one from a JSON text (problem_json.h). The
 * tools (tile-run, tile-tune, tile-bench) and libtile_tune.so all run a
 * kernel through one tool_problem: the description on the GPU, with its
 * inputs rotated to defeat the L2, its NaN-poisoned outputs, the checked
 * launch and the timed ones.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_PROBLEM_H
#define TILE_TOOLS_PROBLEM_H

#include "host_check.h"
#include "input_sets.h"

#include <stddef.h>
#include <stdint.h>

/// The most arguments a problem has.
#define TOOL_MAX_ARGS TOOL_MAX_INPUTS
/// The most row shifts an input has.
#define TOOL_MAX_SHIFTS 4
/// Bytes that hold any problem's key (tool_problem_text): per argument at
/// most about 300, then the check's names and numbers.
#define TOOL_PROBLEM_KEY_SIZE 4096
/// The largest extent of one dimension.
#define TOOL_MAX_DIM ((int64_t)INT32_MAX)

typedef enum tool_arg_kind {
  TOOL_ARG_TENSOR = 0, ///< A dense row-major memref.
  TOOL_ARG_SCALAR = 1, ///< An i32, i64 or f32 value.
} tool_arg_kind;

/// Whether the kernel reads or writes a tensor.
typedef enum tool_arg_role {
  TOOL_ROLE_UNSAID = 0, ///< As the kernel's `access` says (an input if none).
  TOOL_ROLE_INPUT = 1,  ///< Filled with random values; rotated among sets.
  TOOL_ROLE_OUTPUT = 2, ///< NaN-poisoned before a checked launch; checked.
} tool_arg_role;

/// One argument of a problem.
typedef struct tool_arg_desc {
  char name[32];
  tool_arg_kind kind;
  tool_arg_role role;
  int rank;
  int64_t shape[TILE_RT_MAX_RANK];
  /// An input's values: uniform in [lo, hi), plus shift[r % nshifts] on
  /// row r (rows run over the innermost dimension) when nshifts > 0.
  double lo, hi;
  int nshifts;
  double shift[TOOL_MAX_SHIFTS];
  /// A scalar's value.
  double value;
  /// The element or scalar type, from the kernel (tool_problem_bind).
  tile_rt_dtype dtype;
} tool_arg_desc;

struct tool_problem;

/// An fp64 host reference: compares the host copy `out` of the problem's
/// checked output with it, into `*r` (the threshold the problem's). 0, or 1
/// after printing why the check could not run.
typedef int (*tool_reference_fn)(tool_check *r, const struct tool_problem *p,
                                 const void *out);

/// A problem.
typedef struct tool_problem_desc {
  /// "gemm", "gemm_bias_gelu", "softmax", "attention", or "problem" for
  /// one given as data.
  char op[32];
  /// The sizes for messages ("M=64 N=64 K=64").
  char label[256];
  /// What the tuning key holds of the problem: the built-ins' sizes
  /// ("4096x4096x4096 erf"), or the whole description (tool_problem_text).
  char key[TOOL_PROBLEM_KEY_SIZE];
  int nargs;
  tool_arg_desc args[TOOL_MAX_ARGS];
  /// The check: against `reference` on output `checked`, or, without one,
  /// against another kernel's outputs (the reference kernel's, or the
  /// kernel's default configuration's).
  tool_reference_fn reference;
  int checked;
  /// What `reference` needs beyond the arguments (gemm's epilogue,
  /// attention's causal flag).
  int variant;
  /// The kernel of the same module whose outputs are the reference ("" for
  /// none).
  char reference_kernel[256];
  /// The relative-error threshold: rtol, or rtol_bf16 when a tensor is bf16.
  double rtol, rtol_bf16;
  /// The check's verdict also needs every row within the threshold.
  int per_row;
  /// The rows a message counts in (tool_check_print): "rows (all
  /// columns)", ...
  char rows_text[64];
  /// The work of one launch: flops when > 0 (TFLOP/s), else bytes (TB/s;
  /// 0: every tensor's bytes once).
  double flops, bytes;
  /// Argument `same_type[i]` (or -1) must be of argument i's type.
  int same_type[TOOL_MAX_ARGS];
  /// Every tensor is f16, bf16 or f32 (what the host references read).
  int floats_only;
  /// A boolean kernel parameter the problem decides (NULL for none), its
  /// value, and for false and true its binding ("ERF=false") and how to
  /// say what the problem wants. Static strings.
  const char *flag_param;
  int flag_value;
  const char *flag_bindings[2];
  const char *flag_wants[2];
} tool_problem_desc;

/// An empty problem `op` (rtol 1e-2, 2e-2 with bf16; no argument checked).
void tool_problem_desc_init(tool_problem_desc *d, const char *op);

/// Appends a tensor of `rank` dimensions `shape` and `role`, its inputs
/// uniform in [lo, hi); returns it, or NULL after printing that there are
/// too many arguments or the shape is not in [1, TOOL_MAX_DIM].
tool_arg_desc *tool_problem_add_tensor(tool_problem_desc *d, const char *name,
                                       tool_arg_role role, int rank,
                                       const int64_t *shape, double lo,
                                       double hi);

/// Appends a scalar of `value`; NULL after printing that there are too
/// many arguments.
tool_arg_desc *tool_problem_add_scalar(tool_problem_desc *d, const char *name,
                                       double value);

/// The argument shapes as tile-c/Tune.h takes them ("64x32;32x16;;").
void tool_problem_arg_shapes(const tool_problem_desc *d, char *buf, size_t n);

/// Each argument's shape or value, "X=64x32 W=32 eps=1e-06": the label of
/// a problem given as data.
void tool_problem_label(const tool_problem_desc *d, char *buf, size_t n);

/// The description as one line, every argument with its length-prefixed
/// name, shape, role, value range and shifts or value, then the check and
/// the work: the tuning key of a problem given as data, so that two
/// problems that differ in any field differ in it. Returns 0, or 1 when it
/// did not fit in `n` bytes (TOOL_PROBLEM_KEY_SIZE always holds it).
int tool_problem_text(const tool_problem_desc *d, char *buf, size_t n);

/// Reads the argument types from kernel record `k` and checks that the
/// kernel takes what the problem gives (the count, each kind and rank, the
/// type rules); an output left unsaid becomes one where the kernel writes
/// it. Returns 0, or 1 after printing one message naming both signatures.
int tool_problem_bind(tool_problem_desc *d, const tile_rt_kernel_desc *k);

/// Checks bound problem `d` against kernel record `k`'s shape contracts
/// and launch rules, on the host (tile_rt_kernel_desc_check_args on the
/// problem's shapes). Returns 0, or 1 after printing the refusal.
int tool_problem_check_contracts(const tool_problem_desc *d,
                                 const tile_rt_kernel_desc *k);

/// A problem on the GPU. Owns its device buffers and host copies.
typedef struct tool_problem {
  tile_rt_context *ctx;
  tool_problem_desc desc;
  tool_input_sets sets;        ///< The inputs, rotated among sets.
  int nsets;                   ///< sets.nsets.
  int slot[TOOL_MAX_ARGS];     ///< An input's tensor in a set, else -1.
  size_t count[TOOL_MAX_ARGS]; ///< A tensor's elements.
  size_t bytes[TOOL_MAX_ARGS]; ///< A tensor's bytes.
  float *host[TOOL_MAX_ARGS];  ///< An input's values as rounded.
  tile_rt_deviceptr out[TOOL_MAX_ARGS]; ///< The outputs (0 for the rest).
} tool_problem;

/// Sets up bound problem `d` on `ctx` with inputs from `seed` (input i of
/// the arguments drawn from stream i), rotated among enough copies to
/// cover `rotate_bytes` (0: one set). Returns 0, or 1 after printing why.
int tool_problem_init(tool_problem *p, tile_rt_context *ctx,
                      const tool_problem_desc *d, uint64_t seed,
                      size_t rotate_bytes);

/// Frees what tool_problem_init allocated; a zeroed `p` is a no-op.
void tool_problem_free(tool_problem *p);

/// Allocates another buffer for each output into `outs` (a reference's or
/// a peer's); 0, or 1 after printing why. tool_problem_free_outputs frees
/// them.
int tool_problem_alloc_outputs(const tool_problem *p,
                               tile_rt_deviceptr outs[TOOL_MAX_ARGS]);
void tool_problem_free_outputs(const tool_problem *p,
                               tile_rt_deviceptr outs[TOOL_MAX_ARGS]);

/// The device address of input `arg` in set `set`.
tile_rt_deviceptr tool_problem_input(const tool_problem *p, int arg, int set);

/// The kernel arguments on input set `set`, the outputs at `outs` (NULL:
/// the problem's own), into `args` (desc.nargs of them).
tile_rt_status tool_problem_args(tile_rt_arg *args, const tool_problem *p,
                                 int set, const tile_rt_deviceptr *outs);

/// One kernel on a problem: what tool_problem_launch launches.
typedef struct tool_problem_run {
  const tool_problem *p;
  tile_rt_kernel *kernel;
  const tile_rt_deviceptr *outs; ///< NULL: the problem's own.
} tool_problem_run;

/// A tool_launch_fn (timing.h) of a tool_problem_run.
int tool_problem_launch(void *run, int set, tile_rt_stream *stream);

/// Poisons the outputs of `run` with NaN, launches it once on input set 0
/// and waits for it, at most `timeout_s`. 0, or 1 after printing why.
int tool_problem_run_once(const tool_problem_run *run, tile_rt_stream *stream,
                          double timeout_s);

/// Checks the outputs at `outs` (NULL: the problem's) with the host
/// reference. 0 (the verdict in `*r`), or 1 after printing why not.
int tool_problem_check(tool_check *r, const tool_problem *p,
                       const tile_rt_deviceptr *outs);

/// Compares every output at `x` with the one at `y` in full, row by row
/// over the innermost dimension: ||x - y|| / ||y|| and the non-finite
/// elements of x. 0 (the verdict in `*r`), or 1 after printing why not.
int tool_problem_compare(tool_check *r, const tool_problem *p,
                         const tile_rt_deviceptr *x,
                         const tile_rt_deviceptr *y);

/// The check of the outputs at `outs` (NULL: the problem's) that the
/// problem has: its host reference; else a comparison with the outputs at
/// `ref`; else (`ref` NULL too) only that every output is written and
/// finite (rel_err 0). 0 (the verdict in `*r`), or 1 after printing why
/// not.
int tool_problem_verify(tool_check *r, const tool_problem *p,
                        const tile_rt_deviceptr *outs,
                        const tile_rt_deviceptr *ref);

/// The relative-error threshold of the problem's types.
double tool_problem_threshold(const tool_problem_desc *d);

/// The work of one launch and its unit ("TFLOP/s" or "TB/s") in `*unit`:
/// flops, or bytes.
double tool_problem_work(const tool_problem_desc *d, const char **unit);

/// Throughput in `unit`s from the work and a time in milliseconds.
double tool_problem_rate(double work, double ms);

/// Writes the tensors' types ("A=f16 B=f16 C=f32") into `buf`.
const char *tool_problem_types(char *buf, size_t n, const tool_problem_desc *d);

/// The rows tool_check_print counts: the checked output's (or, compared in
/// full, every output's) elements over its innermost dimension.
int64_t tool_problem_rows(const tool_problem_desc *d);

#endif /* TILE_TOOLS_PROBLEM_H */
