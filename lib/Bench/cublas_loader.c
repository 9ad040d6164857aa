/*===- cublas_loader.c - cuBLAS through dlopen ----------------------------===*
 *
 * cublas_api.h is included for its types and prototypes only: the entry
 * points are looked up with dlsym and type-checked against the prototypes.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "cublas_loader.h"

#include "cuda_dtype.h"
#include "host_util.h"

#include <cublas_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tool_cublas {
  void *lib;
  char path[1024];
  int version;
  int tf32;
  cublasHandle_t handle;
  cublasStatus_t (*create)(cublasHandle_t *);
  cublasStatus_t (*destroy)(cublasHandle_t);
  cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t);
  cublasStatus_t (*get_version)(cublasHandle_t, int *);
  cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t,
                            cublasOperation_t, int, int, int, const void *,
                            const void *, cudaDataType, int, const void *,
                            cudaDataType, int, const void *, void *,
                            cudaDataType, int, cublasComputeType_t,
                            cublasGemmAlgo_t);
  const char *(*status_string)(cublasStatus_t);
};

/* The pointers above must match cublas_api.h: a conditional between two
 * function pointer types that differ is a compile error (never evaluated). */
static void tool_cublas_check_signatures(struct tool_cublas *cb) {
  (void)sizeof(0 ? cb->create : &cublasCreate_v2);
  (void)sizeof(0 ? cb->destroy : &cublasDestroy_v2);
  (void)sizeof(0 ? cb->set_stream : &cublasSetStream_v2);
  (void)sizeof(0 ? cb->get_version : &cublasGetVersion_v2);
  (void)sizeof(0 ? cb->gemm_ex : &cublasGemmEx);
  (void)sizeof(0 ? cb->status_string : &cublasGetStatusString);
}

static int tool_cublas_symbol(void *fn_ptr, size_t size, void *lib,
                              const char *name, const char *path) {
  void *sym = dlsym(lib, name);
  if (!sym)
    return tool_fail("'%s' lacks %s", path, name);
  memcpy(fn_ptr, &sym, size);
  return 0;
}

static const char *tool_cublas_status(const tool_cublas *cb, cublasStatus_t s) {
  return cb->status_string ? cb->status_string(s) : "no description";
}

int tool_cublas_open(tool_cublas **out, tile_rt_context *ctx, int tf32) {
  *out = NULL;
  tool_cublas *cb = calloc(1, sizeof *cb);
  if (!cb)
    return tool_fail("out of host memory");
  tool_cublas_check_signatures(cb);
  cb->tf32 = tf32;
  const char *candidates[] = {getenv("TILE_CUBLAS"), "libcublas.so.13",
                              "libcublas.so.12", "libcublas.so"};
  char tried[2048] = "";
  cb->lib =
      tool_dlopen_first(candidates, sizeof candidates / sizeof candidates[0],
                        cb->path, sizeof cb->path, tried, sizeof tried);
  if (!cb->lib) {
    free(cb);
    return tool_fail("cannot open cuBLAS (set TILE_CUBLAS to its path); "
                     "tried:%s",
                     tried);
  }
  int rc = tool_cublas_symbol(&cb->create, sizeof cb->create, cb->lib,
                              "cublasCreate_v2", cb->path) ||
           tool_cublas_symbol(&cb->destroy, sizeof cb->destroy, cb->lib,
                              "cublasDestroy_v2", cb->path) ||
           tool_cublas_symbol(&cb->set_stream, sizeof cb->set_stream, cb->lib,
                              "cublasSetStream_v2", cb->path) ||
           tool_cublas_symbol(&cb->get_version, sizeof cb->get_version, cb->lib,
                              "cublasGetVersion_v2", cb->path) ||
           tool_cublas_symbol(&cb->gemm_ex, sizeof cb->gemm_ex, cb->lib,
                              "cublasGemmEx", cb->path);
  if (rc == 0) {
    /* Optional: only for messages. */
    void *s = dlsym(cb->lib, "cublasGetStatusString");
    memcpy(&cb->status_string, &s, sizeof s);
    /* cuBLAS uses the current context: ours, the device's primary one. */
    tile_rt_status st = tile_rt_context_make_current(ctx);
    if (st != TILE_RT_SUCCESS)
      rc = tool_rt_fail("making the context current for cuBLAS", st);
  }
  if (rc == 0) {
    cublasStatus_t s = cb->create(&cb->handle);
    if (s != CUBLAS_STATUS_SUCCESS)
      rc = tool_fail("cublasCreate failed: %d (%s)", (int)s,
                     tool_cublas_status(cb, s));
    else if (cb->get_version(cb->handle, &cb->version) != CUBLAS_STATUS_SUCCESS)
      cb->version = 0;
  }
  if (rc != 0) {
    tool_cublas_close(cb);
    return 1;
  }
  *out = cb;
  return 0;
}

void tool_cublas_close(tool_cublas *cb) {
  if (!cb)
    return;
  if (cb->handle)
    cb->destroy(cb->handle);
  if (cb->lib)
    dlclose(cb->lib);
  free(cb);
}

const char *tool_cublas_path(const tool_cublas *cb) { return cb->path; }

int tool_cublas_version(const tool_cublas *cb) { return cb->version; }

int tool_cublas_gemm(tool_cublas *cb, const tool_problem *p, int set,
                     tile_rt_deviceptr c, void *stream) {
  gemm_dims g = gemm_problem_dims(&p->desc);
  cublasStatus_t s = cb->set_stream(cb->handle, (cudaStream_t)stream);
  if (s != CUBLAS_STATUS_SUCCESS)
    return tool_fail("cublasSetStream failed: %d (%s)", (int)s,
                     tool_cublas_status(cb, s));
  /* Row-major C = A B is column-major C^T = B^T A^T: cuBLAS's first operand
   * is our B (N x K column-major view), its second our A. */
  const float alpha = 1.0f, beta = 0.0f;
  int m = (int)g.n, n = (int)g.m, k = (int)g.k;
  cublasOperation_t op_b = g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  int ldb = g.trans_b ? k : m;
  cublasComputeType_t compute = cb->tf32 && g.a_type == TILE_RT_F32
                                    ? CUBLAS_COMPUTE_32F_FAST_TF32
                                    : CUBLAS_COMPUTE_32F;
  s = cb->gemm_ex(
      cb->handle, op_b, CUBLAS_OP_N, m, n, k, &alpha,
      (const void *)(uintptr_t)tool_problem_input(p, GEMM_ARG_B, set),
      tool_cuda_data_type(g.b_type), ldb,
      (const void *)(uintptr_t)tool_problem_input(p, GEMM_ARG_A, set),
      tool_cuda_data_type(g.a_type), k, &beta, (void *)(uintptr_t)c,
      tool_cuda_data_type(g.c_type), m, compute, CUBLAS_GEMM_DEFAULT);
  if (s != CUBLAS_STATUS_SUCCESS)
    return tool_fail("cublasGemmEx (M=%lld N=%lld K=%lld) failed: %d (%s)",
                     (long long)g.m, (long long)g.n, (long long)g.k, (int)s,
                     tool_cublas_status(cb, s));
  return 0;
}
