/*===- softmax_problem.h - Row softmax problem and reference ------*- C -*-===*
 *
 * Y = softmax(X) over each row, as a problem (problem.h), with its fp64
 * host reference. Arguments: X: [M, N] row-major, Y: [M, N] row-major,
 * the output; f16, bf16 or f32; the kernel computes in fp32.
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

#include "problem.h"

/// Describes an M x N problem. Returns 0, or 1 after printing why.
int softmax_problem_describe(tool_problem_desc *d, int64_t m, int64_t n);

#endif /* TILE_TOOLS_SOFTMAX_PROBLEM_H */
