/*===- bench_gemm.c - tile-bench --op gemm: ours against cublasGemmEx -----===*/

#include "bench.h"
#include "cublas_loader.h"
#include "host_util.h"
#include "timing.h"

#include <stdio.h>

typedef struct gemm_bench {
  tool_problem_run ours; /* on the problem's own output */
  tool_cublas *cublas;
  tile_rt_deviceptr peer[TOOL_MAX_ARGS];
} gemm_bench;

static int launch_ours(void *user, int set, tile_rt_stream *stream) {
  gemm_bench *b = user;
  return tool_problem_launch(&b->ours, set, stream);
}

static int launch_cublas(void *user, int set, tile_rt_stream *stream) {
  const gemm_bench *b = user;
  void *native;
  tile_rt_stream_native(&native, stream);
  const tool_problem *p = b->ours.p;
  return tool_cublas_gemm(b->cublas, p, set, b->peer[p->desc.nargs - 1],
                          native);
}

/* Runs both once on poisoned outputs and compares them. */
static int verify(const bench_env *env, void *user, const char *who,
                  tool_check *r) {
  gemm_bench *b = user;
  const tool_problem *p = b->ours.p;
  int c = p->desc.nargs - 1;
  tile_rt_status st =
      tool_poison(env->ctx, b->peer[c], p->desc.args[c].dtype, p->count[c]);
  if (st != TILE_RT_SUCCESS)
    return tool_rt_fail("poisoning the outputs", st);
  if (launch_cublas(b, 0, env->stream) != 0 ||
      tool_problem_run_once(&b->ours, env->stream, env->args->timeout_s) != 0)
    return 1;
  if (tool_problem_compare(r, p, p->out, b->peer) != 0)
    return 1;
  if (!r->pass)
    printf("  MISMATCH: %s vs cuBLAS rel diff %.2e (threshold %.0e), %zu "
           "non-finite outputs of %s\n",
           who, r->rel_err, r->threshold, r->nonfinite, who);
  return 0;
}

/* One table row; returns 0, or 1 when something failed. */
static int bench_one(const bench_env *env, tool_cublas *cublas,
                     const bench_size *s, int *mismatch) {
  const bench_args *a = env->args;
  tool_problem p;
  if (bench_problem(&p, env, "gemm", s) != 0)
    return 1;
  gemm_bench b = {{&p, bench_kernel_of(env, s), NULL}, cublas, {0}};
  int rc = tool_problem_alloc_outputs(&p, b.peer);
  bench_ours ours = {&b, &b.ours.kernel, verify, launch_ours, p.nsets};
  tile_rt_arg args[TOOL_MAX_ARGS];
  tool_check r;
  tool_timing t_ours, t_peer;
  bench_default def;
  tile_rt_status st;
  if (rc == 0)
    rc = verify(env, &b, "ours", &r);
  if (rc == 0)
    rc = tool_time_launches(&t_ours, env->ctx, env->stream, launch_ours, &b,
                            p.nsets, a->warmup, a->iters, a->timeout_s);
  if (rc == 0)
    rc = tool_time_launches(&t_peer, env->ctx, env->stream, launch_cublas, &b,
                            p.nsets, a->warmup, a->iters, a->timeout_s);
  if (rc == 0 && (st = tool_problem_args(args, &p, 0, NULL)) != TILE_RT_SUCCESS)
    rc = tool_rt_fail("the arguments", st);
  if (rc == 0)
    rc = bench_run_default(env, &ours, args, p.desc.nargs, &def);
  gemm_dims g = gemm_problem_dims(&p.desc);
  if (rc == 0) {
    double flops = p.desc.flops;
    double tf_ours = flops / (t_ours.median_ms * 1e-3) / 1e12;
    double tf_peer = flops / (t_peer.median_ms * 1e-3) / 1e12;
    char size[64];
    snprintf(size, sizeof size, "%lldx%lldx%lld", (long long)g.m,
             (long long)g.n, (long long)g.k);
    printf("%-20s %10.4f %9.1f %11.4f %9.1f %11.2fx", size, t_ours.median_ms,
           tf_ours, t_peer.median_ms, tf_peer, tf_ours / tf_peer);
    int pass = bench_end_row(env, s, &t_ours, flops, &r, &def, "MISMATCH");
    bench_csv_row(env->csv, s, "cublas", "cublasGemmEx", &t_peer, flops, -1,
                  NULL);
    if (!pass)
      *mismatch = 1;
  }
  tool_problem_free_outputs(&p, b.peer);
  tool_problem_free(&p);
  return rc;
}

int bench_gemm(const bench_env *env) {
  const bench_args *a = env->args;
  tool_problem_desc d;
  tool_cublas *cublas = NULL;
  int rc = 0, mismatch = 0;
  if (bench_describe(&d, env, "gemm", NULL, NULL) != 0 ||
      tool_cublas_open(&cublas, env->ctx, a->tf32) != 0)
    return 1;
  gemm_dims types = gemm_problem_dims(&d);
  /* The CSV's variant: what is not the plain A, B, C of one type. */
  char variant[64];
  snprintf(variant, sizeof variant, "%s%s%s%s", a->trans_b ? "trans-b" : "",
           a->trans_b && types.c_type != types.a_type ? " " : "",
           types.c_type != types.a_type ? "C=" : "",
           types.c_type != types.a_type ? tile_rt_dtype_name(types.c_type)
                                        : "");
  bench_csv_columns(env->csv, tile_rt_dtype_name(types.a_type), variant,
                    "TFLOP/s");
  printf("cuBLAS %d from %s, cublasGemmEx with %s\n",
         tool_cublas_version(cublas), tool_cublas_path(cublas),
         a->tf32 && types.a_type == TILE_RT_F32 ? "CUBLAS_COMPUTE_32F_FAST_TF32"
                                                : "CUBLAS_COMPUTE_32F");
  printf("kernel %s: A=%s B%s=%s C=%s; median of %d launches after %d "
         "warm-up, inputs rotated past %zu MiB\n",
         env->desc->name, tile_rt_dtype_name(types.a_type),
         a->trans_b ? "^T" : "", tile_rt_dtype_name(types.b_type),
         tile_rt_dtype_name(types.c_type), a->iters, a->warmup,
         TOOL_ROTATE_BYTES >> 20);
  printf("%-20s %10s %9s %11s %9s %12s", "size (MxNxK)", "ours ms", "TFLOP/s",
         "cuBLAS ms", "TFLOP/s", "ours/cuBLAS");
  bench_print_default_header(env);
  printf(" %10s\n", "rel diff");
  for (int i = 0; i < a->nsizes; ++i)
    if (bench_one(env, cublas, &a->sizes[i], &mismatch) != 0)
      rc = 1;
  tool_cublas_close(cublas);
  if (mismatch)
    rc = tool_fail("our output differs from cuBLAS's beyond the threshold "
                   "(MISMATCH rows): the times above are not comparable");
  return rc;
}
