/*===- ops.c - The list of tile-run's operators, and their options -------===*
 *
 * Adding an operator: write op_<name>.c defining a `const tool_op`, declare
 * it and list it below, and add the file to CMakeLists.txt.
 *
 *===----------------------------------------------------------------------===*/

#include "ops.h"

#include "host_util.h"

#include <stdio.h>
#include <string.h>

extern const tool_op tool_op_attention;
extern const tool_op tool_op_gemm;
extern const tool_op tool_op_gemm_bias_gelu;
extern const tool_op tool_op_softmax;

static const tool_op *const tool_ops[] = {
    &tool_op_gemm,
    &tool_op_gemm_bias_gelu,
    &tool_op_softmax,
    &tool_op_attention,
};

const tool_op *tool_find_op(const char *name) {
  for (size_t i = 0; i < sizeof tool_ops / sizeof tool_ops[0]; ++i)
    if (strcmp(tool_ops[i]->name, name) == 0)
      return tool_ops[i];
  return NULL;
}

void tool_print_ops(void) {
  for (size_t i = 0; i < sizeof tool_ops / sizeof tool_ops[0]; ++i) {
    const tool_op *op = tool_ops[i];
    printf("  --op %s: %s\n", op->name, op->summary);
    for (const tool_op_flag *f = op->flags; f->name; ++f)
      printf("      --%s%s  %s\n", f->name, f->takes_value ? " VALUE" : "",
             f->help);
  }
}

int tool_options_has(const tool_options *o, const char *name) {
  for (int i = 0; i < o->count; ++i)
    if (strcmp(o->name[i], name) == 0)
      return 1;
  return 0;
}

int tool_options_i64(const tool_options *o, const char *name, int64_t lo,
                     int64_t hi, int64_t *out) {
  for (int i = o->count - 1; i >= 0; --i) {
    if (strcmp(o->name[i], name) != 0)
      continue;
    if (tool_parse_i64(out, o->value[i], lo, hi) != 0) {
      tool_fail("--%s wants an integer in [%lld, %lld], got '%s'", name,
                (long long)lo, (long long)hi, o->value[i]);
      return -1;
    }
    return 0;
  }
  return 1;
}
