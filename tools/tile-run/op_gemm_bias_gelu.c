/*===- op_gemm_bias_gelu.c - tile-run --op gemm_bias_gelu -----------------===*
 *
 * C = gelu(A * B + bias): a gemm kernel with a fused epilogue (signature in
 * gemm_problem.h), checked against the fp64 reference with the gelu form
 * given by --gelu (tanh by default; the kernel's name is not consulted).
 * The inputs are scaled so that A * B + bias is of order 1, where gelu is
 * neither the identity nor zero. At fp16 output precision the tanh and erf
 * forms (at most ~5e-4 apart) cannot be told apart by the check.
 *
 *===----------------------------------------------------------------------===*/

#include "host_util.h"
#include "op_gemm.h"

#include <string.h>

static int gemm_bias_gelu_run(const tool_op_env *env) {
  gemm_epilogue epilogue = GEMM_EPILOGUE_BIAS_GELU_TANH;
  for (int i = 0; i < env->options->count; ++i) {
    if (strcmp(env->options->name[i], "gelu") != 0)
      continue;
    const char *v = env->options->value[i];
    if (strcmp(v, "tanh") == 0)
      epilogue = GEMM_EPILOGUE_BIAS_GELU_TANH;
    else if (strcmp(v, "erf") == 0)
      epilogue = GEMM_EPILOGUE_BIAS_GELU_ERF;
    else
      return tool_fail("--gelu wants tanh or erf, got '%s'", v);
  }
  return tool_gemm_op_run(env, "gemm_bias_gelu", epilogue);
}

static const tool_op_flag gemm_bias_gelu_flags[] = {
    {"M", 1, "rows of A and C"},
    {"N", 1, "columns of B and C, length of bias"},
    {"K", 1, "columns of A, rows of B"},
    {"gelu", 1, "the kernel's gelu: tanh (default) or erf"},
    {NULL, 0, NULL},
};

const tool_op tool_op_gemm_bias_gelu = {
    "gemm_bias_gelu",
    "C[M,N] = gelu(A[M,K] * B[K,N] + bias[N]) (kernel args A, B, bias, C; "
    "fp32 epilogue)",
    gemm_bias_gelu_flags,
    gemm_bias_gelu_run,
};
