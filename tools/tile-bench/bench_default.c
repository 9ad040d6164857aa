/*===- bench_default.c - tile-bench --tuned: the default beside the tuned -===*
 *
 * With --tuned, each size runs the tuned configuration as "ours" and, on
 * the same inputs in the same run, the default one (the kernel as compiled
 * from the source): checked the same way, then timed with the same loop,
 * so that what tuning bought is measured, not recalled from another run.
 *
 *===----------------------------------------------------------------------===*/

#include "bench.h"

#include "host_util.h"

#include <stdio.h>

int bench_run_default(const bench_env *env, const bench_ours *ours,
                      const tile_rt_arg *args, int nargs, bench_default *d) {
  const bench_args *a = env->args;
  d->state = BENCH_DEFAULT_NONE;
  if (!a->tuned)
    return 0;
  /* A default bounded below the size (softmax's one-pass MAXN) cannot run
   * it: that is a result, not an error. */
  if (tile_rt_kernel_desc_check_args(env->desc, args, nargs) !=
      TILE_RT_SUCCESS) {
    printf("  default: %s\n", tile_rt_last_error());
    d->state = BENCH_DEFAULT_REFUSED;
    return 0;
  }
  tile_rt_kernel *tuned = *ours->kernel;
  *ours->kernel = env->kernel;
  tool_check r;
  int rc = ours->check(env, ours->user, "default", &r);
  if (rc == 0 && !r.pass)
    d->state = BENCH_DEFAULT_WRONG;
  else if (rc == 0 &&
           (rc = tool_time_launches(&d->t, env->ctx, env->stream, ours->launch,
                                    ours->user, ours->nsets, a->warmup,
                                    a->iters, a->timeout_s)) == 0)
    d->state = BENCH_DEFAULT_TIMED;
  *ours->kernel = tuned;
  return rc;
}

void bench_print_default_header(const bench_env *env) {
  if (env->args->tuned)
    printf(" %10s %9s", "default ms", "def/tuned");
}

void bench_print_default(const bench_env *env, const bench_default *d,
                         const tool_timing *tuned) {
  if (!env->args->tuned)
    return;
  if (d->state == BENCH_DEFAULT_TIMED)
    printf(" %10.4f %8.2fx", d->t.median_ms, d->t.median_ms / tuned->median_ms);
  else
    printf(" %10s %9s", d->state == BENCH_DEFAULT_WRONG ? "wrong" : "n/a",
           "n/a");
}
