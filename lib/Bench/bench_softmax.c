/*===- bench_softmax.c - tile-bench --op softmax: ours against a copy -----===*
 *
 * A row softmax reads X and writes Y once: at best it moves bytes as fast as
 * a device-to-device copy of X does. For each size: ours, checked against
 * the fp64 reference first, then timed (TB/s = (bytes of X + bytes of Y) /
 * time), and cuMemcpyDtoD of the same X into a buffer of its size, timed
 * with events on the default stream (TB/s = 2 x bytes of X / time). Both
 * read from inputs rotated past the L2.
 *
 *===----------------------------------------------------------------------===*/

#include "bench.h"
#include "host_util.h"
#include "timing.h"

#include <stdio.h>

typedef struct softmax_bench {
  tool_problem_run ours; /* on the problem's own output */
  tile_rt_deviceptr copy_dst;
} softmax_bench;

static int launch_ours(void *user, int set, tile_rt_stream *stream) {
  softmax_bench *b = user;
  return tool_problem_launch(&b->ours, set, stream);
}

/* On the default stream (the timing passes NULL). */
static int launch_copy(void *user, int set, tile_rt_stream *stream) {
  (void)stream;
  const softmax_bench *b = user;
  const tool_problem *p = b->ours.p;
  tile_rt_status st = tile_rt_mem_dtod(
      p->ctx, b->copy_dst, tool_problem_input(p, 0, set), p->bytes[0]);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("copying", st);
}

static int verify(const bench_env *env, void *user, const char *who,
                  tool_check *r) {
  softmax_bench *b = user;
  if (tool_problem_run_once(&b->ours, env->stream, env->args->timeout_s) != 0 ||
      tool_problem_check(r, b->ours.p, NULL) != 0)
    return 1;
  if (!r->pass)
    printf("  FAIL: %s rel_err %.2e, worst row %lld at %.2e (threshold "
           "%.0e), %zu non-finite outputs\n",
           who, r->rel_err, (long long)r->worst_row_index, r->worst_row,
           r->threshold, r->nonfinite);
  return 0;
}

static int bench_one(const bench_env *env, const bench_size *s, int *failed) {
  const bench_args *a = env->args;
  tool_problem p;
  if (bench_problem(&p, env, "softmax", s) != 0)
    return 1;
  softmax_bench b = {{&p, bench_kernel_of(env, s), NULL}, 0};
  tile_rt_status st = tile_rt_mem_alloc(&b.copy_dst, env->ctx, p.bytes[0]);
  int rc = st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("allocating", st);
  bench_ours ours = {&b, &b.ours.kernel, verify, launch_ours, p.nsets};
  tile_rt_arg args[TOOL_MAX_ARGS];
  tool_check r;
  tool_timing t_ours, t_copy;
  bench_default def;
  if (rc == 0)
    rc = verify(env, &b, "ours", &r);
  if (rc == 0)
    rc = tool_time_launches(&t_ours, env->ctx, env->stream, launch_ours, &b,
                            p.nsets, a->warmup, a->iters, a->timeout_s);
  if (rc == 0)
    rc = tool_time_launches(&t_copy, env->ctx, NULL, launch_copy, &b, p.nsets,
                            a->warmup, a->iters, a->timeout_s);
  if (rc == 0 && (st = tool_problem_args(args, &p, 0, NULL)) != TILE_RT_SUCCESS)
    rc = tool_rt_fail("the arguments", st);
  if (rc == 0)
    rc = bench_run_default(env, &ours, args, p.desc.nargs, &def);
  if (rc == 0) {
    const char *unit;
    double bytes = tool_problem_work(&p.desc, &unit);
    double copied = 2.0 * (double)p.bytes[0];
    double tb_ours = tool_problem_rate(bytes, t_ours.median_ms);
    double tb_copy = tool_problem_rate(copied, t_copy.median_ms);
    char size[64];
    snprintf(size, sizeof size, "%lldx%lld", (long long)s->m, (long long)s->n);
    printf("%-16s %10.4f %8.3f %10.4f %8.3f %10.2f", size, t_ours.median_ms,
           tb_ours, t_copy.median_ms, tb_copy, tb_ours / tb_copy);
    int pass = bench_end_row(env, s, &t_ours, bytes, &r, &def, "FAIL");
    bench_csv_row(env->csv, s, "copy", "cuMemcpyDtoD", &t_copy, copied, -1,
                  NULL);
    if (!pass)
      *failed = 1;
  }
  tile_rt_mem_free(env->ctx, b.copy_dst);
  tool_problem_free(&p);
  return rc;
}

int bench_softmax(const bench_env *env) {
  const bench_args *a = env->args;
  tool_problem_desc types;
  int rc = 0, failed = 0;
  if (bench_describe(&types, env, "softmax", NULL, NULL) != 0)
    return 1;
  tile_rt_dtype x = types.args[0].dtype, y = types.args[1].dtype;
  bench_csv_columns(env->csv, tile_rt_dtype_name(x), "", "TB/s");
  printf("kernel %s: X=%s Y=%s; median of %d launches after %d warm-up, "
         "inputs rotated past %zu MiB; the copy is cuMemcpyDtoD of X\n",
         env->desc->name, tile_rt_dtype_name(x), tile_rt_dtype_name(y),
         a->iters, a->warmup, TOOL_ROTATE_BYTES >> 20);
  printf("%-16s %10s %8s %10s %8s %10s", "size (MxN)", "ours ms", "TB/s",
         "copy ms", "TB/s", "ours/copy");
  bench_print_default_header(env);
  printf(" %10s\n", "rel_err");
  for (int i = 0; i < a->nsizes; ++i)
    if (bench_one(env, &a->sizes[i], &failed) != 0)
      rc = 1;
  if (failed)
    rc = tool_fail("our output is wrong (FAIL rows): the times above mean "
                   "nothing");
  return rc;
}
