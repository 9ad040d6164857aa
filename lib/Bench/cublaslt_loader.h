/*===- cublaslt_loader.h - cuBLASLt's fused GEMM + bias + GELU -----*- C -*-===*
 *
 * tile-bench's peer for fused epilogues: cublasLtMatmul with
 * CUBLASLT_EPILOGUE_GELU_BIAS (cuBLASLt's GELU is the tanh form) on the same
 * inputs, the same stream and the same primary context as our kernel.
 * cuBLASLt is opened at run time ($TILE_CUBLASLT, libcublasLt.so.13,
 * libcublasLt.so.12, libcublasLt.so), so the bench builds without it.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_BENCH_CUBLASLT_LOADER_H
#define TILE_BENCH_CUBLASLT_LOADER_H

#include "gemm_problem.h"

/// An open cuBLASLt with one handle and a workspace.
typedef struct tool_cublaslt tool_cublaslt;

/// Opens cuBLASLt and creates a handle and a workspace on `ctx` (made
/// current first). Returns 0, or 1 after printing what was tried.
int tool_cublaslt_open(tool_cublaslt **out, tile_rt_context *ctx);

/// Frees the plan, the workspace and the handle, and closes the library.
/// NULL is a no-op.
void tool_cublaslt_close(tool_cublaslt *lt);

/// The path cuBLASLt was opened from, and its version (e.g. 130001).
const char *tool_cublaslt_path(const tool_cublaslt *lt);
size_t tool_cublaslt_version(const tool_cublaslt *lt);

/// Plans C = gelu(A * B + bias) for problem `p` (row-major, as
/// gemm_problem lays it out, with a bias): descriptors, and the algorithm
/// the heuristic picks first. Replaces any earlier plan. Returns 0, or 1
/// after printing the cuBLASLt status (e.g. an unsupported type mix).
int tool_cublaslt_plan_gelu_bias(tool_cublaslt *lt, const tool_problem *p);

/// Enqueues the planned matmul on input set `set` of the planned problem
/// into `c`, on `stream` (a CUstream; NULL: the default stream). Returns 0,
/// or 1 after printing the cuBLASLt status.
int tool_cublaslt_gelu_bias(tool_cublaslt *lt, const tool_problem *p, int set,
                            tile_rt_deviceptr c, void *stream);

#endif /* TILE_BENCH_CUBLASLT_LOADER_H */
