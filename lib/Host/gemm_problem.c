/*===- gemm_problem.c - GEMM inputs, reference and checks -----------------===*/

#define _POSIX_C_SOURCE 200809L

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

/* Input set layout: A, B, then the bias with an epilogue. */
enum { GEMM_A = 0, GEMM_B = 1, GEMM_BIAS = 2 };

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

int gemm_types_of_kernel(gemm_types *types, const tile_rt_kernel_desc *desc,
                         gemm_epilogue epilogue) {
  int fused = epilogue != GEMM_EPILOGUE_NONE;
  static const char *const plain_role[3] = {"A", "B", "C"};
  static const char *const fused_role[4] = {"A", "B", "bias", "C"};
  const char *const *role = fused ? fused_role : plain_role;
  int nargs = fused ? 4 : 3;
  if (desc->nargs != nargs)
    return tool_fail("kernel '%s' takes %d arguments; a gemm%s kernel takes "
                     "%d (%s)",
                     desc->name, desc->nargs, fused ? "_bias_gelu" : "", nargs,
                     fused ? "A, B, bias, C" : "A, B, C");
  tile_rt_dtype t[4] = {TILE_RT_F16, TILE_RT_F16, TILE_RT_F16, TILE_RT_F16};
  for (int i = 0; i < desc->nparams; ++i) {
    const tile_rt_param_desc *d = &desc->params[i];
    if (d->kind == TILE_RT_PARAM_TENSORMAP)
      continue;
    int rank = fused && d->arg == GEMM_BIAS ? 1 : 2;
    if (d->kind != TILE_RT_PARAM_MEMREF || d->rank != rank)
      return tool_fail("kernel '%s' argument %d (%s) is not a rank-%d memref",
                       desc->name, d->arg, role[d->arg], rank);
    if (d->dtype != TILE_RT_F16 && d->dtype != TILE_RT_BF16 &&
        d->dtype != TILE_RT_F32)
      return tool_fail("kernel '%s' argument %d (%s) is %s; gemm handles "
                       "f16, bf16 and f32",
                       desc->name, d->arg, role[d->arg],
                       tile_rt_dtype_name(d->dtype));
    t[d->arg] = d->dtype;
  }
  types->a = t[0];
  types->b = t[1];
  types->bias = fused ? t[2] : TILE_RT_F32;
  types->c = t[nargs - 1];
  if (types->a != types->b)
    return tool_fail("kernel '%s' has A of %s but B of %s; gemm wants one "
                     "input type",
                     desc->name, tile_rt_dtype_name(types->a),
                     tile_rt_dtype_name(types->b));
  return 0;
}

void gemm_problem_free(gemm_problem *p) {
  if (p->ctx)
    tile_rt_mem_free(p->ctx, p->c);
  tool_input_sets_free(&p->sets);
  free(p->host_a);
  free(p->host_b);
  free(p->host_bias);
  memset(p, 0, sizeof *p);
}

/* One input set on the host, uploaded to every set. */
static int gemm_upload(gemm_problem *p, uint64_t seed) {
  int count = p->sets.count;
  void *host[3] = {NULL, NULL, NULL};
  float *rounded[3] = {p->host_a, p->host_b, p->host_bias};
  tile_rt_dtype type[3] = {p->a_type, p->b_type, p->bias_type};
  double amp[3] = {p->amplitude, p->amplitude, 1.0};
  int rc = 0;
  for (int i = 0; i < count && rc == 0; ++i) {
    size_t elems = p->sets.bytes[i] / tile_rt_dtype_size(type[i]);
    tool_rng rng;
    if (!(host[i] = malloc(p->sets.bytes[i]))) {
      rc = tool_fail("out of host memory for the gemm inputs");
      break;
    }
    tool_rng_seed(&rng, seed, (uint64_t)i);
    tool_fill_uniform(host[i], rounded[i], type[i], elems, &rng, -amp[i],
                      amp[i]);
  }
  if (rc == 0)
    rc = tool_input_sets_upload(&p->sets, (const void *const *)host);
  for (int i = 0; i < count; ++i)
    free(host[i]);
  return rc;
}

