/*===- gemm_problem.h - The GEMM problem and its reference --------*- C -*-===*
 *
 * C = A * B, optionally with a fused epilogue C = gelu(A * B + bias), as a
 * problem (problem.h), with its fp64 host reference. Arguments:
 *   A: [M, K] row-major,
 *   B: [K, N] row-major, or [N, K] with trans_b (named "B^T"),
 *   bias: [N] (with the epilogue only),
 *   C: [M, N] row-major, the output,
 * A and B of one type, every tensor f16, bf16 or f32; the epilogue computes
 * in fp32. A and B are uniform in [-1, 1]; with the epilogue they are
 * scaled so that A * B is of order 1 (where gelu is not yet the identity or
 * zero) and the bias is uniform in [-1, 1].
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_GEMM_PROBLEM_H
#define TILE_TOOLS_GEMM_PROBLEM_H

#include "problem.h"

/// What follows the product.
typedef enum gemm_epilogue {
  GEMM_EPILOGUE_NONE = 0,
  /// gelu(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) of x = AB + bias
  GEMM_EPILOGUE_BIAS_GELU_TANH = 1,
  /// gelu(x) = 0.5 x (1 + erf(x / sqrt(2))) of x = AB + bias
  GEMM_EPILOGUE_BIAS_GELU_ERF = 2,
} gemm_epilogue;

/// "none", "tanh" or "erf".
const char *gemm_epilogue_name(gemm_epilogue e);

/// The argument indices.
enum { GEMM_ARG_A = 0, GEMM_ARG_B = 1, GEMM_ARG_BIAS = 2 };

/// Describes an M x N x K problem ("gemm", or "gemm_bias_gelu" with an
/// epilogue). Returns 0, or 1 after printing why (a size out of range).
int gemm_problem_describe(tool_problem_desc *d, int64_t m, int64_t n, int64_t k,
                          int trans_b, gemm_epilogue epilogue);

/// A gemm problem's sizes, as gemm_problem_describe was given them, and
/// its types once bound (f32 for a bias it does not have).
typedef struct gemm_dims {
  int64_t m, n, k;
  int trans_b;
  gemm_epilogue epilogue;
  int c; ///< The index of C.
  tile_rt_dtype a_type, b_type, bias_type, c_type;
} gemm_dims;
gemm_dims gemm_problem_dims(const tool_problem_desc *d);

#endif /* TILE_TOOLS_GEMM_PROBLEM_H */
