/*===- bench_gemm.c - tile-bench --op gemm: ours against cublasGemmEx -----===*/

#include "bench.h"
#include "cublas_loader.h"
#include "host_util.h"
#include "timing.h"

#include <stdio.h>

typedef struct gemm_bench {
  tile_rt_kernel *kernel;
  tool_cublas *cublas;
  const gemm_problem *p;
  tile_rt_deviceptr c_ours, c_peer;
} gemm_bench;

static int launch_ours(void *user, int set, tile_rt_stream *stream) {
  const gemm_bench *b = user;
  tile_rt_status st =
      gemm_problem_launch(b->kernel, b->p, set, b->c_ours, stream);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("launching our kernel", st);
}

static int launch_cublas(void *user, int set, tile_rt_stream *stream) {
  const gemm_bench *b = user;
  void *native;
  tile_rt_stream_native(&native, stream);
  return tool_cublas_gemm(b->cublas, b->p, set, b->c_peer, native);
}

/* Runs both once on poisoned outputs and compares them. */
static int verify(const bench_env *env, void *user, const char *who,
                  tool_check *r) {
  gemm_bench *b = user;
  const gemm_problem *p = b->p;
  size_t count = (size_t)(p->m * p->n);
  tile_rt_status st = tool_poison(env->ctx, b->c_ours, p->c_type, count);
  if (st == TILE_RT_SUCCESS)
    st = tool_poison(env->ctx, b->c_peer, p->c_type, count);
  if (st != TILE_RT_SUCCESS)
    return tool_rt_fail("poisoning the outputs", st);
  if (launch_ours(b, 0, env->stream) != 0 ||
      launch_cublas(b, 0, env->stream) != 0)
    return 1;
  if ((st = tile_rt_stream_synchronize(
           env->ctx, env->stream, env->args->timeout_s)) != TILE_RT_SUCCESS)
    return tool_rt_fail("running", st);
  if (gemm_problem_compare(r, p, b->c_ours, b->c_peer) != 0)
    return 1;
  if (!r->pass)
    printf("  MISMATCH: %s vs cuBLAS rel diff %.2e (threshold %.0e), %zu "
           "non-finite outputs of %s\n",
           who, r->rel_err, r->threshold, r->nonfinite, who);
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
  gemm_bench b = {bench_kernel_of(env, s), cublas, &p, p.c, 0};
  tile_rt_status st = tile_rt_mem_alloc(&b.c_peer, env->ctx, p.c_bytes);
  int rc = st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("allocating", st);
  bench_ours ours = {&b, &b.kernel, verify, launch_ours, p.nsets};
  tile_rt_arg args[4];
  int nargs = 0;
  tool_check r;
  tool_timing t_ours, t_peer;
  bench_default def;
  if (rc == 0)
    rc = verify(env, &b, "ours", &r);
  if (rc == 0)
    rc = tool_time_launches(&t_ours, env->ctx, env->stream, launch_ours, &b,
                            p.nsets, a->warmup, a->iters, a->timeout_s);
  if (rc == 0)
    rc = tool_time_launches(&t_peer, env->ctx, env->stream, launch_cublas, &b,
                            p.nsets, a->warmup, a->iters, a->timeout_s);
  if (rc == 0 &&
      (st = gemm_problem_args(args, &nargs, &p, 0, p.c)) != TILE_RT_SUCCESS)
    rc = tool_rt_fail("the arguments", st);
  if (rc == 0)
    rc = bench_run_default(env, &ours, args, nargs, &def);
  if (rc == 0) {
    double flops = 2.0 * (double)p.m * (double)p.n * (double)p.k;
    double tf_ours = flops / (t_ours.median_ms * 1e-3) / 1e12;
    double tf_peer = flops / (t_peer.median_ms * 1e-3) / 1e12;
    int pass = r.pass && def.state != BENCH_DEFAULT_WRONG;
    char size[64];
    snprintf(size, sizeof size, "%lldx%lldx%lld", (long long)p.m,
             (long long)p.n, (long long)p.k);
    printf("%-20s %10.4f %9.1f %11.4f %9.1f %11.2fx", size, t_ours.median_ms,
           tf_ours, t_peer.median_ms, tf_peer, tf_ours / tf_peer);
    bench_print_default(env, &def);
    printf(" %10.2e%s\n", r.rel_err, pass ? "" : " MISMATCH");
    fflush(stdout);
    bench_csv_ours(env, s, &t_ours, flops, r.rel_err, r.pass, "MISMATCH");
    bench_csv_default(env, s, &def, flops);
    bench_csv_row(env->csv, s, "cublas", "cublasGemmEx", &t_peer, flops, -1,
                  NULL);
    if (!pass)
      *mismatch = 1;
  }
  tile_rt_mem_free(env->ctx, b.c_peer);
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
  /* The CSV's variant: what is not the plain A, B, C of one type. */
  char variant[64];
  snprintf(variant, sizeof variant, "%s%s%s%s", a->trans_b ? "trans-b" : "",
           a->trans_b && types.c != types.a ? " " : "",
           types.c != types.a ? "C=" : "",
           types.c != types.a ? tile_rt_dtype_name(types.c) : "");
  bench_csv_columns(env->csv, tile_rt_dtype_name(types.a), variant, "TFLOP/s");
  printf("cuBLAS %d from %s, cublasGemmEx with %s\n",
         tool_cublas_version(cublas), tool_cublas_path(cublas),
         a->tf32 && types.a == TILE_RT_F32 ? "CUBLAS_COMPUTE_32F_FAST_TF32"
                                           : "CUBLAS_COMPUTE_32F");
  printf("kernel %s: A=%s B%s=%s C=%s; median of %d launches after %d "
         "warm-up, inputs rotated past %zu MiB\n",
         env->desc->name, tile_rt_dtype_name(types.a), a->trans_b ? "^T" : "",
         tile_rt_dtype_name(types.b), tile_rt_dtype_name(types.c), a->iters,
         a->warmup, TOOL_ROTATE_BYTES >> 20);
  printf("%-20s %10s %9s %11s %9s %12s", "size (MxNxK)", "ours ms", "TFLOP/s",
         "cuBLAS ms", "TFLOP/s", "ours/cuBLAS");
  bench_print_default_header(env);
  printf(" %10s\n", "rel diff");
  for (int i = 0; i < a->nsizes; ++i)
    if (bench_one(env, cublas, &types, &a->sizes[i], &mismatch) != 0)
      rc = 1;
  tool_cublas_close(cublas);
  if (mismatch)
    rc = tool_fail("our output differs from cuBLAS's beyond the threshold "
                   "(MISMATCH rows): the times above are not comparable");
  return rc;
}
