/*===- tune_problem.c - The problem the candidates run on ------------------===*
 *
 * One problem per tuning, shared by every candidate (problem.h): a built-in
 * operator's, from the request's sizes, or one given as JSON. Each
 * candidate's outputs are checked against the problem's fp64 host
 * reference where it has one; otherwise against the outputs of the
 * reference kernel the problem names, or of the kernel's default
 * configuration, computed once before the candidates run.
 *
 *===----------------------------------------------------------------------===*/

#include "tune_internal.h"

#include "builtin_problems.h"
#include "problem_json.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

int tune_request_problem(const tune_request *r, tool_problem_desc *d) {
  if (r->problem_json)
    return tool_problem_from_json(d, r->problem_json, strlen(r->problem_json),
                                  "the problem");
  if (r->problem_path)
    return tool_problem_from_json_file(d, r->problem_path);
  tool_problem_sizes sizes;
  memset(&sizes, 0, sizeof sizes);
  sizes.m = r->m, sizes.n = r->n, sizes.k = r->k;
  sizes.b = r->b, sizes.h = r->h, sizes.s = r->s, sizes.d = r->d;
  sizes.gelu_erf = r->gelu_erf;
  sizes.causal = r->causal;
  return tool_builtin_problem(d, r->op, &sizes);
}

struct tune_problem {
  tool_problem p;
  /* Without a host reference: the reference outputs. */
  tile_rt_deviceptr ref[TOOL_MAX_ARGS];
  int have_ref;
};

int tune_problem_init(tune_problem **out, const tool_problem_desc *d,
                      uint64_t seed, tile_rt_context *ctx,
                      const tile_rt_kernel_desc *desc) {
  tune_problem *p = calloc(1, sizeof *p);
  if (!p)
    return tool_fail("out of host memory");
  tool_problem_desc bound = *d;
  if (tool_problem_bind(&bound, desc) != 0 ||
      tool_problem_init(&p->p, ctx, &bound, seed, TOOL_ROTATE_BYTES) != 0) {
    free(p);
    return 1;
  }
  *out = p;
  return 0;
}

void tune_problem_free(tune_problem *p) {
  if (!p)
    return;
  if (p->have_ref)
    tool_problem_free_outputs(&p->p, p->ref);
  tool_problem_free(&p->p);
  free(p);
}

int tune_problem_needs_reference(const tune_problem *p) {
  return p->p.desc.reference == NULL;
}

int tune_problem_set_reference(tune_problem *p, tile_rt_kernel *kernel,
                               tile_rt_stream *stream, double timeout_s) {
  if (!p->have_ref && tool_problem_alloc_outputs(&p->p, p->ref) != 0)
    return 1;
  p->have_ref = 1;
  tool_problem_run run = {&p->p, kernel, p->ref};
  return tool_problem_run_once(&run, stream, timeout_s);
}

int tune_problem_check(tune_problem *p, tile_rt_kernel *kernel,
                       tile_rt_stream *stream, double timeout_s,
                       tool_check *check) {
  tool_problem_run run = {&p->p, kernel, NULL};
  if (tool_problem_run_once(&run, stream, timeout_s) != 0)
    return 1;
  if (p->p.desc.reference)
    return tool_problem_check(check, &p->p, NULL);
  if (!p->have_ref)
    return tool_fail("the %s problem has no reference outputs", p->p.desc.op);
  return tool_problem_compare(check, &p->p, p->p.out, p->ref);
}

int tune_problem_time(tune_problem *p, tile_rt_kernel *kernel,
                      tile_rt_stream *stream, int warmup, int iters,
                      double timeout_s, double *median_ms) {
  tool_problem_run run = {&p->p, kernel, NULL};
  tool_timing t;
  if (tool_time_launches(&t, p->p.ctx, stream, tool_problem_launch, &run,
                         p->p.nsets, warmup, iters, timeout_s) != 0)
    return 1;
  *median_ms = t.median_ms;
  return 0;
}

int tune_problem_time_in_turns(tune_problem *p, tile_rt_kernel *const *kernels,
                               int n, tile_rt_stream *stream, int warmup,
                               int rounds, double timeout_s,
                               double *median_ms) {
  tool_problem_run *runs = calloc((size_t)n, sizeof *runs);
  tool_turn *turns = calloc((size_t)n, sizeof *turns);
  tool_timing *t = calloc((size_t)n, sizeof *t);
  int rc = !runs || !turns || !t ? tool_fail("out of host memory") : 0;
  for (int i = 0; rc == 0 && i < n; ++i) {
    runs[i] = (tool_problem_run){&p->p, kernels[i], NULL};
    turns[i] = (tool_turn){tool_problem_launch, &runs[i], NULL};
  }
  if (rc == 0)
    rc = tool_time_in_turns(t, turns, n, p->p.ctx, stream, p->p.nsets, warmup,
                            rounds, timeout_s);
  for (int i = 0; rc == 0 && i < n; ++i)
    median_ms[i] = t[i].median_ms;
  free(runs);
  free(turns);
  free(t);
  return rc;
}

double tune_problem_work(const tune_problem *p, const char **unit) {
  return tool_problem_work(&p->p.desc, unit);
}
