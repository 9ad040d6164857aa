/*===- attention_problem.c - Attention inputs, reference, checks ----------===*/

#include "attention_problem.h"

#include "host_util.h"

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

int attention_types_of_kernel(tile_rt_dtype types[2],
                              const tile_rt_kernel_desc *desc) {
  static const char *const role[5] = {"Q", "K", "V", "O", "scale"};
  if (desc->nargs != 5)
    return tool_fail("kernel '%s' takes %d arguments; an attention kernel "
                     "takes 5 (Q, K, V, O, scale)",
                     desc->name, desc->nargs);
  tile_rt_dtype t[4] = {TILE_RT_F16, TILE_RT_F16, TILE_RT_F16, TILE_RT_F16};
  for (int i = 0; i < desc->nparams; ++i) {
    const tile_rt_param_desc *p = &desc->params[i];
    if (p->kind == TILE_RT_PARAM_TENSORMAP)
      continue;
    if (p->arg == ATTN_SCALE) {
      if (p->kind != TILE_RT_PARAM_SCALAR || p->dtype != TILE_RT_F32)
        return tool_fail("kernel '%s' argument 4 (scale) is not an f32 "
                         "scalar",
                         desc->name);
      continue;
    }
    if (p->kind != TILE_RT_PARAM_MEMREF || p->rank != 4)
      return tool_fail("kernel '%s' argument %d (%s) is not a rank-4 memref",
                       desc->name, p->arg, role[p->arg]);
    if (p->dtype != TILE_RT_F16 && p->dtype != TILE_RT_BF16 &&
        p->dtype != TILE_RT_F32)
      return tool_fail("kernel '%s' argument %d (%s) is %s; attention "
                       "handles f16, bf16 and f32",
                       desc->name, p->arg, role[p->arg],
                       tile_rt_dtype_name(p->dtype));
    t[p->arg] = p->dtype;
  }
  if (t[ATTN_K] != t[ATTN_Q] || t[ATTN_V] != t[ATTN_Q])
    return tool_fail("kernel '%s' has Q of %s, K of %s, V of %s; attention "
                     "wants one input type",
                     desc->name, tile_rt_dtype_name(t[0]),
                     tile_rt_dtype_name(t[1]), tile_rt_dtype_name(t[2]));
  types[0] = t[ATTN_Q];
  types[1] = t[ATTN_O];
  return 0;
}

float attention_default_scale(int64_t d) {
  return (float)(1.0 / sqrt((double)d));
}

void attention_problem_free(attention_problem *p) {
  if (p->ctx)
    tile_rt_mem_free(p->ctx, p->o);
  tool_input_sets_free(&p->sets);
  for (int i = 0; i < 3; ++i)
    free(p->host[i]);
  memset(p, 0, sizeof *p);
}

/* Q, K and V on the host, uploaded to every set. */
static int attention_upload(attention_problem *p, uint64_t seed) {
  size_t count = attention_problem_out_count(p);
  void *host[3] = {NULL, NULL, NULL};
  int rc = 0;
  for (int i = 0; i < 3 && rc == 0; ++i) {
    double amp = i == ATTN_V ? ATTN_V_AMPLITUDE : ATTN_QK_AMPLITUDE;
    tool_rng rng;
    if (!(host[i] = malloc(p->in_bytes))) {
      rc = tool_fail("out of host memory for the attention inputs");
      break;
    }
    tool_rng_seed(&rng, seed, (uint64_t)i);
    tool_fill_uniform(host[i], p->host[i], p->in_type, count, &rng, -amp, amp);
  }
  if (rc == 0)
    rc = tool_input_sets_upload(&p->sets, (const void *const *)host);
  for (int i = 0; i < 3; ++i)
    free(host[i]);
  return rc;
}

int attention_problem_init(attention_problem *p, tile_rt_context *ctx,
                           const int64_t shape[4], int causal, float scale,
                           const tile_rt_dtype types[2], uint64_t seed,
                           size_t rotate_bytes) {
  memset(p, 0, sizeof *p);
  /* Every element count, times the largest element (4 bytes), fits. */
  int64_t count = 1;
  for (int i = 0; i < 4; ++i) {
    if (shape[i] <= 0 || shape[i] > ATTENTION_MAX_DIM)
      return tool_fail("attention sizes must be in [1, %d] (B=%lld H=%lld "
                       "S=%lld D=%lld)",
                       ATTENTION_MAX_DIM, (long long)shape[0],
                       (long long)shape[1], (long long)shape[2],
                       (long long)shape[3]);
    if (count > INT64_MAX / 4 / shape[i])
      return tool_fail("attention sizes B=%lld H=%lld S=%lld D=%lld are too "
                       "large",
                       (long long)shape[0], (long long)shape[1],
                       (long long)shape[2], (long long)shape[3]);
    count *= shape[i];
  }
  p->ctx = ctx;
  p->b = shape[0], p->h = shape[1], p->s = shape[2], p->d = shape[3];
  p->causal = causal;
  p->scale = scale;
  p->in_type = types[0], p->out_type = types[1];
  p->in_bytes = (size_t)count * tile_rt_dtype_size(p->in_type);
  p->out_bytes = (size_t)count * tile_rt_dtype_size(p->out_type);
  for (int i = 0; i < 3; ++i)
    if (!(p->host[i] = malloc((size_t)count * sizeof(float)))) {
      attention_problem_free(p);
      return tool_fail("out of host memory for the attention inputs");
    }
  size_t bytes[3] = {p->in_bytes, p->in_bytes, p->in_bytes};
  if (tool_input_sets_init(&p->sets, ctx, bytes, 3, rotate_bytes) != 0) {
    attention_problem_free(p);
    return 1;
  }
  p->nsets = p->sets.nsets;
  tile_rt_status st = tile_rt_mem_alloc(&p->o, ctx, p->out_bytes);
  if (st != TILE_RT_SUCCESS) {
    p->o = 0;
    attention_problem_free(p);
    return tool_rt_fail("allocating the attention output", st);
  }
  if (attention_upload(p, seed) != 0) {
    attention_problem_free(p);
    return 1;
  }
  return 0;
}

