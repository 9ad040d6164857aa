/*===- op_gemm.h - What the gemm operators share ------------------*- C -*-===*
 *
 * --op gemm and --op gemm_bias_gelu differ in the epilogue only: both read
 * --M --N --K, check against the fp64 reference and time with --iters.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_OP_GEMM_H
#define TILE_TOOLS_OP_GEMM_H

#include "gemm_problem.h"
#include "ops.h"

/// Runs the gemm operator named `op` with `epilogue` on env's kernel; the
/// exit code.
int tool_gemm_op_run(const tool_op_env *env, const char *op,
                     gemm_epilogue epilogue);

#endif /* TILE_TOOLS_OP_GEMM_H */
