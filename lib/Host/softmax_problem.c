/*===- softmax_problem.c - Row softmax problem and reference --------------===*/

#include "softmax_problem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Above this many elements the reference samples rows. */
#define SOFTMAX_FULL_REFERENCE ((int64_t)1 << 27)
#define SOFTMAX_SAMPLED_ROWS 512
/* The inputs: uniform in [-SPREAD, SPREAD], some rows shifted by SHIFT. */
#define SOFTMAX_SPREAD 4.0
#define SOFTMAX_SHIFT 120.0

static int softmax_reference(tool_check *r, const tool_problem *p,
                             const void *out);

int softmax_problem_describe(tool_problem_desc *d, int64_t m, int64_t n) {
  tool_problem_desc_init(d, "softmax");
  int64_t shape[2] = {m, n};
  tool_arg_desc *x = tool_problem_add_tensor(d, "X", TOOL_ROLE_INPUT, 2, shape,
                                             -SOFTMAX_SPREAD, SOFTMAX_SPREAD);
  if (!x || !tool_problem_add_tensor(d, "Y", TOOL_ROLE_OUTPUT, 2, shape, 0, 0))
    return 1;
  const double shifts[4] = {0.0, SOFTMAX_SHIFT, 0.0, -SOFTMAX_SHIFT};
  x->nshifts = 4;
  memcpy(x->shift, shifts, sizeof shifts);
  d->floats_only = 1;
  d->per_row = 1;
  d->reference = softmax_reference;
  /* bytes: X read and Y written once (every tensor's bytes). */
  snprintf(d->label, sizeof d->label, "M=%lld N=%lld", (long long)m,
           (long long)n);
  snprintf(d->key, sizeof d->key, "%lldx%lld", (long long)m, (long long)n);
  return 0;
}

typedef struct softmax_ref {
  const tool_problem *p;
  const void *out;
  const int64_t *rows;
} softmax_ref;

static void softmax_ref_row(void *user, int64_t item, void *scratch,
                            tool_error *err) {
  const softmax_ref *job = user;
  const tool_problem *p = job->p;
  double *ref = scratch;
  int64_t n = p->desc.args[0].shape[1], i = job->rows[item];
  const float *x = p->host[0] + i * n;
  double max = x[0], sum = 0;
  for (int64_t j = 1; j < n; ++j)
    if (x[j] > max)
      max = x[j];
  for (int64_t j = 0; j < n; ++j)
    sum += ref[j] = exp((double)x[j] - max);
  for (int64_t j = 0; j < n; ++j)
    ref[j] /= sum;
  tool_error_add_row(err, i, ref, job->out, p->desc.args[1].dtype,
                     (size_t)(i * n), n);
}

static int softmax_reference(tool_check *r, const tool_problem *p,
                             const void *out) {
  int64_t m = p->desc.args[0].shape[0], n = p->desc.args[0].shape[1];
  int64_t want = m * n > SOFTMAX_FULL_REFERENCE ? SOFTMAX_SAMPLED_ROWS : m;
  int64_t nrows;
  int64_t *rows = tool_spread(m, want, &nrows);
  tool_error e;
  softmax_ref job = {p, out, rows};
  int rc = !rows || tool_for_rows(&e, nrows, (size_t)n * sizeof(double),
                                  softmax_ref_row, &job) != 0;
  if (rc == 0)
    tool_check_from(
        r, &e,
        tool_count_nonfinite(out, p->desc.args[1].dtype, (size_t)(m * n)),
        tool_problem_threshold(&p->desc), 1);
  free(rows);
  return rc;
}
