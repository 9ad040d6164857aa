/*===- builtin_problems.h - The built-in operators' problems ------*- C -*-===*
 *
 * The four operators every tool knows by name, each a problem description
 * (problem.h) made from a few sizes: gemm and gemm_bias_gelu
 * (gemm_problem.h), softmax (softmax_problem.h) and attention
 * (attention_problem.h).
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_BUILTIN_PROBLEMS_H
#define TILE_TOOLS_BUILTIN_PROBLEMS_H

#include "problem.h"

/// What a built-in problem is made from.
typedef struct tool_problem_sizes {
  int64_t m, n, k;    ///< The gemms' M x N x K; softmax's M x N.
  int64_t b, h, s, d; ///< attention's [B, H, S, D].
  int trans_b;        ///< gemm: B is [N, K].
  int gelu_erf;       ///< gemm_bias_gelu: the erf GELU (else tanh).
  int causal;         ///< attention: keys past the query masked.
  double scale;       ///< attention: the score scale (0: 1 / sqrt(D)).
} tool_problem_sizes;

/// "gemm, gemm_bias_gelu, softmax, attention".
extern const char tool_builtin_list[];

/// Whether `op` names a built-in operator.
int tool_is_builtin(const char *op);

/// Describes built-in problem `op` of `sizes`. Returns 0, or 1 after
/// printing why (an unknown operator, a size out of range).
int tool_builtin_problem(tool_problem_desc *d, const char *op,
                         const tool_problem_sizes *sizes);

#endif /* TILE_TOOLS_BUILTIN_PROBLEMS_H */
