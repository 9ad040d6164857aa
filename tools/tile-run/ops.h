/*===- ops.h - tile-run's operators ------------------------------*- C -*-===*
 *
 * An operator knows one kernel signature: it makes the inputs, launches the
 * kernel, checks the output against a host reference and times it. Each
 * lives in its own op_<name>.c and is listed in ops.c.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_OPS_H
#define TILE_TOOLS_OPS_H

#include "tile-rt/tile_rt.h"

#include <stdint.h>

/// An operator's own command-line option ("--M 4096", "--trans-b").
typedef struct tool_op_flag {
  const char *name; ///< Without the leading "--".
  int takes_value;
  const char *help;
} tool_op_flag;

/// The operator options given on the command line, by name.
#define TOOL_MAX_OPTIONS 32
typedef struct tool_options {
  int count;
  const char *name[TOOL_MAX_OPTIONS];
  const char *value[TOOL_MAX_OPTIONS]; ///< NULL for flags.
} tool_options;

/// Whether option `name` was given.
int tool_options_has(const tool_options *o, const char *name);

/// Reads integer option `name` in [lo, hi] into `*out`: 0 when read, 1 when
/// absent (`*out` unchanged), -1 after printing that it is malformed.
int tool_options_i64(const tool_options *o, const char *name, int64_t lo,
                     int64_t hi, int64_t *out);

/// The settings every operator shares.
typedef struct tool_run_options {
  int iters;        ///< Timed launches (0: no timing).
  int warmup;       ///< Untimed launches first.
  int check;        ///< Compare with the host reference.
  uint64_t seed;    ///< Of the random inputs.
  double timeout_s; ///< Longest wait for the GPU (a hung kernel).
} tool_run_options;

/// What an operator runs with; it borrows everything.
typedef struct tool_op_env {
  tile_rt_context *ctx;
  tile_rt_kernel *kernel;
  const tile_rt_kernel_desc *desc;
  const tool_run_options *run;
  const tool_options *options;
} tool_op_env;

/// An operator.
typedef struct tool_op {
  const char *name;
  const char *summary;
  const tool_op_flag *flags; ///< Its options, ended by a NULL name.
  /// Runs it; returns the exit code (0: checked and passed or not checked).
  int (*run)(const tool_op_env *env);
} tool_op;

/// The operator called `name`, or NULL.
const tool_op *tool_find_op(const char *name);

/// Prints each operator and its options (for --help).
void tool_print_ops(void);

#endif /* TILE_TOOLS_OPS_H */