int gemm_problem_init(gemm_problem *p, tile_rt_context *ctx, int64_t m,
                      int64_t n, int64_t k, int trans_b,
                      const gemm_types *types, gemm_epilogue epilogue,
                      uint64_t seed, size_t rotate_bytes) {
  memset(p, 0, sizeof *p);
  if (m <= 0 || n <= 0 || k <= 0)
    return tool_fail("gemm sizes must be positive (M=%lld N=%lld K=%lld)",
                     (long long)m, (long long)n, (long long)k);
  int fused = epilogue != GEMM_EPILOGUE_NONE;
  p->ctx = ctx;
  p->m = m, p->n = n, p->k = k;
  p->trans_b = trans_b;
  p->epilogue = epilogue;
  p->a_type = types->a, p->b_type = types->b, p->c_type = types->c;
  p->bias_type = types->bias;
  p->c_bytes = (size_t)(m * n) * tile_rt_dtype_size(p->c_type);
  /* Each product of uniform [-a, a] values has variance a^4 / 9. */
  p->amplitude = 1.0;
  if (fused) {
    double a2 = 3.0 * GEMM_EPILOGUE_STDDEV / sqrt((double)k);
    p->amplitude = a2 < 1.0 ? sqrt(a2) : 1.0;
  }
  size_t bytes[3] = {(size_t)(m * k) * tile_rt_dtype_size(p->a_type),
                     (size_t)(k * n) * tile_rt_dtype_size(p->b_type),
                     (size_t)n * tile_rt_dtype_size(p->bias_type)};
  p->host_a = malloc((size_t)(m * k) * sizeof(float));
  p->host_b = malloc((size_t)(k * n) * sizeof(float));
  p->host_bias = fused ? malloc((size_t)n * sizeof(float)) : NULL;
  if (!p->host_a || !p->host_b || (fused && !p->host_bias)) {
    gemm_problem_free(p);
    return tool_fail("out of host memory for the gemm inputs");
  }
  if (tool_input_sets_init(&p->sets, ctx, bytes, fused ? 3 : 2, rotate_bytes) !=
      0) {
    gemm_problem_free(p);
    return 1;
  }
  p->nsets = p->sets.nsets;
  tile_rt_status st = tile_rt_mem_alloc(&p->c, ctx, p->c_bytes);
  if (st != TILE_RT_SUCCESS) {
    p->c = 0;
    gemm_problem_free(p);
    return tool_rt_fail("allocating the gemm output", st);
  }
  if (gemm_upload(p, seed) != 0) {
    gemm_problem_free(p);
    return 1;
  }
  return 0;
}

tile_rt_deviceptr gemm_problem_a(const gemm_problem *p, int set) {
  return tool_input_sets_at(&p->sets, set, GEMM_A);
}

tile_rt_deviceptr gemm_problem_b(const gemm_problem *p, int set) {
  return tool_input_sets_at(&p->sets, set, GEMM_B);
}

tile_rt_deviceptr gemm_problem_bias(const gemm_problem *p, int set) {
  return p->epilogue == GEMM_EPILOGUE_NONE
             ? 0
             : tool_input_sets_at(&p->sets, set, GEMM_BIAS);
}

tile_rt_status gemm_problem_args(tile_rt_arg args[4], int *nargs,
                                 const gemm_problem *p, int set,
                                 tile_rt_deviceptr c) {
  int at = 0;
  tile_rt_status st = tile_rt_arg_memref_2d(
      &args[at++], p->a_type, gemm_problem_a(p, set), p->m, p->k, p->k);
  if (st != TILE_RT_SUCCESS)
    return st;
  if (p->trans_b)
    st = tile_rt_arg_memref_2d(&args[at++], p->b_type, gemm_problem_b(p, set),
                               p->n, p->k, p->k);
  else
    st = tile_rt_arg_memref_2d(&args[at++], p->b_type, gemm_problem_b(p, set),
                               p->k, p->n, p->n);
  if (st == TILE_RT_SUCCESS && p->epilogue != GEMM_EPILOGUE_NONE)
    st = tile_rt_arg_memref_1d(&args[at++], p->bias_type,
                               gemm_problem_bias(p, set), p->n);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_arg_memref_2d(&args[at++], p->c_type, c, p->m, p->n, p->n);
  *nargs = at;
  return st;
}

tile_rt_status gemm_problem_launch(tile_rt_kernel *kernel,
                                   const gemm_problem *p, int set,
                                   tile_rt_deviceptr c,
                                   tile_rt_stream *stream) {
  tile_rt_arg args[4];
  int nargs;
  tile_rt_status st = gemm_problem_args(args, &nargs, p, set, c);
  if (st != TILE_RT_SUCCESS)
    return st;
  return tile_rt_launch(kernel, args, nargs, stream);
}

