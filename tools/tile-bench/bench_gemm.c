/*===- bench_gemm.c - tile-bench --op gemm: ours against cublasGemmEx -----===*/

#include "bench.h"
#include "cublas_loader.h"
#include "host_util.h"
#include "timing.h"

#include <stdio.h>

typedef struct gemm_peer {
  tile_rt_kernel *kernel;
  tool_cublas *cublas;
  const gemm_problem *p;
  tile_rt_deviceptr c;
} gemm_peer;

static int launch_ours(void *user, int set, tile_rt_stream *stream) {
  const gemm_peer *b = user;
  tile_rt_status st = gemm_problem_launch(b->kernel, b->p, set, b->c, stream);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("launching our kernel", st);
}

static int launch_cublas(void *user, int set, tile_rt_stream *stream) {
  const gemm_peer *b = user;
  void *native;
  tile_rt_stream_native(&native, stream);
  return tool_cublas_gemm(b->cublas, b->p, set, b->c, native);
}

/* Runs both once on poisoned outputs and compares them. */
static int verify(const bench_env *env, gemm_peer *ours, gemm_peer *peer,
                  tool_check *r) {
  const gemm_problem *p = ours->p;
  size_t count = (size_t)(p->m * p->n);
  tile_rt_status st = tool_poison(env->ctx, ours->c, p->c_type, count);
  if (st == TILE_RT_SUCCESS)
    st = tool_poison(env->ctx, peer->c, p->c_type, count);
  if (st != TILE_RT_SUCCESS)
    return tool_rt_fail("poisoning the outputs", st);
  if (launch_ours(ours, 0, env->stream) != 0 ||
      launch_cublas(peer, 0, env->stream) != 0)
    return 1;
  if ((st = tile_rt_stream_synchronize(
           env->ctx, env->stream, env->args->timeout_s)) != TILE_RT_SUCCESS)
    return tool_rt_fail("running", st);
  if (gemm_problem_compare(r, p, ours->c, peer->c) != 0)
    return 1;
  if (!r->pass)
    printf("  MISMATCH: ours vs cuBLAS rel diff %.2e (threshold %.0e), %zu "
           "non-finite outputs of ours\n",
           r->rel_err, r->threshold, r->nonfinite);
  return 0;
}

/* One table row; returns 0, or 1 when something failed. */
static int bench_one(const bench_env *env, tool_cublas *cublas,
                     const gemm_types *types, const bench_size *s,
                     int *mismatch) {
  const bench_args *a = env->args;
  gemm_problem p;
  if (gemm_problem_init(&p, env->ctx, s->m, s->n, s->k, a->trans_b, types,
                        GEMM_EPILOGUE_NONE, a->seed, TOOL_ROTATE_BYTES) != 0)
    return 1;
  tile_rt_deviceptr c_peer = 0;
  tile_rt_status st = tile_rt_mem_alloc(&c_peer, env->ctx, p.c_bytes);
  int rc = st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("allocating", st);
  tile_rt_kernel *kernel = bench_kernel_of(env, s);
  gemm_peer ours = {kernel, cublas, &p, p.c},
            peer = {kernel, cublas, &p, c_peer};
  tool_check r;
  tool_timing t_ours, t_peer;
  if (rc == 0)
    rc = verify(env, &ours, &peer, &r);
  if (rc == 0)
    rc = tool_time_launches(&t_ours, env->ctx, env->stream, launch_ours, &ours,
                            p.nsets, a->warmup, a->iters, a->timeout_s);
  if (rc == 0)
    rc = tool_time_launches(&t_peer, env->ctx, env->stream, launch_cublas,
                            &peer, p.nsets, a->warmup, a->iters, a->timeout_s);
  if (rc == 0) {
    double flops = 2.0 * (double)p.m * (double)p.n * (double)p.k;
    double tf_ours = flops / (t_ours.median_ms * 1e-3) / 1e12;
    double tf_peer = flops / (t_peer.median_ms * 1e-3) / 1e12;
    char size[64];
    snprintf(size, sizeof size, "%lldx%lldx%lld", (long long)p.m,
             (long long)p.n, (long long)p.k);
    printf("%-20s %10.4f %9.1f %11.4f %9.1f %11.2fx %10.2e%s\n", size,
           t_ours.median_ms, tf_ours, t_peer.median_ms, tf_peer,
           tf_ours / tf_peer, r.rel_err, r.pass ? "" : " MISMATCH");
    fflush(stdout);
    if (!r.pass)
      *mismatch = 1;
  }
  tile_rt_mem_free(env->ctx, c_peer);
  gemm_problem_free(&p);
  return rc;
}

int bench_gemm(const bench_env *env) {
  const bench_args *a = env->args;
  gemm_types types;
  tool_cublas *cublas = NULL;
  int rc = 0, mismatch = 0;
  if (gemm_types_of_kernel(&types, env->desc, GEMM_EPILOGUE_NONE) != 0 ||
      tool_cublas_open(&cublas, env->ctx, a->tf32) != 0)
    return 1;
  printf("cuBLAS %d from %s, cublasGemmEx with %s\n",
         tool_cublas_version(cublas), tool_cublas_path(cublas),
         a->tf32 && types.a == TILE_RT_F32 ? "CUBLAS_COMPUTE_32F_FAST_TF32"
                                           : "CUBLAS_COMPUTE_32F");
  printf("kernel %s: A=%s B%s=%s C=%s; median of %d launches after %d "
         "warm-up, inputs rotated past %zu MiB\n",
         env->desc->name, tile_rt_dtype_name(types.a), a->trans_b ? "^T" : "",
         tile_rt_dtype_name(types.b), tile_rt_dtype_name(types.c), a->iters,
         a->warmup, TOOL_ROTATE_BYTES >> 20);
  printf("%-20s %10s %9s %11s %9s %12s %10s\n", "size (MxNxK)", "ours ms",
         "TFLOP/s", "cuBLAS ms", "TFLOP/s", "ours/cuBLAS", "rel diff");
  for (int i = 0; i < a->nsizes; ++i)
    if (bench_one(env, cublas, &types, &a->sizes[i], &mismatch) != 0)
      rc = 1;
  tool_cublas_close(cublas);
  if (mismatch)
    rc = tool_fail("our output differs from cuBLAS's beyond the threshold "
                   "(MISMATCH rows): the times above are not comparable");
  return rc;
}
