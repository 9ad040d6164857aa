/*===- builtin_problems.c - The built-in operators' problems --------------===*/

#include "builtin_problems.h"

#include "attention_problem.h"
#include "gemm_problem.h"
#include "host_util.h"
#include "softmax_problem.h"

#include <string.h>

const char tool_builtin_list[] = "gemm, gemm_bias_gelu, softmax, attention";

static int gemm(tool_problem_desc *d, const tool_problem_sizes *s) {
  return gemm_problem_describe(d, s->m, s->n, s->k, s->trans_b,
                               GEMM_EPILOGUE_NONE);
}

static int gemm_bias_gelu(tool_problem_desc *d, const tool_problem_sizes *s) {
  return gemm_problem_describe(d, s->m, s->n, s->k, 0,
                               s->gelu_erf ? GEMM_EPILOGUE_BIAS_GELU_ERF
                                           : GEMM_EPILOGUE_BIAS_GELU_TANH);
}

static int softmax(tool_problem_desc *d, const tool_problem_sizes *s) {
  return softmax_problem_describe(d, s->m, s->n);
}

static int attention(tool_problem_desc *d, const tool_problem_sizes *s) {
  const int64_t shape[4] = {s->b, s->h, s->s, s->d};
  float scale = s->scale != 0 ? (float)s->scale
                : s->d > 0    ? attention_default_scale(s->d)
                              : 1.0f;
  return attention_problem_describe(d, shape, s->causal, scale);
}

static const struct builtin {
  const char *op;
  int (*describe)(tool_problem_desc *d, const tool_problem_sizes *s);
} builtins[] = {
    {"gemm", gemm},
    {"gemm_bias_gelu", gemm_bias_gelu},
    {"softmax", softmax},
    {"attention", attention},
};

static const struct builtin *find(const char *op) {
  for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; ++i)
    if (op && strcmp(builtins[i].op, op) == 0)
      return &builtins[i];
  return NULL;
}

int tool_is_builtin(const char *op) { return find(op) != NULL; }

int tool_builtin_problem(tool_problem_desc *d, const char *op,
                         const tool_problem_sizes *sizes) {
  const struct builtin *b = find(op);
  if (!b)
    return tool_fail("unknown operator '%s': the built-in ones are %s (or "
                     "give a problem description)",
                     op ? op : "", tool_builtin_list);
  return b->describe(d, sizes);
}