double gemm_problem_threshold(const gemm_problem *p) {
  int bf16 =
      p->a_type == TILE_RT_BF16 || p->b_type == TILE_RT_BF16 ||
      p->c_type == TILE_RT_BF16 ||
      (p->epilogue != GEMM_EPILOGUE_NONE && p->bias_type == TILE_RT_BF16);
  if (p->epilogue != GEMM_EPILOGUE_NONE)
    return bf16 ? 2e-2 : 1e-2;
  return bf16 ? 1e-2 : 5e-3;
}

const char *gemm_problem_types(char *buf, size_t n, const gemm_problem *p) {
  char bias[32] = "";
  if (p->epilogue != GEMM_EPILOGUE_NONE)
    snprintf(bias, sizeof bias, " bias=%s", tile_rt_dtype_name(p->bias_type));
  snprintf(buf, n, "A=%s B%s=%s%s C=%s", tile_rt_dtype_name(p->a_type),
           p->trans_b ? "^T" : "", tile_rt_dtype_name(p->b_type), bias,
           tile_rt_dtype_name(p->c_type));
  return buf;
}

/*===--- The fp64 reference -----------------------------------------------===*/

typedef struct gemm_ref {
  const gemm_problem *p;
  const void *out; /* the whole M x N output, c_type */
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
  const gemm_problem *p = job->p;
  double *ref = scratch;
  int64_t n = p->n, k = p->k, i = job->rows[item];
  const float *a = p->host_a + i * k;
  if (p->trans_b) { /* B is [N, K]: dot products of rows */
    for (int64_t j = 0; j < n; ++j) {
      const float *b = p->host_b + j * k;
      double s = 0;
      for (int64_t q = 0; q < k; ++q)
        s += (double)a[q] * (double)b[q];
      ref[j] = s;
    }
  } else { /* B is [K, N]: accumulate scaled rows of B */
    memset(ref, 0, (size_t)n * sizeof *ref);
    for (int64_t q = 0; q < k; ++q) {
      double aq = a[q];
      const float *b = p->host_b + q * n;
      for (int64_t j = 0; j < n; ++j)
        ref[j] += aq * (double)b[j];
    }
  }
  if (p->epilogue != GEMM_EPILOGUE_NONE)
    for (int64_t j = 0; j < n; ++j)
      ref[j] = gemm_gelu(p->epilogue, ref[j] + (double)p->host_bias[j]);
  tool_error_add_row(err, i, ref, job->out, p->c_type, (size_t)(i * n), n);
}

int gemm_problem_check(tool_check *r, const gemm_problem *p,
                       tile_rt_deviceptr out) {
  memset(r, 0, sizeof *r);
  void *host = tool_fetch(p->ctx, out, p->c_bytes);
  if (!host)
    return 1;
  int64_t want = p->m;
  if (p->m * p->n * p->k > GEMM_FULL_REFERENCE_FMAS)
    want = GEMM_SAMPLED_ROWS;
  int64_t nrows;
  int64_t *rows = tool_spread(p->m, want, &nrows);
  tool_error e;
  gemm_ref job = {p, host, rows};
  int rc = !rows || tool_for_rows(&e, nrows, (size_t)p->n * sizeof(double),
                                  gemm_ref_row, &job) != 0;
  if (rc == 0)
    tool_check_from(
        r, &e, tool_count_nonfinite(host, p->c_type, (size_t)(p->m * p->n)),
        gemm_problem_threshold(p), 0);
  free(rows);
  free(host);
  return rc;
}

int gemm_problem_compare(tool_check *r, const gemm_problem *p,
                         tile_rt_deviceptr x, tile_rt_deviceptr y) {
  memset(r, 0, sizeof *r);
  void *hx = tool_fetch(p->ctx, x, p->c_bytes);
  void *hy = hx ? tool_fetch(p->ctx, y, p->c_bytes) : NULL;
  if (!hy) {
    free(hx);
    return 1;
  }
  double *ref = malloc((size_t)p->n * sizeof *ref);
  if (!ref) {
    free(hx);
    free(hy);
    return tool_fail("out of host memory");
  }
  tool_error e;
  memset(&e, 0, sizeof e);
  for (int64_t i = 0; i < p->m; ++i) {
    for (int64_t j = 0; j < p->n; ++j)
      ref[j] = tool_element(hy, p->c_type, (size_t)(i * p->n + j));
    tool_error_add_row(&e, i, ref, hx, p->c_type, (size_t)(i * p->n), p->n);
  }
  tool_check_from(r, &e,
                  tool_count_nonfinite(hx, p->c_type, (size_t)(p->m * p->n)),
                  gemm_problem_threshold(p), 0);
  free(ref);
  free(hx);
  free(hy);
  return 0;
}
