/*===- op_gemm.c - tile-run --op gemm: C = A * B --------------------------===*
 *
 * Runs a gemm kernel (signature in gemm_problem.h) on random inputs, checks
 * it against an fp64 host reference by relative Frobenius norm, and times it.
 * --op gemm_bias_gelu (op_gemm_bias_gelu.c) runs through here too.
 *
 *===----------------------------------------------------------------------===*/

#include "op_gemm.h"

#include "host_util.h"
#include "timing.h"

#include <stdio.h>

/* Sizes up to 2^31 - 1 per dimension: the grid and the memref sizes hold
 * them, and the host reference still fits memory well before. */
#define GEMM_MAX_DIM INT32_MAX

typedef struct gemm_launcher {
  tile_rt_kernel *kernel;
  const gemm_problem *problem;
} gemm_launcher;

static int gemm_launch(void *user, int set, tile_rt_stream *stream) {
  const gemm_launcher *l = user;
  tile_rt_status st =
      gemm_problem_launch(l->kernel, l->problem, set, l->problem->c, stream);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("launching", st);
}

/* "M=.. N=.. K=.." and, with the epilogue, " gelu=tanh". */
static void gemm_shape(char *buf, size_t n, const gemm_problem *p) {
  int at = snprintf(buf, n, "M=%lld N=%lld K=%lld", (long long)p->m,
                    (long long)p->n, (long long)p->k);
  if (p->epilogue != GEMM_EPILOGUE_NONE && at > 0 && (size_t)at < n)
    snprintf(buf + at, n - (size_t)at, " gelu=%s",
             gemm_epilogue_name(p->epilogue));
}

static int gemm_check_run(const tool_op_env *env, const char *op,
                          const gemm_problem *p, tile_rt_stream *stream) {
  gemm_launcher l = {env->kernel, p};
  if (tool_run_poisoned(env->ctx, stream, p->c, p->c_type,
                        (size_t)(p->m * p->n), gemm_launch, &l,
                        env->run->timeout_s) != 0)
    return 1;
  tool_check r;
  if (gemm_problem_check(&r, p, p->c) != 0)
    return 1;
  char shape[96], types[64];
  gemm_shape(shape, sizeof shape, p);
  printf("%s %s %s %s: rel_err=%.2e %s\n", op, env->desc->name, shape,
         gemm_problem_types(types, sizeof types, p), r.rel_err,
         r.pass ? "PASS" : "FAIL");
  tool_check_print(&r, p->m, "rows (all columns)", 0);
  return r.pass ? 0 : 1;
}

static int gemm_time(const tool_op_env *env, const char *op,
                     const gemm_problem *p, tile_rt_stream *stream) {
  gemm_launcher l = {env->kernel, p};
  tool_timing t;
  if (tool_time_launches(&t, env->ctx, stream, gemm_launch, &l, p->nsets,
                         env->run->warmup, env->run->iters,
                         env->run->timeout_s) != 0)
    return 1;
  double flops = 2.0 * (double)p->m * (double)p->n * (double)p->k;
  char shape[96];
  gemm_shape(shape, sizeof shape, p);
  printf("%s %s %s: median %.4f ms (min %.4f, max %.4f) over %d launches "
         "rotating %d input sets (%.1f MiB): %.1f TFLOP/s\n",
         op, env->desc->name, shape, t.median_ms, t.min_ms, t.max_ms, t.iters,
         p->nsets, (double)tool_input_sets_total(&p->sets) / (1 << 20),
         flops / (t.median_ms * 1e-3) / 1e12);
  return 0;
}

int tool_gemm_op_run(const tool_op_env *env, const char *op,
                     gemm_epilogue epilogue) {
  int64_t m = 0, n = 0, k = 0;
  const char *missing = NULL;
  int rc = 0;
  if ((rc = tool_options_i64(env->options, "M", 1, GEMM_MAX_DIM, &m)) != 0)
    missing = rc > 0 ? "M" : NULL;
  else if ((rc = tool_options_i64(env->options, "N", 1, GEMM_MAX_DIM, &n)) != 0)
    missing = rc > 0 ? "N" : NULL;
  else if ((rc = tool_options_i64(env->options, "K", 1, GEMM_MAX_DIM, &k)) != 0)
    missing = rc > 0 ? "K" : NULL;
  if (missing)
    return tool_fail("--op %s needs --%s", op, missing);
  if (rc != 0)
    return 1;
  gemm_types types;
  if (gemm_types_of_kernel(&types, env->desc, epilogue) != 0)
    return 1;
  gemm_problem p;
  if (gemm_problem_init(&p, env->ctx, m, n, k,
                        tool_options_has(env->options, "trans-b"), &types,
                        epilogue, env->run->seed,
                        env->run->iters > 0 ? TOOL_ROTATE_BYTES : 0) != 0)
    return 1;
  tile_rt_stream *stream = NULL;
  tile_rt_status st = tile_rt_stream_create(&stream, env->ctx);
  if (st != TILE_RT_SUCCESS)
    rc = tool_rt_fail("creating a stream", st);
  if (rc == 0 && env->run->check)
    rc = gemm_check_run(env, op, &p, stream);
  /* A wrong kernel's time means nothing: time only what passed. */
  if (rc == 0 && env->run->iters > 0)
    rc = gemm_time(env, op, &p, stream);
  tile_rt_stream_free(stream);
  gemm_problem_free(&p);
  return rc;
}

static int gemm_run(const tool_op_env *env) {
  return tool_gemm_op_run(env, "gemm", GEMM_EPILOGUE_NONE);
}

static const tool_op_flag gemm_flags[] = {
    {"M", 1, "rows of A and C"},
    {"N", 1, "columns of B and C"},
    {"K", 1, "columns of A, rows of B"},
    {"trans-b", 0, "B is [N, K] row-major (else [K, N])"},
    {NULL, 0, NULL},
};

const tool_op tool_op_gemm = {
    "gemm",
    "C[M,N] = A[M,K] * B[K,N] (kernel args A, B, C; f16/bf16/f32)",
    gemm_flags,
    gemm_run,
};
