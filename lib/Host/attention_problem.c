/*===- attention_problem.c - Attention problem and reference --------------===*/

#include "attention_problem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ATTN_QK_AMPLITUDE 2.0
#define ATTN_V_AMPLITUDE 1.0
/* Above this many multiply-adds of Q K^T the reference samples: this many
 * (b, h) pairs and query rows of each (first and last included). */
#define ATTN_FULL_REFERENCE_FMAS ((double)((int64_t)1 << 30))
#define ATTN_SAMPLED_PAIRS 8
#define ATTN_SAMPLED_ROWS 64

enum { ATTN_Q = 0, ATTN_K = 1, ATTN_V = 2, ATTN_O = 3, ATTN_SCALE = 4 };

float attention_default_scale(int64_t d) {
  return (float)(1.0 / sqrt((double)d));
}

static int attention_reference(tool_check *r, const tool_problem *p,
                               const void *out);

int attention_problem_describe(tool_problem_desc *d, const int64_t shape[4],
                               int causal, float scale) {
  tool_problem_desc_init(d, "attention");
  static const char *const names[4] = {"Q", "K", "V", "O"};
  for (int i = 0; i < 4; ++i) {
    double amp = i == ATTN_V ? ATTN_V_AMPLITUDE : ATTN_QK_AMPLITUDE;
    if (!tool_problem_add_tensor(
            d, names[i], i == ATTN_O ? TOOL_ROLE_OUTPUT : TOOL_ROLE_INPUT, 4,
            shape, -amp, amp))
      return 1;
  }
  if (!tool_problem_add_scalar(d, "scale", (double)scale))
    return 1;
  d->same_type[ATTN_K] = ATTN_Q;
  d->same_type[ATTN_V] = ATTN_Q;
  d->floats_only = 1;
  d->per_row = 1;
  d->reference = attention_reference;
  d->variant = causal != 0;
  snprintf(d->rows_text, sizeof d->rows_text,
           "query rows (all D columns; row (b*H+h)*S+i)");
  d->flops = 4.0 * (double)shape[0] * (double)shape[1] * (double)shape[2] *
             (double)shape[2] * (double)shape[3] * (causal ? 0.5 : 1.0);
  snprintf(d->label, sizeof d->label,
           "B=%lld H=%lld S=%lld D=%lld%s scale=%.6g", (long long)shape[0],
           (long long)shape[1], (long long)shape[2], (long long)shape[3],
           causal ? " causal" : "", (double)scale);
  snprintf(d->key, sizeof d->key, "%lldx%lldx%lldx%lld%s", (long long)shape[0],
           (long long)shape[1], (long long)shape[2], (long long)shape[3],
           causal ? " causal" : "");
  d->flag_param = "CAUSAL";
  d->flag_bindings[0] = "CAUSAL=false";
  d->flag_bindings[1] = "CAUSAL=true";
  d->flag_value = causal != 0;
  d->flag_wants[0] = "non-causal attention (no --causal)";
  d->flag_wants[1] = "causal attention (--causal)";
  return 0;
}

typedef struct attention_ref {
  const tool_problem *p;
  const void *out;
  const int64_t *pairs, *rows;
  int64_t nrows; /* per pair */
} attention_ref;

/* Query row rows[item % nrows] of pair pairs[item / nrows]. */
static void attention_ref_row(void *user, int64_t item, void *scratch,
                              tool_error *err) {
  const attention_ref *job = user;
  const tool_problem *p = job->p;
  const int64_t *shape = p->desc.args[ATTN_Q].shape;
  int64_t s = shape[2], d = shape[3];
  int64_t pair = job->pairs[item / job->nrows];
  int64_t i = job->rows[item % job->nrows];
  size_t base = (size_t)(pair * s * d);
  const float *q = p->host[ATTN_Q] + base + (size_t)(i * d);
  const float *k = p->host[ATTN_K] + base;
  const float *v = p->host[ATTN_V] + base;
  double *score = scratch, *o = score + s;
  double scale = (double)(float)p->desc.args[ATTN_SCALE].value;
  int64_t keys = p->desc.variant ? i + 1 : s;
  double max = -INFINITY, sum = 0;
  for (int64_t j = 0; j < keys; ++j) {
    double dot = 0;
    for (int64_t c = 0; c < d; ++c)
      dot += (double)q[c] * (double)k[j * d + c];
    score[j] = dot * scale;
    if (score[j] > max)
      max = score[j];
  }
  memset(o, 0, (size_t)d * sizeof *o);
  for (int64_t j = 0; j < keys; ++j) {
    double w = exp(score[j] - max);
    sum += w;
    for (int64_t c = 0; c < d; ++c)
      o[c] += w * (double)v[j * d + c];
  }
  for (int64_t c = 0; c < d; ++c)
    o[c] /= sum;
  tool_error_add_row(err, pair * s + i, o, job->out, p->desc.args[ATTN_O].dtype,
                     base + (size_t)(i * d), d);
}

static int attention_reference(tool_check *r, const tool_problem *p,
                               const void *out) {
  const int64_t *shape = p->desc.args[ATTN_Q].shape;
  int64_t s = shape[2], d = shape[3];
  int64_t npairs_all = shape[0] * shape[1], npairs, nrows;
  int full = (double)npairs_all * (double)s * (double)s * (double)d <=
             ATTN_FULL_REFERENCE_FMAS;
  int64_t *pairs =
      tool_spread(npairs_all, full ? npairs_all : ATTN_SAMPLED_PAIRS, &npairs);
  int64_t *rows = tool_spread(s, full ? s : ATTN_SAMPLED_ROWS, &nrows);
  tool_error e;
  attention_ref job = {p, out, pairs, rows, nrows};
  int rc = !pairs || !rows ||
           tool_for_rows(&e, npairs * nrows, (size_t)(s + d) * sizeof(double),
                         attention_ref_row, &job) != 0;
  if (rc == 0)
    tool_check_from(
        r, &e,
        tool_count_nonfinite(out, p->desc.args[ATTN_O].dtype, p->count[ATTN_O]),
        tool_problem_threshold(&p->desc), 1);
  free(pairs);
  free(rows);
  return rc;
}
