/*===- cublaslt_loader.c - cuBLASLt through dlopen ------------------------===*
 *
 * cublasLt.h is included for its types and prototypes only: the entry points
 * are looked up with dlsym and type-checked against the prototypes.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "cublaslt_loader.h"

#include "cuda_dtype.h"
#include "host_util.h"

#include <cublasLt.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The workspace cuBLASLt may use (its recommendation for Hopper). */
#define LT_WORKSPACE_BYTES ((size_t)32 << 20)

#define LT_FUNCTIONS(X)                                                        \
  X(create, cublasLtCreate)                                                    \
  X(destroy, cublasLtDestroy)                                                  \
  X(get_version, cublasLtGetVersion)                                           \
  X(desc_create, cublasLtMatmulDescCreate)                                     \
  X(desc_destroy, cublasLtMatmulDescDestroy)                                   \
  X(desc_set, cublasLtMatmulDescSetAttribute)                                  \
  X(layout_create, cublasLtMatrixLayoutCreate)                                 \
  X(layout_destroy, cublasLtMatrixLayoutDestroy)                               \
  X(pref_create, cublasLtMatmulPreferenceCreate)                               \
  X(pref_destroy, cublasLtMatmulPreferenceDestroy)                             \
  X(pref_set, cublasLtMatmulPreferenceSetAttribute)                            \
  X(heuristic, cublasLtMatmulAlgoGetHeuristic)                                 \
  X(matmul, cublasLtMatmul)

struct tool_cublaslt {
  void *lib;
  char path[1024];
  size_t version;
  tile_rt_context *ctx;
  cublasLtHandle_t handle;
  tile_rt_deviceptr workspace;
  /* The plan. */
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t layout[3]; /* cuBLASLt's A (our B), B (our A), C/D */
  cublasLtMatmulAlgo_t algo;
  cublasStatus_t (*create)(cublasLtHandle_t *);
  cublasStatus_t (*destroy)(cublasLtHandle_t);
  size_t (*get_version)(void);
  cublasStatus_t (*desc_create)(cublasLtMatmulDesc_t *, cublasComputeType_t,
                                cudaDataType_t);
  cublasStatus_t (*desc_destroy)(cublasLtMatmulDesc_t);
  cublasStatus_t (*desc_set)(cublasLtMatmulDesc_t,
                             cublasLtMatmulDescAttributes_t, const void *,
                             size_t);
  cublasStatus_t (*layout_create)(cublasLtMatrixLayout_t *, cudaDataType,
                                  uint64_t, uint64_t, int64_t);
  cublasStatus_t (*layout_destroy)(cublasLtMatrixLayout_t);
  cublasStatus_t (*pref_create)(cublasLtMatmulPreference_t *);
  cublasStatus_t (*pref_destroy)(cublasLtMatmulPreference_t);
  cublasStatus_t (*pref_set)(cublasLtMatmulPreference_t,
                             cublasLtMatmulPreferenceAttributes_t, const void *,
                             size_t);
  cublasStatus_t (*heuristic)(cublasLtHandle_t, cublasLtMatmulDesc_t,
                              cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                              cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                              cublasLtMatmulPreference_t, int,
                              cublasLtMatmulHeuristicResult_t[], int *);
  cublasStatus_t (*matmul)(cublasLtHandle_t, cublasLtMatmulDesc_t, const void *,
                           const void *, cublasLtMatrixLayout_t, const void *,
                           cublasLtMatrixLayout_t, const void *, const void *,
                           cublasLtMatrixLayout_t, void *,
                           cublasLtMatrixLayout_t, const cublasLtMatmulAlgo_t *,
                           void *, size_t, cudaStream_t);
  const char *(*status_string)(cublasStatus_t);
};

/* The pointers above must match cublasLt.h: a conditional between two
 * function pointer types that differ is a compile error (never evaluated). */
static void lt_check_signatures(struct tool_cublaslt *lt) {
#define LT_CHECK(field, fn) (void)sizeof(0 ? lt->field : &fn);
  LT_FUNCTIONS(LT_CHECK)
#undef LT_CHECK
  (void)sizeof(0 ? lt->status_string : &cublasLtGetStatusString);
}

static const char *lt_status(const tool_cublaslt *lt, cublasStatus_t s) {
  return lt->status_string ? lt->status_string(s) : "no description";
}

