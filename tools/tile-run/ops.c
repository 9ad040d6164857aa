/*===- ops.c - tile-run's built-in operators and their options -----------===*
 *
 * Adding a built-in operator: describe its problem in lib/Host
 * (builtin_problems.c), then list it below with its options and read them
 * in op_sizes.
 *
 *===----------------------------------------------------------------------===*/

#include "ops.h"

#include "builtin_problems.h"
#include "host_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const tool_op_flag gemm_flags[] = {
    {"M", 1, "rows of A and C"},
    {"N", 1, "columns of B and C"},
    {"K", 1, "columns of A, rows of B"},
    {"trans-b", 0, "B is [N, K] row-major (else [K, N])"},
    {NULL, 0, NULL},
};

static const tool_op_flag gemm_bias_gelu_flags[] = {
    {"M", 1, "rows of A and C"},
    {"N", 1, "columns of B and C, length of bias"},
    {"K", 1, "columns of A, rows of B"},
    {"gelu", 1, "the kernel's gelu: tanh (default) or erf"},
    {NULL, 0, NULL},
};

static const tool_op_flag softmax_flags[] = {
    {"M", 1, "rows of X and Y"},
    {"N", 1, "columns: the softmax runs over each row"},
    {NULL, 0, NULL},
};

static const tool_op_flag attention_flags[] = {
    {"B", 1, "batch"},
    {"H", 1, "heads"},
    {"S", 1, "sequence length (queries and keys)"},
    {"D", 1, "head dimension"},
    {"causal", 0, "mask out keys j > query i (the kernel must be causal)"},
    {"scale", 1, "the score scale (default 1/sqrt(D))"},
    {NULL, 0, NULL},
};

static const tool_op tool_ops[] = {
    {"gemm", "C[M,N] = A[M,K] * B[K,N] (kernel args A, B, C; f16/bf16/f32)",
     gemm_flags},
    {"gemm_bias_gelu",
     "C[M,N] = gelu(A[M,K] * B[K,N] + bias[N]) (kernel args A, B, bias, C; "
     "fp32 epilogue; the inputs scaled so that A * B + bias is of order 1)",
     gemm_bias_gelu_flags},
    {"softmax",
     "Y[M,N] = softmax of each row of X[M,N] (kernel args X, Y; fp32 math; "
     "some rows shifted by +-120)",
     softmax_flags},
    {"attention",
     "O = softmax(Q K^T * scale) V over [B,H,S,D] (kernel args Q, K, V, O, "
     "f32 scale; fp32 math)",
     attention_flags},
};

const tool_op *tool_find_op(const char *name) {
  for (size_t i = 0; i < sizeof tool_ops / sizeof tool_ops[0]; ++i)
    if (strcmp(tool_ops[i].name, name) == 0)
      return &tool_ops[i];
  return NULL;
}

void tool_print_ops(void) {
  for (size_t i = 0; i < sizeof tool_ops / sizeof tool_ops[0]; ++i) {
    const tool_op *op = &tool_ops[i];
    printf("  --op %s: %s\n", op->name, op->summary);
    for (const tool_op_flag *f = op->flags; f->name; ++f)
      printf("      --%s%s  %s\n", f->name, f->takes_value ? " VALUE" : "",
             f->help);
  }
}

/* The last value of option `name`, or NULL. */
static const char *option(const tool_options *o, const char *name) {
  for (int i = o->count - 1; i >= 0; --i)
    if (strcmp(o->name[i], name) == 0)
      return o->value[i] ? o->value[i] : "";
  return NULL;
}

/* Size option `name` of `op` into `*out`: 0, or 1 after printing that it
 * is missing or malformed. */
static int size_option(const tool_options *o, const char *op, const char *name,
                       int64_t *out) {
  const char *v = option(o, name);
  if (!v)
    return tool_fail("--op %s needs --%s", op, name);
  if (tool_parse_i64(out, v, 1, TOOL_MAX_DIM) != 0)
    return tool_fail("--%s wants an integer in [1, %lld], got '%s'", name,
                     (long long)TOOL_MAX_DIM, v);
  return 0;
}

/* The sizes of operator `op` from its options. */
static int op_sizes(tool_problem_sizes *s, const tool_op *op,
                    const tool_options *o) {
  memset(s, 0, sizeof *s);
  const char *name = op->name;
  if (strcmp(name, "attention") == 0) {
    const char *scale = option(o, "scale");
    s->causal = option(o, "causal") != NULL;
    if (scale && (tool_parse_double(&s->scale, scale) != 0 ||
                  !(fabs(s->scale) < 1e30) || s->scale == 0))
      return tool_fail("--scale wants a finite non-zero number, got '%s'",
                       scale);
    return size_option(o, name, "B", &s->b) ||
           size_option(o, name, "H", &s->h) ||
           size_option(o, name, "S", &s->s) || size_option(o, name, "D", &s->d);
  }
  if (size_option(o, name, "M", &s->m) || size_option(o, name, "N", &s->n))
    return 1;
  if (strcmp(name, "softmax") == 0)
    return 0;
  s->trans_b = option(o, "trans-b") != NULL;
  const char *gelu = option(o, "gelu");
  if (gelu && strcmp(gelu, "tanh") != 0 && strcmp(gelu, "erf") != 0)
    return tool_fail("--gelu wants tanh or erf, got '%s'", gelu);
  s->gelu_erf = gelu && strcmp(gelu, "erf") == 0;
  return size_option(o, name, "K", &s->k);
}

int tool_op_problem(tool_problem_desc *d, const tool_op *op,
                    const tool_options *o) {
  tool_problem_sizes sizes;
  return op_sizes(&sizes, op, o) || tool_builtin_problem(d, op->name, &sizes);
}
