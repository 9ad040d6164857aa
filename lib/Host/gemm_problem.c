/*===- gemm_problem.c - The GEMM problem and its reference ----------------===*/

#include "gemm_problem.h"

#include "host_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Above this many multiply-adds the reference samples rows. */
#define GEMM_FULL_REFERENCE_FMAS ((int64_t)1 << 30)
/* Rows the sampled reference checks (first and last included). */
#define GEMM_SAMPLED_ROWS 96
/* With the epilogue, the standard deviation A * B is scaled to. */
#define GEMM_EPILOGUE_STDDEV 2.0

/* The variant: the epilogue, and trans_b above it. */
#define GEMM_TRANS_B 0x10

const char *gemm_epilogue_name(gemm_epilogue e) {
  switch (e) {
  case GEMM_EPILOGUE_NONE:
    return "none";
  case GEMM_EPILOGUE_BIAS_GELU_TANH:
    return "tanh";
  case GEMM_EPILOGUE_BIAS_GELU_ERF:
    return "erf";
  }
  return "?";
}

gemm_dims gemm_problem_dims(const tool_problem_desc *d) {
  gemm_dims g;
  g.epilogue = (gemm_epilogue)(d->variant & 0xf);
  g.trans_b = (d->variant & GEMM_TRANS_B) != 0;
  g.c = d->nargs - 1;
  g.m = d->args[GEMM_ARG_A].shape[0];
  g.k = d->args[GEMM_ARG_A].shape[1];
  g.n = d->args[g.c].shape[1];
  g.a_type = d->args[GEMM_ARG_A].dtype;
  g.b_type = d->args[GEMM_ARG_B].dtype;
  g.bias_type = g.epilogue != GEMM_EPILOGUE_NONE ? d->args[GEMM_ARG_BIAS].dtype
                                                 : TILE_RT_F32;
  g.c_type = d->args[g.c].dtype;
  return g;
}

static int gemm_reference(tool_check *r, const tool_problem *p,
                          const void *out);

int gemm_problem_describe(tool_problem_desc *d, int64_t m, int64_t n, int64_t k,
                          int trans_b, gemm_epilogue epilogue) {
  int fused = epilogue != GEMM_EPILOGUE_NONE;
  tool_problem_desc_init(d, fused ? "gemm_bias_gelu" : "gemm");
  /* Each product of uniform [-a, a] values has variance a^4 / 9. */
  double amp = 1.0;
  if (fused && k > 0) {
    double a2 = 3.0 * GEMM_EPILOGUE_STDDEV / sqrt((double)k);
    amp = a2 < 1.0 ? sqrt(a2) : 1.0;
  }
  int64_t a[2] = {m, k}, b[2] = {k, n}, bt[2] = {n, k}, c[2] = {m, n};
  if (!tool_problem_add_tensor(d, "A", TOOL_ROLE_INPUT, 2, a, -amp, amp) ||
      !tool_problem_add_tensor(d, trans_b ? "B^T" : "B", TOOL_ROLE_INPUT, 2,
                               trans_b ? bt : b, -amp, amp) ||
      (fused && !tool_problem_add_tensor(d, "bias", TOOL_ROLE_INPUT, 1, &n,
                                         -1.0, 1.0)) ||
      !tool_problem_add_tensor(d, "C", TOOL_ROLE_OUTPUT, 2, c, 0, 0))
    return 1;
  d->same_type[GEMM_ARG_B] = GEMM_ARG_A;
  d->floats_only = 1;
  d->reference = gemm_reference;
  d->variant = (int)epilogue | (trans_b ? GEMM_TRANS_B : 0);
  /* fp32 accumulation of fp16 products lands ~1e-3; the approximated tanh
   * or erf of the epilogue adds to it. */
  d->rtol = fused ? 1e-2 : 5e-3;
  d->rtol_bf16 = fused ? 2e-2 : 1e-2;
  d->flops = 2.0 * (double)m * (double)n * (double)k;
  int at = snprintf(d->label, sizeof d->label, "M=%lld N=%lld K=%lld",
                    (long long)m, (long long)n, (long long)k);
  if (fused && at > 0)
    snprintf(d->label + at, sizeof d->label - (size_t)at, " gelu=%s",
             gemm_epilogue_name(epilogue));
  snprintf(d->key, sizeof d->key, "%lldx%lldx%lld%s%s", (long long)m,
           (long long)n, (long long)k,
           epilogue == GEMM_EPILOGUE_BIAS_GELU_ERF ? " erf" : "",
           trans_b ? " trans-b" : "");
  if (fused) {
    d->flag_param = "ERF";
    d->flag_bindings[0] = "ERF=false";
    d->flag_bindings[1] = "ERF=true";
    d->flag_value = epilogue == GEMM_EPILOGUE_BIAS_GELU_ERF;
    d->flag_wants[0] = "the tanh GELU (no --gelu erf)";
    d->flag_wants[1] = "the erf GELU (--gelu erf)";
  }
  return 0;
}

