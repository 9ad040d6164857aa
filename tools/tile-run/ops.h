/*===- ops.h - tile-run's built-in operators and their options ---*- C -*-===*
 *
 * Each built-in operator's command-line options (--M 4096, --causal) and
 * how they make its problem (builtin_problems.h). A kernel of the user's
 * needs none of this: --problem FILE.json describes its problem.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_OPS_H
#define TILE_TOOLS_OPS_H

#include "problem.h"

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

/// An operator.
typedef struct tool_op {
  const char *name;
  const char *summary;
  const tool_op_flag *flags; ///< Its options, ended by a NULL name.
} tool_op;

/// The operator called `name`, or NULL.
const tool_op *tool_find_op(const char *name);

/// Prints each operator and its options (for --help).
void tool_print_ops(void);

/// The problem of operator `op` from its options. Returns 0, or 1 after
/// printing what is missing or malformed.
int tool_op_problem(tool_problem_desc *d, const tool_op *op,
                    const tool_options *o);

#endif /* TILE_TOOLS_OPS_H */
