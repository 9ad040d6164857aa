/*===- bench_default.c - tile-bench --tuned: the default beside the tuned -===*
 *
 * With --tuned, each size runs the tuned configuration as "ours" and, on
 * the same inputs in the same run, the default one (the kernel as compiled
 * from the source): checked the same way, timed in its own series like
 * every column, and timed again in turns with the tuned one for the ratio,
 * so that what tuning bought is measured, not recalled from another run.
 *
 *===----------------------------------------------------------------------===*/

#include "bench.h"

#include "host_util.h"

#include <stdio.h>

/* One of the two kernels taking turns: ours' launch with it. */
typedef struct turn {
  const bench_ours *ours;
  tile_rt_kernel *kernel;
} turn;

static int launch_turn(void *user, int set, tile_rt_stream *stream) {
  turn *t = user;
  *t->ours->kernel = t->kernel;
  return t->ours->launch(t->ours->user, set, stream);
}

/* The default's time over the tuned one's, the two launch by launch in
 * turns (tool_time_in_turns): two series timed one after the other
 * differed by 5% at 8192^3, more than most tuning gains, while turns meet
 * the same clocks, temperature and power. The columns keep each kernel's
 * own series, as the CSV rows and the peers do. */
static int time_in_turns(const bench_env *env, const bench_ours *ours,
                         tile_rt_kernel *tuned, bench_default *d) {
  const bench_args *a = env->args;
  turn users[2] = {{ours, env->kernel}, {ours, tuned}};
  tool_turn turns[2] = {{launch_turn, &users[0], NULL},
                        {launch_turn, &users[1], NULL}};
  tool_timing t[2];
  if (tool_time_in_turns(t, turns, 2, env->ctx, env->stream, ours->nsets,
                         a->warmup, a->iters, a->timeout_s) != 0)
    return 1;
  d->def_over_tuned = t[0].median_ms / t[1].median_ms;
  return 0;
}

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
                                    a->iters, a->timeout_s)) == 0 &&
           (rc = time_in_turns(env, ours, tuned, d)) == 0)
    d->state = BENCH_DEFAULT_TIMED;
  *ours->kernel = tuned;
  return rc;
}

void bench_print_default_header(const bench_env *env) {
  if (env->args->tuned)
    printf(" %10s %9s", "default ms", "def/tuned");
}

void bench_print_default(const bench_env *env, const bench_default *d) {
  if (!env->args->tuned)
    return;
  if (d->state == BENCH_DEFAULT_TIMED)
    printf(" %10.4f %8.2fx", d->t.median_ms, d->def_over_tuned);
  else
    printf(" %10s %9s", d->state == BENCH_DEFAULT_WRONG ? "wrong" : "n/a",
           "n/a");
}

int bench_end_row(const bench_env *env, const bench_size *s,
                  const tool_timing *t, double work, const tool_check *r,
                  const bench_default *d, const char *fail_word) {
  int pass = r->pass && d->state != BENCH_DEFAULT_WRONG;
  bench_print_default(env, d);
  printf(" %10.2e%s%s\n", r->rel_err, pass ? "" : " ", pass ? "" : fail_word);
  fflush(stdout);
  bench_csv_ours(env, s, t, work, r->rel_err, r->pass, fail_word);
  bench_csv_default(env, s, d, work);
  return pass;
}
