/*===- softmax_problem.c - Row softmax inputs, reference, checks ----------===*/

#include "softmax_problem.h"

#include "host_util.h"

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

double softmax_row_shift(int64_t row) {
  return row % 4 == 1 ? SOFTMAX_SHIFT : row % 4 == 3 ? -SOFTMAX_SHIFT : 0.0;
}

static int softmax_float_type(tile_rt_dtype t) {
  return t == TILE_RT_F16 || t == TILE_RT_BF16 || t == TILE_RT_F32;
}

int softmax_types_of_kernel(tile_rt_dtype types[2],
                            const tile_rt_kernel_desc *desc) {
  static const char *const role[2] = {"X", "Y"};
  if (desc->nargs != 2)
    return tool_fail("kernel '%s' takes %d arguments; a softmax kernel takes "
                     "2 (X, Y)",
                     desc->name, desc->nargs);
  for (int i = 0; i < desc->nparams; ++i) {
    const tile_rt_param_desc *d = &desc->params[i];
    if (d->kind == TILE_RT_PARAM_TENSORMAP)
      continue;
    if (d->kind != TILE_RT_PARAM_MEMREF || d->rank != 2)
      return tool_fail("kernel '%s' argument %d (%s) is not a rank-2 memref",
                       desc->name, d->arg, role[d->arg]);
    if (!softmax_float_type(d->dtype))
      return tool_fail("kernel '%s' argument %d (%s) is %s; softmax handles "
                       "f16, bf16 and f32",
                       desc->name, d->arg, role[d->arg],
                       tile_rt_dtype_name(d->dtype));
    types[d->arg] = d->dtype;
  }
  return 0;
}

void softmax_problem_free(softmax_problem *p) {
  if (p->ctx)
    tile_rt_mem_free(p->ctx, p->y);
  tool_input_sets_free(&p->sets);
  free(p->host_x);
  memset(p, 0, sizeof *p);
}

/* X on the host, row by row (each row's shift applied before rounding). */
static int softmax_upload(softmax_problem *p, uint64_t seed) {
  void *x = malloc(p->x_bytes);
  if (!x)
    return tool_fail("out of host memory for the softmax input");
  size_t esize = tile_rt_dtype_size(p->x_type);
  tool_rng rng;
  tool_rng_seed(&rng, seed, 0);
  for (int64_t i = 0; i < p->m; ++i) {
    double shift = softmax_row_shift(i);
    tool_fill_uniform((char *)x + (size_t)(i * p->n) * esize,
                      p->host_x + i * p->n, p->x_type, (size_t)p->n, &rng,
                      shift - SOFTMAX_SPREAD, shift + SOFTMAX_SPREAD);
  }
  const void *host[1] = {x};
  int rc = tool_input_sets_upload(&p->sets, host);
  free(x);
  return rc;
}

int softmax_problem_init(softmax_problem *p, tile_rt_context *ctx, int64_t m,
                         int64_t n, const tile_rt_dtype types[2], uint64_t seed,
                         size_t rotate_bytes) {
  memset(p, 0, sizeof *p);
  if (m <= 0 || n <= 0)
    return tool_fail("softmax sizes must be positive (M=%lld N=%lld)",
                     (long long)m, (long long)n);
  p->ctx = ctx;
  p->m = m, p->n = n;
  p->x_type = types[0], p->y_type = types[1];
  p->x_bytes = (size_t)(m * n) * tile_rt_dtype_size(p->x_type);
  p->y_bytes = (size_t)(m * n) * tile_rt_dtype_size(p->y_type);
  p->host_x = malloc((size_t)(m * n) * sizeof(float));
  if (!p->host_x) {
    softmax_problem_free(p);
    return tool_fail("out of host memory for the softmax input");
  }
  if (tool_input_sets_init(&p->sets, ctx, &p->x_bytes, 1, rotate_bytes) != 0) {
    softmax_problem_free(p);
    return 1;
  }
  p->nsets = p->sets.nsets;
  tile_rt_status st = tile_rt_mem_alloc(&p->y, ctx, p->y_bytes);
  if (st != TILE_RT_SUCCESS) {
    p->y = 0;
    softmax_problem_free(p);
    return tool_rt_fail("allocating the softmax output", st);
  }
  if (softmax_upload(p, seed) != 0) {
    softmax_problem_free(p);
    return 1;
  }
  return 0;
}

tile_rt_status softmax_problem_args(tile_rt_arg args[2],
                                    const softmax_problem *p, int set,
                                    tile_rt_deviceptr y) {
  tile_rt_status st = tile_rt_arg_memref_2d(
      &args[0], p->x_type, tool_input_sets_at(&p->sets, set, 0), p->m, p->n,
      p->n);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_arg_memref_2d(&args[1], p->y_type, y, p->m, p->n, p->n);
  return st;
}

tile_rt_status softmax_problem_launch(tile_rt_kernel *kernel,
                                      const softmax_problem *p, int set,
                                      tile_rt_deviceptr y,
                                      tile_rt_stream *stream) {
  tile_rt_arg args[2];
  tile_rt_status st = softmax_problem_args(args, p, set, y);
  if (st != TILE_RT_SUCCESS)
    return st;
  return tile_rt_launch(kernel, args, 2, stream);
}

double softmax_problem_threshold(const softmax_problem *p) {
  return p->x_type == TILE_RT_BF16 || p->y_type == TILE_RT_BF16 ? 2e-2 : 1e-2;
}

const char *softmax_problem_types(char *buf, size_t n,
                                  const softmax_problem *p) {
  snprintf(buf, n, "X=%s Y=%s", tile_rt_dtype_name(p->x_type),
           tile_rt_dtype_name(p->y_type));
  return buf;
}

/*===--- The fp64 reference -----------------------------------------------===*/

typedef struct softmax_ref {
  const softmax_problem *p;
  const void *out;
  const int64_t *rows;
} softmax_ref;

static void softmax_ref_row(void *user, int64_t item, void *scratch,
                            tool_error *err) {
  const softmax_ref *job = user;
  const softmax_problem *p = job->p;
  double *ref = scratch;
  int64_t n = p->n, i = job->rows[item];
  const float *x = p->host_x + i * n;
  double max = x[0], sum = 0;
  for (int64_t j = 1; j < n; ++j)
    if (x[j] > max)
      max = x[j];
  for (int64_t j = 0; j < n; ++j)
    sum += ref[j] = exp((double)x[j] - max);
  for (int64_t j = 0; j < n; ++j)
    ref[j] /= sum;
  tool_error_add_row(err, i, ref, job->out, p->y_type, (size_t)(i * n), n);
}

int softmax_problem_check(tool_check *r, const softmax_problem *p,
                          tile_rt_deviceptr y) {
  memset(r, 0, sizeof *r);
  void *host = tool_fetch(p->ctx, y, p->y_bytes);
  if (!host)
    return 1;
  int64_t want =
      p->m * p->n > SOFTMAX_FULL_REFERENCE ? SOFTMAX_SAMPLED_ROWS : p->m;
  int64_t nrows;
  int64_t *rows = tool_spread(p->m, want, &nrows);
  tool_error e;
  softmax_ref job = {p, host, rows};
  int rc = !rows || tool_for_rows(&e, nrows, (size_t)p->n * sizeof(double),
                                  softmax_ref_row, &job) != 0;
  if (rc == 0)
    tool_check_from(
        r, &e, tool_count_nonfinite(host, p->y_type, (size_t)(p->m * p->n)),
        softmax_problem_threshold(p), 1);
  free(rows);
  free(host);
  return rc;
}
