/*===- attention_problem.h - Attention problem and reference ------*- C -*-===*
 *
 * O = softmax(Q K^T * scale) V as a problem (problem.h), with its fp64
 * host reference. Arguments: Q, K, V, O: [B, H, S, D] row-major (O the
 * output), scale: f32. O[b,h,i,:] = sum_j P[i,j] V[b,h,j,:], P = softmax
 * over j of scale * Q[b,h,i,:] . K[b,h,j,:], with keys j > i masked out
 * when causal (the caller says so; nothing is guessed from the kernel's
 * name). Q, K and V of one type, O of any of f16, bf16, f32; fp32 math.
 *
 * Q and K are uniform in [-2, 2], so that the scores (scale 1/sqrt(D)) have
 * a standard deviation of 4/3 and the softmax is far from uniform; V is
 * uniform in [-1, 1].
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_ATTENTION_PROBLEM_H
#define TILE_TOOLS_ATTENTION_PROBLEM_H

#include "problem.h"

/// The default score scale, 1 / sqrt(D).
float attention_default_scale(int64_t d);

/// Describes a [B, H, S, D] problem (`shape`). Returns 0, or 1 after
/// printing why.
int attention_problem_describe(tool_problem_desc *d, const int64_t shape[4],
                               int causal, float scale);

#endif /* TILE_TOOLS_ATTENTION_PROBLEM_H */