/*===--- The fp64 reference -----------------------------------------------===*/

typedef struct gemm_ref {
  const tool_problem *p;
  gemm_dims g;
  const void *out; /* the whole M x N output */
  const int64_t *rows;
} gemm_ref;

static double gemm_gelu(gemm_epilogue e, double x) {
  if (e == GEMM_EPILOGUE_BIAS_GELU_ERF)
    return 0.5 * x * (1.0 + erf(x / sqrt(2.0)));
  const double c = sqrt(2.0 / acos(-1.0));
  return 0.5 * x * (1.0 + tanh(c * (x + 0.044715 * x * x * x)));
}

/* Row rows[item] of the reference, compared with the output. */
static void gemm_ref_row(void *user, int64_t item, void *scratch,
                         tool_error *err) {
  const gemm_ref *job = user;
  const tool_problem *p = job->p;
  double *ref = scratch;
  int64_t n = job->g.n, k = job->g.k, i = job->rows[item];
  const float *a = p->host[GEMM_ARG_A] + i * k;
  const float *host_b = p->host[GEMM_ARG_B];
  if (job->g.trans_b) { /* B is [N, K]: dot products of rows */
    for (int64_t j = 0; j < n; ++j) {
      const float *b = host_b + j * k;
      double s = 0;
      for (int64_t q = 0; q < k; ++q)
        s += (double)a[q] * (double)b[q];
      ref[j] = s;
    }
  } else { /* B is [K, N]: accumulate scaled rows of B */
    memset(ref, 0, (size_t)n * sizeof *ref);
    for (int64_t q = 0; q < k; ++q) {
      double aq = a[q];
      const float *b = host_b + q * n;
      for (int64_t j = 0; j < n; ++j)
        ref[j] += aq * (double)b[j];
    }
  }
  if (job->g.epilogue != GEMM_EPILOGUE_NONE)
    for (int64_t j = 0; j < n; ++j)
      ref[j] = gemm_gelu(job->g.epilogue,
                         ref[j] + (double)p->host[GEMM_ARG_BIAS][j]);
  tool_error_add_row(err, i, ref, job->out, p->desc.args[job->g.c].dtype,
                     (size_t)(i * n), n);
}

static int gemm_reference(tool_check *r, const tool_problem *p,
                          const void *out) {
  gemm_ref job = {p, gemm_problem_dims(&p->desc), out, NULL};
  int64_t m = job.g.m, n = job.g.n;
  int64_t want =
      m * n * job.g.k > GEMM_FULL_REFERENCE_FMAS ? GEMM_SAMPLED_ROWS : m;
  int64_t nrows;
  int64_t *rows = tool_spread(m, want, &nrows);
  job.rows = rows;
  tool_error e;
  int rc = !rows || tool_for_rows(&e, nrows, (size_t)n * sizeof(double),
                                  gemm_ref_row, &job) != 0;
  if (rc == 0)
    tool_check_from(
        r, &e,
        tool_count_nonfinite(out, p->desc.args[job.g.c].dtype, (size_t)(m * n)),
        tool_problem_threshold(&p->desc), 0);
  free(rows);
  return rc;
}
