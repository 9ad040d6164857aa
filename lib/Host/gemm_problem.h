/*===- gemm_problem.h - GEMM inputs, reference and checks ---------*- C -*-===*
 *
 * One C = A * B problem on the GPU, optionally with a fused epilogue
 * C = gelu(A * B + bias), shared by tile-run's gemm operators and
 * tile-bench: the kernel signature it expects, random inputs rotated among
 * enough sets to defeat L2, the NaN-poisoned output, and the checks against
 * an fp64 host reference or against another output (cuBLAS).
 *
 * Kernel signatures: (A: memref<?x?xT> [M, K] row-major,
 *                     B: memref<?x?xT> [K, N] row-major, or [N, K] with
 *                        trans_b,
 *                     C: memref<?x?xTout> [M, N] row-major),
 * and with the epilogue (A, B, bias: memref<?xTbias> [N], C), T, Tout and
 * Tbias among f16, bf16, f32; the epilogue computes in fp32.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_GEMM_PROBLEM_H
#define TILE_TOOLS_GEMM_PROBLEM_H

#include "host_check.h"
#include "input_sets.h"

#include <stddef.h>
#include <stdint.h>

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

/// The element types of a gemm kernel's arguments.
typedef struct gemm_types {
  tile_rt_dtype a, b, c;
  tile_rt_dtype bias; ///< With an epilogue only.
} gemm_types;

/// Reads the element types from a kernel record, checking that it has the
/// signature above: (A, B, C), or (A, B, bias, C) when `epilogue` is not
/// NONE; A and B of one type. Returns 0, or 1 after printing what is wrong.
int gemm_types_of_kernel(gemm_types *types, const tile_rt_kernel_desc *desc,
                         gemm_epilogue epilogue);

/// A GEMM problem on the GPU. Owns its device buffers and host copies.
typedef struct gemm_problem {
  tile_rt_context *ctx;
  int64_t m, n, k;
  int trans_b;
  gemm_epilogue epilogue;
  tile_rt_dtype a_type, b_type, c_type, bias_type;
  size_t c_bytes;
  /// A, B (and bias) in input sets; the timed launches rotate among them.
  tool_input_sets sets;
  int nsets;           ///< sets.nsets.
  tile_rt_deviceptr c; ///< The output.
  /// The inputs as rounded to their types (host_bias with an epilogue).
  float *host_a, *host_b, *host_bias;
  double amplitude; ///< A and B are uniform in [-amplitude, amplitude].
} gemm_problem;

/// Sets up an M x N x K problem with inputs from `seed`, rotated among
/// enough copies to cover `rotate_bytes` (0: one set). A and B are uniform
/// in [-1, 1]; with an epilogue they are scaled so that A * B is of order 1
/// (where gelu is not yet the identity or zero) and the bias is uniform in
/// [-1, 1]. Returns 0, or 1 after printing why.
int gemm_problem_init(gemm_problem *p, tile_rt_context *ctx, int64_t m,
                      int64_t n, int64_t k, int trans_b,
                      const gemm_types *types, gemm_epilogue epilogue,
                      uint64_t seed, size_t rotate_bytes);

/// Frees what gemm_problem_init allocated.
void gemm_problem_free(gemm_problem *p);

/// Device addresses of A, B and the bias in input set `set`.
tile_rt_deviceptr gemm_problem_a(const gemm_problem *p, int set);
tile_rt_deviceptr gemm_problem_b(const gemm_problem *p, int set);
tile_rt_deviceptr gemm_problem_bias(const gemm_problem *p, int set);

/// The kernel arguments (A, B of `set`, the bias with an epilogue, and `c`)
/// as row-major memrefs; their number in `*nargs` (3 or 4).
tile_rt_status gemm_problem_args(tile_rt_arg args[4], int *nargs,
                                 const gemm_problem *p, int set,
                                 tile_rt_deviceptr c);

/// Launches `kernel` on input set `set`, writing `c`.
tile_rt_status gemm_problem_launch(tile_rt_kernel *kernel,
                                   const gemm_problem *p, int set,
                                   tile_rt_deviceptr c, tile_rt_stream *stream);

/// The relative-error threshold: 1e-2 when bf16 is involved, else 5e-3 (fp32
/// accumulation of fp16 products lands ~1e-3); with the gelu epilogue (an
/// approximated tanh or erf) 2e-2 and 1e-2.
double gemm_problem_threshold(const gemm_problem *p);

/// Compares the M x N output at `out` (element type c_type) with an fp64
/// host reference: every row when M*N*K <= 2^30, else 96 rows spread over M
/// including the first and the last. Returns 0, or 1 after printing why the
/// check could not run (a failing check is `r->pass == 0`, not an error).
int gemm_problem_check(tool_check *r, const gemm_problem *p,
                       tile_rt_deviceptr out);

/// Compares two M x N outputs of c_type in full: ||x - y||_F / ||y||_F, and
/// the non-finite elements of x. Returns 0, or 1 after printing why not.
int gemm_problem_compare(tool_check *r, const gemm_problem *p,
                         tile_rt_deviceptr x, tile_rt_deviceptr y);

/// Writes "A=f16 B=f16 C=f32" (with "B^T" for trans_b, " bias=f16" with an
/// epilogue) into `buf`.
const char *gemm_problem_types(char *buf, size_t n, const gemm_problem *p);

#endif /* TILE_TOOLS_GEMM_PROBLEM_H */
