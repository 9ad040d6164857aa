/*===- run_problem.c - tile-run's check and timing of one kernel ----------===*/

#include "run_problem.h"

#include "host_util.h"
#include "timing.h"

#include <stdio.h>

static int check(const tool_run_options *run, const tool_problem *p,
                 tile_rt_kernel *kernel, const char *name,
                 tile_rt_kernel *reference, tile_rt_stream *stream) {
  const tool_problem_desc *d = &p->desc;
  tile_rt_deviceptr ref[TOOL_MAX_ARGS] = {0};
  tool_problem_run ours = {p, kernel, NULL}, theirs = {p, reference, ref};
  int use_ref = reference && !d->reference;
  int rc = tool_problem_run_once(&ours, stream, run->timeout_s);
  if (rc == 0 && use_ref)
    rc = tool_problem_alloc_outputs(p, ref) ||
         tool_problem_run_once(&theirs, stream, run->timeout_s);
  tool_check r;
  if (rc == 0)
    rc = tool_problem_verify(&r, p, NULL, use_ref ? ref : NULL);
  tool_problem_free_outputs(p, ref);
  if (rc != 0)
    return 1;
  char types[256];
  tool_problem_types(types, sizeof types, d);
  if (d->reference || use_ref)
    printf("%s %s %s %s: rel_err=%.2e %s\n", d->op, name, d->label, types,
           r.rel_err, r.pass ? "PASS" : "FAIL");
  else
    printf("%s %s %s %s: no reference, every output written and finite: "
           "%s\n",
           d->op, name, d->label, types, r.pass ? "PASS" : "FAIL");
  tool_check_print(&r, tool_problem_rows(d), d->rows_text, d->per_row);
  return r.pass ? 0 : 1;
}

static int time_it(const tool_run_options *run, const tool_problem *p,
                   tile_rt_kernel *kernel, const char *name,
                   tile_rt_stream *stream) {
  tool_problem_run ours = {p, kernel, NULL};
  tool_timing t;
  if (tool_time_launches(&t, p->ctx, stream, tool_problem_launch, &ours,
                         p->nsets, run->warmup, run->iters,
                         run->timeout_s) != 0)
    return 1;
  const char *unit;
  double rate =
      tool_problem_rate(tool_problem_work(&p->desc, &unit), t.median_ms);
  printf("%s %s %s: median %.4f ms (min %.4f, max %.4f) over %d launches "
         "rotating %d input sets (%.1f MiB): %.*f %s\n",
         p->desc.op, name, p->desc.label, t.median_ms, t.min_ms, t.max_ms,
         t.iters, p->nsets, (double)tool_input_sets_total(&p->sets) / (1 << 20),
         unit[1] == 'F' ? 1 : 3, rate, unit);
  return 0;
}

int tool_run_problem(const tool_run_options *run, tile_rt_context *ctx,
                     tile_rt_kernel *kernel, const char *name,
                     tile_rt_kernel *reference, const tool_problem_desc *d) {
  tool_problem p;
  if (tool_problem_init(&p, ctx, d, run->seed,
                        run->iters > 0 ? TOOL_ROTATE_BYTES : 0) != 0)
    return 1;
  tile_rt_stream *stream = NULL;
  int rc = 0;
  tile_rt_status st = tile_rt_stream_create(&stream, ctx);
  if (st != TILE_RT_SUCCESS)
    rc = tool_rt_fail("creating a stream", st);
  if (rc == 0 && run->check)
    rc = check(run, &p, kernel, name, reference, stream);
  /* A wrong kernel's time means nothing: time only what passed. */
  if (rc == 0 && run->iters > 0)
    rc = time_it(run, &p, kernel, name, stream);
  tile_rt_stream_free(stream);
  tool_problem_free(&p);
  return rc;
}
