/*===- softmax_problem.h - Row softmax inputs, reference, checks --*- C -*-===*
 *
 * One Y = softmax(X) over each row problem on the GPU, shared by tile-run's
 * softmax operator, tile-bench and the tuner.
 *
 * Kernel signature: (X: memref<?x?xT> [M, N] row-major,
 *                    Y: memref<?x?xTout> [M, N] row-major),
 * T and Tout among f16, bf16, f32; the kernel computes in fp32.
 *
 * Inputs are uniform in [-4, 4], so that the exponentials differ by e^8,
 * and rows 1, 5, 9, ... are shifted by +120 and rows 3, 7, 11, ... by -120:
 * without subtracting the row maximum first, exp overflows fp32 on the
 * former (e^116 > 3.4e38) and underflows to zero on the latter (e^-116 is
 * below the smallest fp32 denormal), so both give NaN.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_SOFTMAX_PROBLEM_H
#define TILE_TOOLS_SOFTMAX_PROBLEM_H

#include "host_check.h"
#include "input_sets.h"

/// The shift of row `row`'s inputs: +120, -120 or 0.
double softmax_row_shift(int64_t row);

/// Reads the X and Y element types from a kernel record, checking that it
/// has the signature above. Returns 0, or 1 after printing what is wrong.
int softmax_types_of_kernel(tile_rt_dtype types[2],
                            const tile_rt_kernel_desc *desc);

/// A softmax problem on the GPU. Owns its device buffers and host copy.
typedef struct softmax_problem {
  tile_rt_context *ctx;
  int64_t m, n;
  tile_rt_dtype x_type, y_type;
  size_t x_bytes, y_bytes;
  tool_input_sets sets; ///< X, rotated among sets.
  int nsets;
  tile_rt_deviceptr y; ///< The output.
  float *host_x;       ///< X as rounded to its type.
} softmax_problem;

/// Sets up an M x N problem from `seed`, X rotated among enough copies to
/// cover `rotate_bytes` (0: one set). Returns 0, or 1 after printing why.
int softmax_problem_init(softmax_problem *p, tile_rt_context *ctx, int64_t m,
                         int64_t n, const tile_rt_dtype types[2], uint64_t seed,
                         size_t rotate_bytes);

/// Frees what softmax_problem_init allocated.
void softmax_problem_free(softmax_problem *p);

/// The kernel arguments (X of `set`, `y`) as row-major memrefs.
tile_rt_status softmax_problem_args(tile_rt_arg args[2],
                                    const softmax_problem *p, int set,
                                    tile_rt_deviceptr y);

/// Launches `kernel` on input set `set`, writing `y`.
tile_rt_status softmax_problem_launch(tile_rt_kernel *kernel,
                                      const softmax_problem *p, int set,
                                      tile_rt_deviceptr y,
                                      tile_rt_stream *stream);

/// The relative-error threshold: 2e-2 when bf16 is involved, else 1e-2.
double softmax_problem_threshold(const softmax_problem *p);

/// Compares the output at `y` with an fp64 host reference, every row when
/// M * N <= 2^27, else 512 rows spread over M (first and last included);
/// each row and the whole must be within the threshold. Returns 0, or 1
/// after printing why the check could not run.
int softmax_problem_check(tool_check *r, const softmax_problem *p,
                          tile_rt_deviceptr y);

/// Writes "X=f16 Y=f16" into `buf`.
const char *softmax_problem_types(char *buf, size_t n,
                                  const softmax_problem *p);

#endif /* TILE_TOOLS_SOFTMAX_PROBLEM_H */
