/*===- cublas_loader.h - cuBLAS through dlopen, the peer -----------*- C -*-===*
 *
 * tile-bench's peer: cublasGemmEx on the same inputs, the same stream and
 * the same primary context as our kernel. cuBLAS is opened at run time
 * ($TILE_CUBLAS, libcublas.so.13, libcublas.so.12, libcublas.so), so the
 * bench builds without it.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_BENCH_CUBLAS_LOADER_H
#define TILE_BENCH_CUBLAS_LOADER_H

#include "gemm_problem.h"

/// An open cuBLAS with one handle.
typedef struct tool_cublas tool_cublas;

/// Opens cuBLAS and creates a handle on the context current on this thread
/// (make `ctx` current first). `tf32` picks CUBLAS_COMPUTE_32F_FAST_TF32 for
/// f32 inputs instead of CUBLAS_COMPUTE_32F. Returns 0, or 1 after printing
/// what was tried.
int tool_cublas_open(tool_cublas **out, tile_rt_context *ctx, int tf32);

/// Destroys the handle and closes the library. NULL is a no-op.
void tool_cublas_close(tool_cublas *cb);

/// The path cuBLAS was opened from, and its version (e.g. 130001).
const char *tool_cublas_path(const tool_cublas *cb);
int tool_cublas_version(const tool_cublas *cb);

/// Enqueues C = A * B (row-major, as gemm_problem lays them out) for input
/// set `set` into `c`, on `stream` (a CUstream; NULL: the default stream).
/// Returns 0, or 1 after printing the cuBLAS status.
int tool_cublas_gemm(tool_cublas *cb, const tool_problem *p, int set,
                     tile_rt_deviceptr c, void *stream);

#endif /* TILE_BENCH_CUBLAS_LOADER_H */