static int lt_fail(const tool_cublaslt *lt, const char *call,
                   cublasStatus_t s) {
  return tool_fail("%s failed: %d (%s)", call, (int)s, lt_status(lt, s));
}

static int lt_symbols(tool_cublaslt *lt) {
  void *sym;
#define LT_LOOKUP(field, fn)                                                   \
  if (!(sym = dlsym(lt->lib, #fn)))                                            \
    return tool_fail("'%s' lacks %s", lt->path, #fn);                          \
  memcpy(&lt->field, &sym, sizeof sym);
  LT_FUNCTIONS(LT_LOOKUP)
#undef LT_LOOKUP
  /* Optional: only for messages. */
  sym = dlsym(lt->lib, "cublasLtGetStatusString");
  memcpy(&lt->status_string, &sym, sizeof sym);
  return 0;
}

int tool_cublaslt_open(tool_cublaslt **out, tile_rt_context *ctx) {
  *out = NULL;
  tool_cublaslt *lt = calloc(1, sizeof *lt);
  if (!lt)
    return tool_fail("out of host memory");
  lt_check_signatures(lt);
  lt->ctx = ctx;
  const char *candidates[] = {getenv("TILE_CUBLASLT"), "libcublasLt.so.13",
                              "libcublasLt.so.12", "libcublasLt.so"};
  char tried[2048] = "";
  lt->lib =
      tool_dlopen_first(candidates, sizeof candidates / sizeof candidates[0],
                        lt->path, sizeof lt->path, tried, sizeof tried);
  if (!lt->lib) {
    free(lt);
    return tool_fail("cannot open cuBLASLt (set TILE_CUBLASLT to its path); "
                     "tried:%s",
                     tried);
  }
  int rc = lt_symbols(lt);
  tile_rt_status st = TILE_RT_SUCCESS;
  /* cuBLASLt uses the current context: ours, the device's primary one. */
  if (rc == 0 && (st = tile_rt_context_make_current(ctx)) != TILE_RT_SUCCESS)
    rc = tool_rt_fail("making the context current for cuBLASLt", st);
  cublasStatus_t s;
  if (rc == 0 && (s = lt->create(&lt->handle)) != CUBLAS_STATUS_SUCCESS)
    rc = lt_fail(lt, "cublasLtCreate", s);
  if (rc == 0) {
    lt->version = lt->get_version();
    st = tile_rt_mem_alloc(&lt->workspace, ctx, LT_WORKSPACE_BYTES);
    if (st != TILE_RT_SUCCESS)
      rc = tool_rt_fail("allocating the cuBLASLt workspace", st);
  }
  if (rc != 0) {
    tool_cublaslt_close(lt);
    return 1;
  }
  *out = lt;
  return 0;
}

static void lt_drop_plan(tool_cublaslt *lt) {
  for (int i = 0; i < 3; ++i)
    if (lt->layout[i])
      lt->layout_destroy(lt->layout[i]);
  if (lt->desc)
    lt->desc_destroy(lt->desc);
  memset(lt->layout, 0, sizeof lt->layout);
  lt->desc = NULL;
}

void tool_cublaslt_close(tool_cublaslt *lt) {
  if (!lt)
    return;
  if (lt->lib) {
    lt_drop_plan(lt);
    if (lt->handle)
      lt->destroy(lt->handle);
  }
  tile_rt_mem_free(lt->ctx, lt->workspace);
  if (lt->lib)
    dlclose(lt->lib);
  free(lt);
}

const char *tool_cublaslt_path(const tool_cublaslt *lt) { return lt->path; }

size_t tool_cublaslt_version(const tool_cublaslt *lt) { return lt->version; }

int tool_cublaslt_plan_gelu_bias(tool_cublaslt *lt, const tool_problem *p) {
  gemm_dims g = gemm_problem_dims(&p->desc);
  lt_drop_plan(lt);
  if (g.epilogue == GEMM_EPILOGUE_NONE || g.trans_b)
    return tool_fail("the cuBLASLt peer runs gelu(A B + bias) with B [K, N]");
  /* Row-major C = A B is column-major C^T = B^T A^T: cuBLASLt's A is our B
   * (N x K column-major, ld N), its B our A (K x M, ld K), C/D N x M (ld
   * N); the bias, indexed by cuBLASLt's rows, is our N columns. */
  cublasStatus_t s;
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_GELU_BIAS;
  cudaDataType bias_type = tool_cuda_data_type(g.bias_type);
  if ((s = lt->desc_create(&lt->desc, CUBLAS_COMPUTE_32F, CUDA_R_32F)) !=
      CUBLAS_STATUS_SUCCESS)
    return lt_fail(lt, "cublasLtMatmulDescCreate", s);
  if ((s = lt->desc_set(lt->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue,
                        sizeof epilogue)) != CUBLAS_STATUS_SUCCESS)
    return lt_fail(lt, "setting CUBLASLT_MATMUL_DESC_EPILOGUE", s);
  if (g.bias_type != g.c_type &&
      (s = lt->desc_set(lt->desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
                        &bias_type, sizeof bias_type)) != CUBLAS_STATUS_SUCCESS)
    return lt_fail(lt, "setting CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE", s);
  struct {
    tile_rt_dtype type;
    int64_t rows, cols;
  } shapes[3] = {
      {g.b_type, g.n, g.k}, {g.a_type, g.k, g.m}, {g.c_type, g.n, g.m}};
  for (int i = 0; i < 3; ++i)
    if ((s = lt->layout_create(
             &lt->layout[i], tool_cuda_data_type(shapes[i].type),
             (uint64_t)shapes[i].rows, (uint64_t)shapes[i].cols,
             shapes[i].rows)) != CUBLAS_STATUS_SUCCESS)
      return lt_fail(lt, "cublasLtMatrixLayoutCreate", s);

  cublasLtMatmulPreference_t pref = NULL;
  if ((s = lt->pref_create(&pref)) != CUBLAS_STATUS_SUCCESS)
    return lt_fail(lt, "cublasLtMatmulPreferenceCreate", s);
  size_t workspace = LT_WORKSPACE_BYTES;
  cublasLtMatmulHeuristicResult_t result;
  int found = 0;
  s = lt->pref_set(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                   sizeof workspace);
  if (s == CUBLAS_STATUS_SUCCESS)
    s = lt->heuristic(lt->handle, lt->desc, lt->layout[0], lt->layout[1],
                      lt->layout[2], lt->layout[2], pref, 1, &result, &found);
  lt->pref_destroy(pref);
  if (s != CUBLAS_STATUS_SUCCESS)
    return lt_fail(lt, "cublasLtMatmulAlgoGetHeuristic", s);
  if (found == 0)
    return tool_fail("cuBLASLt has no algorithm for gelu(A B + bias) with "
                     "A=%s B=%s bias=%s C=%s, M=%lld N=%lld K=%lld",
                     tile_rt_dtype_name(g.a_type), tile_rt_dtype_name(g.b_type),
                     tile_rt_dtype_name(g.bias_type),
                     tile_rt_dtype_name(g.c_type), (long long)g.m,
                     (long long)g.n, (long long)g.k);
  lt->algo = result.algo;
  return 0;
}

int tool_cublaslt_gelu_bias(tool_cublaslt *lt, const tool_problem *p, int set,
                            tile_rt_deviceptr c, void *stream) {
  gemm_dims g = gemm_problem_dims(&p->desc);
  const void *bias =
      (const void *)(uintptr_t)tool_problem_input(p, GEMM_ARG_BIAS, set);
  cublasStatus_t s = lt->desc_set(lt->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                                  &bias, sizeof bias);
  if (s != CUBLAS_STATUS_SUCCESS)
    return lt_fail(lt, "setting CUBLASLT_MATMUL_DESC_BIAS_POINTER", s);
  const float alpha = 1.0f, beta = 0.0f;
  void *d = (void *)(uintptr_t)c;
  s = lt->matmul(
      lt->handle, lt->desc, &alpha,
      (const void *)(uintptr_t)tool_problem_input(p, GEMM_ARG_B, set),
      lt->layout[0],
      (const void *)(uintptr_t)tool_problem_input(p, GEMM_ARG_A, set),
      lt->layout[1], &beta, d, lt->layout[2], d, lt->layout[2], &lt->algo,
      (void *)(uintptr_t)lt->workspace, LT_WORKSPACE_BYTES,
      (cudaStream_t)stream);
  if (s != CUBLAS_STATUS_SUCCESS)
    return tool_fail("cublasLtMatmul (M=%lld N=%lld K=%lld) failed: %d (%s)",
                     (long long)g.m, (long long)g.n, (long long)g.k, (int)s,
                     lt_status(lt, s));
  return 0;
}
