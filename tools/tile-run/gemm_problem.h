/*===- gemm_problem.h - GEMM inputs, reference and checks ---------*- C -*-===*
 *
 * One C = A * B problem on the GPU, shared by tile-run's gemm operator and
 * tile-bench: the kernel signature it expects, random inputs rotated among
 * enough sets to defeat L2, the NaN-poisoned output, and the checks against
 * an fp64 host reference or against another output (cuBLAS).
 *
 * Kernel signature: (A: memref<?x?xT> [M, K] row-major,
 *                    B: memref<?x?xT> [K, N] row-major, or [N, K] with
 *                       trans_b,
 *                    C: memref<?x?xTout> [M, N] row-major),
 * T and Tout among f16, bf16, f32.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_GEMM_PROBLEM_H
#define TILE_TOOLS_GEMM_PROBLEM_H

#include "tile-rt/tile_rt.h"

#include <stddef.h>
#include <stdint.h>

/* Rotating inputs through more than this many bytes keeps them out of the
 * H200's 50 MB L2 between launches (docs/ANCHORS.md "How to measure"). */
#define GEMM_ROTATE_BYTES ((size_t)128 << 20)

/// A GEMM problem on the GPU. Owns its device buffers and host copies.
typedef struct gemm_problem {
  tile_rt_context *ctx;
  int64_t m, n, k;
  int trans_b;
  tile_rt_dtype a_type, b_type, c_type;
  size_t a_bytes, b_bytes, c_bytes;
  int nsets;                ///< Input sets the timed launches rotate among.
  size_t set_stride;        ///< Bytes from one set to the next.
  tile_rt_deviceptr inputs; ///< nsets x (A, B), each set the same values.
  tile_rt_deviceptr c;      ///< The output.
  float *host_a, *host_b;   ///< The inputs as rounded to their types.
} gemm_problem;

/// Reads the A, B, C element types from a kernel record, checking that it
/// has the gemm signature above (A and B of one type). Returns 0, or 1 after
/// printing what is wrong.
int gemm_types_of_kernel(tile_rt_dtype types[3],
                         const tile_rt_kernel_desc *desc);

/// Sets up an M x N x K problem with inputs uniform in [-1, 1] from `seed`,
/// rotated among enough copies to cover `rotate_bytes` (0: one set).
/// Returns 0, or 1 after printing why.
int gemm_problem_init(gemm_problem *p, tile_rt_context *ctx, int64_t m,
                      int64_t n, int64_t k, int trans_b,
                      const tile_rt_dtype types[3], uint64_t seed,
                      size_t rotate_bytes);

/// Frees what gemm_problem_init allocated.
void gemm_problem_free(gemm_problem *p);

/// Device addresses of A and B in input set `set`.
tile_rt_deviceptr gemm_problem_a(const gemm_problem *p, int set);
tile_rt_deviceptr gemm_problem_b(const gemm_problem *p, int set);

/// The kernel arguments (A, B of `set`, and `c`) as row-major memrefs.
tile_rt_status gemm_problem_args(tile_rt_arg args[3], const gemm_problem *p,
                                 int set, tile_rt_deviceptr c);

/// Launches `kernel` on input set `set`, writing `c`.
tile_rt_status gemm_problem_launch(tile_rt_kernel *kernel,
                                   const gemm_problem *p, int set,
                                   tile_rt_deviceptr c, tile_rt_stream *stream);

/// The relative-error threshold for the problem's types: 1e-2 when bf16 is
/// involved, else 5e-3 (fp32 accumulation of fp16 products lands ~1e-3).
double gemm_problem_threshold(const gemm_problem *p);

/// The result of a check.
typedef struct gemm_check {
  double rel_err; ///< ||out - ref||_F / ||ref||_F over the checked rows.
  double max_abs_err;
  size_t nonfinite; ///< NaN / Inf elements anywhere in the output.
  int64_t rows;     ///< Rows compared (all N columns of each).
  int pass;
} gemm_check;

/// Compares the M x N output at `out` (element type c_type) with an fp64
/// host reference: every row when M*N*K <= 2^30, else 96 rows spread over M
/// including the first and the last. Returns 0, or 1 after printing why the
/// check could not run (a failing check is `r->pass == 0`, not an error).
int gemm_problem_check(gemm_check *r, const gemm_problem *p,
                       tile_rt_deviceptr out);

/// Compares two M x N outputs of c_type in full: ||x - y||_F / ||y||_F, and
/// the non-finite elements of x. Returns 0, or 1 after printing why not.
int gemm_problem_compare(gemm_check *r, const gemm_problem *p,
                         tile_rt_deviceptr x, tile_rt_deviceptr y);

/// Writes "A=f16 B=f16 C=f32" (with "B^T" for trans_b) into `buf`.
const char *gemm_problem_types(char *buf, size_t n, const gemm_problem *p);

#endif /* TILE_TOOLS_GEMM_PROBLEM_H */