tile_rt_status attention_problem_args(tile_rt_arg args[5],
                                      const attention_problem *p, int set,
                                      tile_rt_deviceptr o) {
  tile_rt_status st = TILE_RT_SUCCESS;
  for (int i = 0; i < 4 && st == TILE_RT_SUCCESS; ++i)
    st = tile_rt_arg_memref_4d(
        &args[i], i == ATTN_O ? p->out_type : p->in_type,
        i == ATTN_O ? o : tool_input_sets_at(&p->sets, set, i), p->b, p->h,
        p->s, p->d);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_arg_f32(&args[ATTN_SCALE], p->scale);
  return st;
}

tile_rt_status attention_problem_launch(tile_rt_kernel *kernel,
                                        const attention_problem *p, int set,
                                        tile_rt_deviceptr o,
                                        tile_rt_stream *stream) {
  tile_rt_arg args[5];
  tile_rt_status st = attention_problem_args(args, p, set, o);
  if (st != TILE_RT_SUCCESS)
    return st;
  return tile_rt_launch(kernel, args, 5, stream);
}

size_t attention_problem_out_count(const attention_problem *p) {
  return (size_t)(p->b * p->h * p->s * p->d);
}

double attention_problem_flops(const attention_problem *p) {
  return 4.0 * (double)p->b * (double)p->h * (double)p->s * (double)p->s *
         (double)p->d * (p->causal ? 0.5 : 1.0);
}

double attention_problem_threshold(const attention_problem *p) {
  return p->in_type == TILE_RT_BF16 || p->out_type == TILE_RT_BF16 ? 2e-2
                                                                   : 1e-2;
}

const char *attention_problem_shape(char *buf, size_t n,
                                    const attention_problem *p) {
  snprintf(buf, n, "B=%lld H=%lld S=%lld D=%lld%s scale=%.6g", (long long)p->b,
           (long long)p->h, (long long)p->s, (long long)p->d,
           p->causal ? " causal" : "", (double)p->scale);
  return buf;
}

const char *attention_problem_types(char *buf, size_t n,
                                    const attention_problem *p) {
  snprintf(buf, n, "Q,K,V=%s O=%s", tile_rt_dtype_name(p->in_type),
           tile_rt_dtype_name(p->out_type));
  return buf;
}

/*===--- The fp64 reference -----------------------------------------------===*/

typedef struct attention_ref {
  const attention_problem *p;
  const void *out;
  const int64_t *pairs, *rows;
  int64_t nrows; /* per pair */
} attention_ref;

/* Query row rows[item % nrows] of pair pairs[item / nrows]. */
static void attention_ref_row(void *user, int64_t item, void *scratch,
                              tool_error *err) {
  const attention_ref *job = user;
  const attention_problem *p = job->p;
  int64_t s = p->s, d = p->d;
  int64_t pair = job->pairs[item / job->nrows];
  int64_t i = job->rows[item % job->nrows];
  size_t base = (size_t)(pair * s * d);
  const float *q = p->host[ATTN_Q] + base + (size_t)(i * d);
  const float *k = p->host[ATTN_K] + base;
  const float *v = p->host[ATTN_V] + base;
  double *score = scratch, *o = score + s;
  int64_t keys = p->causal ? i + 1 : s;
  double max = -INFINITY, sum = 0;
  for (int64_t j = 0; j < keys; ++j) {
    double dot = 0;
    for (int64_t c = 0; c < d; ++c)
      dot += (double)q[c] * (double)k[j * d + c];
    score[j] = dot * (double)p->scale;
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
  tool_error_add_row(err, pair * s + i, o, job->out, p->out_type,
                     base + (size_t)(i * d), d);
}

int attention_problem_check(tool_check *r, const attention_problem *p,
                            tile_rt_deviceptr o) {
  memset(r, 0, sizeof *r);
  void *host = tool_fetch(p->ctx, o, p->out_bytes);
  if (!host)
    return 1;
  int64_t npairs_all = p->b * p->h, npairs, nrows;
  int full = (double)npairs_all * (double)p->s * (double)p->s * (double)p->d <=
             ATTN_FULL_REFERENCE_FMAS;
  int64_t *pairs =
      tool_spread(npairs_all, full ? npairs_all : ATTN_SAMPLED_PAIRS, &npairs);
  int64_t *rows = tool_spread(p->s, full ? p->s : ATTN_SAMPLED_ROWS, &nrows);
  tool_error e;
  attention_ref job = {p, host, pairs, rows, nrows};
  int rc =
      !pairs || !rows ||
      tool_for_rows(&e, npairs * nrows, (size_t)(p->s + p->d) * sizeof(double),
                    attention_ref_row, &job) != 0;
  if (rc == 0)
    tool_check_from(
        r, &e,
        tool_count_nonfinite(host, p->out_type, attention_problem_out_count(p)),
        attention_problem_threshold(p), 1);
  free(pairs);
  free(rows);
  free(host);
  return rc;
}
