/*===- attention_problem.h - Attention inputs, reference, checks --*- C -*-===*
 *
 * One O = softmax(Q K^T * scale) V problem on the GPU, shared by tile-run's
 * attention operator and the tuner.
 *
 * Kernel signature: (Q, K, V, O: memref<?x?x?x?xT> [B, H, S, D] row-major,
 *                    scale: f32),
 * O[b,h,i,:] = sum_j P[i,j] V[b,h,j,:], P = softmax over j of
 * scale * Q[b,h,i,:] . K[b,h,j,:], with keys j > i masked out when causal
 * (the caller says so; nothing is guessed from the kernel's name). Q, K and
 * V of one type, O of any of f16, bf16, f32; fp32 math.
 *
 * Q and K are uniform in [-2, 2], so that the scores (scale 1/sqrt(D)) have
 * a standard deviation of 4/3 and the softmax is far from uniform; V is
 * uniform in [-1, 1].
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_ATTENTION_PROBLEM_H
#define TILE_TOOLS_ATTENTION_PROBLEM_H

#include "host_check.h"
#include "input_sets.h"

#include <stddef.h>
#include <stdint.h>

/// The largest B, H, S or D.
#define ATTENTION_MAX_DIM INT32_MAX

/// Reads the Q/K/V and O element types from a kernel record, checking that
/// it has the signature above. Returns 0, or 1 after printing what is
/// wrong.
int attention_types_of_kernel(tile_rt_dtype types[2],
                              const tile_rt_kernel_desc *desc);

/// The default score scale, 1 / sqrt(D).
float attention_default_scale(int64_t d);

/// An attention problem on the GPU. Owns its device buffers and host
/// copies.
typedef struct attention_problem {
  tile_rt_context *ctx;
  int64_t b, h, s, d;
  int causal;
  float scale;
  tile_rt_dtype in_type, out_type;
  size_t in_bytes, out_bytes; ///< Of one of Q, K, V; of O.
  tool_input_sets sets;       ///< Q, K and V, rotated among sets.
  int nsets;                  ///< sets.nsets.
  tile_rt_deviceptr o;        ///< The output.
  float *host[3];             ///< Q, K and V as rounded to their type.
} attention_problem;

/// Sets up a [B, H, S, D] problem (`shape`) from `seed`, Q, K and V
/// rotated among enough copies to cover `rotate_bytes` (0: one set).
/// Returns 0, or 1 after printing why.
int attention_problem_init(attention_problem *p, tile_rt_context *ctx,
                           const int64_t shape[4], int causal, float scale,
                           const tile_rt_dtype types[2], uint64_t seed,
                           size_t rotate_bytes);

/// Frees what attention_problem_init allocated.
void attention_problem_free(attention_problem *p);

/// The kernel arguments (Q, K, V of `set`, `o`, the scale).
tile_rt_status attention_problem_args(tile_rt_arg args[5],
                                      const attention_problem *p, int set,
                                      tile_rt_deviceptr o);

/// Launches `kernel` on input set `set`, writing `o`.
tile_rt_status attention_problem_launch(tile_rt_kernel *kernel,
                                        const attention_problem *p, int set,
                                        tile_rt_deviceptr o,
                                        tile_rt_stream *stream);

/// The elements of O.
size_t attention_problem_out_count(const attention_problem *p);

/// The floating-point operations of one launch: Q K^T and P V,
/// 4 B H S^2 D, half of it when causal.
double attention_problem_flops(const attention_problem *p);

/// The relative-error threshold: 2e-2 when bf16 is involved, else 1e-2.
double attention_problem_threshold(const attention_problem *p);

/// Compares the output at `o` with an fp64 host reference, query row by
/// query row and as a whole: all of it when B H S^2 D <= 2^30, else 8
/// (b, h) pairs x 64 query rows (the first and last included), all D
/// columns. Returns 0, or 1 after printing why the check could not run.
int attention_problem_check(tool_check *r, const attention_problem *p,
                            tile_rt_deviceptr o);

/// Writes "B=2 H=3 S=100 D=64 causal scale=0.125" into `buf`.
const char *attention_problem_shape(char *buf, size_t n,
                                    const attention_problem *p);

/// Writes "Q,K,V=f16 O=f16" into `buf`.
const char *attention_problem_types(char *buf, size_t n,
                                    const attention_problem *p);

#endif /* TILE_TOOLS_ATTENTION_PROBLEM_H */
