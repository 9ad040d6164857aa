/*===- op_softmax.c - tile-run --op softmax: Y = softmax(X) by rows -------===*
 *
 * Runs a row softmax kernel (signature in softmax_problem.h) on random
 * inputs, some rows shifted far from zero, checks it against an fp64 host
 * reference by relative Frobenius norm (each row and the whole), and times
 * it as bytes moved: read X and write Y once.
 *
 *===----------------------------------------------------------------------===*/

#include "host_util.h"
#include "ops.h"
#include "softmax_problem.h"
#include "timing.h"

#include <stdio.h>

#define SOFTMAX_MAX_DIM INT32_MAX

typedef struct softmax_launcher {
  tile_rt_kernel *kernel;
  const softmax_problem *problem;
} softmax_launcher;

static int softmax_launch(void *user, int set, tile_rt_stream *stream) {
  const softmax_launcher *l = user;
  tile_rt_status st =
      softmax_problem_launch(l->kernel, l->problem, set, l->problem->y, stream);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("launching", st);
}

static int softmax_check_run(const tool_op_env *env, const softmax_problem *p,
                             tile_rt_stream *stream) {
  softmax_launcher l = {env->kernel, p};
  if (tool_run_poisoned(env->ctx, stream, p->y, p->y_type,
                        (size_t)(p->m * p->n), softmax_launch, &l,
                        env->run->timeout_s) != 0)
    return 1;
  tool_check r;
  if (softmax_problem_check(&r, p, p->y) != 0)
    return 1;
  char types[64];
  printf("softmax %s M=%lld N=%lld %s: rel_err=%.2e %s\n", env->desc->name,
         (long long)p->m, (long long)p->n,
         softmax_problem_types(types, sizeof types, p), r.rel_err,
         r.pass ? "PASS" : "FAIL");
  tool_check_print(&r, p->m, "rows (all columns)", 1);
  return r.pass ? 0 : 1;
}

static int softmax_time(const tool_op_env *env, const softmax_problem *p,
                        tile_rt_stream *stream) {
  softmax_launcher l = {env->kernel, p};
  tool_timing t;
  if (tool_time_launches(&t, env->ctx, stream, softmax_launch, &l, p->nsets,
                         env->run->warmup, env->run->iters,
                         env->run->timeout_s) != 0)
    return 1;
  double bytes = (double)p->x_bytes + (double)p->y_bytes;
  printf("softmax %s M=%lld N=%lld: median %.4f ms (min %.4f, max %.4f) over "
         "%d launches rotating %d input sets (%.1f MiB): %.3f TB/s\n",
         env->desc->name, (long long)p->m, (long long)p->n, t.median_ms,
         t.min_ms, t.max_ms, t.iters, p->nsets,
         (double)tool_input_sets_total(&p->sets) / (1 << 20),
         bytes / (t.median_ms * 1e-3) / 1e12);
  return 0;
}

static int softmax_run(const tool_op_env *env) {
  int64_t m = 0, n = 0;
  int rc;
  if ((rc = tool_options_i64(env->options, "M", 1, SOFTMAX_MAX_DIM, &m)) > 0)
    return tool_fail("--op softmax needs --M");
  if (rc == 0 &&
      (rc = tool_options_i64(env->options, "N", 1, SOFTMAX_MAX_DIM, &n)) > 0)
    return tool_fail("--op softmax needs --N");
  if (rc != 0)
    return 1;
  tile_rt_dtype types[2];
  if (softmax_types_of_kernel(types, env->desc) != 0)
    return 1;
  softmax_problem p;
  if (softmax_problem_init(&p, env->ctx, m, n, types, env->run->seed,
                           env->run->iters > 0 ? TOOL_ROTATE_BYTES : 0) != 0)
    return 1;
  tile_rt_stream *stream = NULL;
  tile_rt_status st = tile_rt_stream_create(&stream, env->ctx);
  if (st != TILE_RT_SUCCESS)
    rc = tool_rt_fail("creating a stream", st);
  if (rc == 0 && env->run->check)
    rc = softmax_check_run(env, &p, stream);
  if (rc == 0 && env->run->iters > 0)
    rc = softmax_time(env, &p, stream);
  tile_rt_stream_free(stream);
  softmax_problem_free(&p);
  return rc;
}

static const tool_op_flag softmax_flags[] = {
    {"M", 1, "rows of X and Y"},
    {"N", 1, "columns: the softmax runs over each row"},
    {NULL, 0, NULL},
};

const tool_op tool_op_softmax = {
    "softmax",
    "Y[M,N] = softmax of each row of X[M,N] (kernel args X, Y; fp32 math)",
    softmax_flags,
    softmax_run,
};
