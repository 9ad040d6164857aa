/*===- op_attention.c - tile-run --op attention: softmax(QK^T s) V --------===*
 *
 * Runs an attention kernel on random inputs, checks it against an fp64 host
 * reference by relative Frobenius norm (each query row and the whole), and
 * times it.
 *
 * Kernel signature: (Q, K, V, O: memref<?x?x?x?xT> [B, H, S, D] row-major,
 *                    scale: f32),
 * O[b,h,i,:] = sum_j P[i,j] V[b,h,j,:], P = softmax over j of
 * scale * Q[b,h,i,:] . K[b,h,j,:], with keys j > i masked out when causal
 * (--causal: the runner is told, it does not guess from the kernel's
 * name). Q, K and V of one type, O of any of f16, bf16, f32; fp32 math.
 *
 * Q and K are uniform in [-2, 2], so that the scores (scale 1/sqrt(D)) have
 * a standard deviation of 4/3 and the softmax is far from uniform; V is
 * uniform in [-1, 1].
 *
 *===----------------------------------------------------------------------===*/

#include "host_check.h"
#include "host_util.h"
#include "input_sets.h"
#include "ops.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ATTN_MAX_DIM INT32_MAX
#define ATTN_QK_AMPLITUDE 2.0
#define ATTN_V_AMPLITUDE 1.0
/* Above this many multiply-adds of Q K^T the reference samples: this many
 * (b, h) pairs and query rows of each (first and last included). */
#define ATTN_FULL_REFERENCE_FMAS ((int64_t)1 << 30)
#define ATTN_SAMPLED_PAIRS 8
#define ATTN_SAMPLED_ROWS 64

enum { ATTN_Q = 0, ATTN_K = 1, ATTN_V = 2, ATTN_O = 3, ATTN_SCALE = 4 };

typedef struct attn_problem {
  tile_rt_context *ctx;
  int64_t b, h, s, d;
  int causal;
  float scale;
  tile_rt_dtype in_type, out_type;
  size_t in_bytes, out_bytes;
  tool_input_sets sets; /* Q, K, V */
  tile_rt_deviceptr o;
  float *host[3]; /* Q, K, V as rounded to their type */
} attn_problem;

/* Checks the signature; the Q/K/V and O element types. */
static int attn_types_of_kernel(tile_rt_dtype types[2],
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

static void attn_free(attn_problem *p) {
  if (p->ctx)
    tile_rt_mem_free(p->ctx, p->o);
  tool_input_sets_free(&p->sets);
  for (int i = 0; i < 3; ++i)
    free(p->host[i]);
  memset(p, 0, sizeof *p);
}

static int attn_upload(attn_problem *p, uint64_t seed) {
  size_t count = p->in_bytes / tile_rt_dtype_size(p->in_type);
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

static int attn_init(attn_problem *p, const tool_op_env *env,
                     const int64_t shape[4], int causal, float scale,
                     const tile_rt_dtype types[2]) {
  memset(p, 0, sizeof *p);
  p->ctx = env->ctx;
  p->b = shape[0], p->h = shape[1], p->s = shape[2], p->d = shape[3];
  p->causal = causal;
  p->scale = scale;
  p->in_type = types[0], p->out_type = types[1];
  size_t count = (size_t)(p->b * p->h * p->s * p->d);
  p->in_bytes = count * tile_rt_dtype_size(p->in_type);
  p->out_bytes = count * tile_rt_dtype_size(p->out_type);
  for (int i = 0; i < 3; ++i)
    if (!(p->host[i] = malloc(count * sizeof(float)))) {
      attn_free(p);
      return tool_fail("out of host memory for the attention inputs");
    }
  size_t bytes[3] = {p->in_bytes, p->in_bytes, p->in_bytes};
  if (tool_input_sets_init(&p->sets, env->ctx, bytes, 3,
                           env->run->iters > 0 ? TOOL_ROTATE_BYTES : 0) != 0) {
    attn_free(p);
    return 1;
  }
  tile_rt_status st = tile_rt_mem_alloc(&p->o, env->ctx, p->out_bytes);
  if (st != TILE_RT_SUCCESS) {
    p->o = 0;
    attn_free(p);
    return tool_rt_fail("allocating the attention output", st);
  }
  if (attn_upload(p, env->run->seed) != 0) {
    attn_free(p);
    return 1;
  }
  return 0;
}

typedef struct attn_launcher {
  tile_rt_kernel *kernel;
  const attn_problem *problem;
} attn_launcher;

static int attn_launch(void *user, int set, tile_rt_stream *stream) {
  const attn_launcher *l = user;
  const attn_problem *p = l->problem;
  tile_rt_arg args[5];
  tile_rt_status st = TILE_RT_SUCCESS;
  for (int i = 0; i < 4 && st == TILE_RT_SUCCESS; ++i)
    st = tile_rt_arg_memref_4d(
        &args[i], i == ATTN_O ? p->out_type : p->in_type,
        i == ATTN_O ? p->o : tool_input_sets_at(&p->sets, set, i), p->b, p->h,
        p->s, p->d);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_arg_f32(&args[ATTN_SCALE], p->scale);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_launch(l->kernel, args, 5, stream);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("launching", st);
}

/*===--- The fp64 reference -----------------------------------------------===*/

typedef struct attn_ref {
  const attn_problem *p;
  const void *out;
  const int64_t *pairs, *rows;
  int64_t nrows; /* per pair */
} attn_ref;

/* Query row rows[item % nrows] of pair pairs[item / nrows]. */
static void attn_ref_row(void *user, int64_t item, void *scratch,
                         tool_error *err) {
  const attn_ref *job = user;
  const attn_problem *p = job->p;
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

static int attn_check(tool_check *r, const attn_problem *p) {
  void *host = tool_fetch(p->ctx, p->o, p->out_bytes);
  if (!host)
    return 1;
  int64_t npairs_all = p->b * p->h, npairs, nrows;
  int full = npairs_all * p->s * p->s * p->d <= ATTN_FULL_REFERENCE_FMAS;
  int64_t *pairs =
      tool_spread(npairs_all, full ? npairs_all : ATTN_SAMPLED_PAIRS, &npairs);
  int64_t *rows = tool_spread(p->s, full ? p->s : ATTN_SAMPLED_ROWS, &nrows);
  tool_error e;
  attn_ref job = {p, host, pairs, rows, nrows};
  int rc =
      !pairs || !rows ||
      tool_for_rows(&e, npairs * nrows, (size_t)(p->s + p->d) * sizeof(double),
                    attn_ref_row, &job) != 0;
  if (rc == 0) {
    double threshold =
        p->in_type == TILE_RT_BF16 || p->out_type == TILE_RT_BF16 ? 2e-2 : 1e-2;
    size_t count = p->out_bytes / tile_rt_dtype_size(p->out_type);
    tool_check_from(r, &e, tool_count_nonfinite(host, p->out_type, count),
                    threshold, 1);
  }
  free(pairs);
  free(rows);
  free(host);
  return rc;
}

/*===--- The operator -----------------------------------------------------===*/

static void attn_shape(char *buf, size_t n, const attn_problem *p) {
  snprintf(buf, n, "B=%lld H=%lld S=%lld D=%lld%s scale=%.6g", (long long)p->b,
           (long long)p->h, (long long)p->s, (long long)p->d,
           p->causal ? " causal" : "", (double)p->scale);
}

static int attn_check_run(const tool_op_env *env, const attn_problem *p,
                          tile_rt_stream *stream) {
  size_t count = p->out_bytes / tile_rt_dtype_size(p->out_type);
  attn_launcher l = {env->kernel, p};
  if (tool_run_poisoned(env->ctx, stream, p->o, p->out_type, count, attn_launch,
                        &l, env->run->timeout_s) != 0)
    return 1;
  tool_check r;
  if (attn_check(&r, p) != 0)
    return 1;
  char shape[128];
  attn_shape(shape, sizeof shape, p);
  printf("attention %s %s Q,K,V=%s O=%s: rel_err=%.2e %s\n", env->desc->name,
         shape, tile_rt_dtype_name(p->in_type), tile_rt_dtype_name(p->out_type),
         r.rel_err, r.pass ? "PASS" : "FAIL");
  tool_check_print(&r, p->b * p->h * p->s,
                   "query rows (all D columns; row (b*H+h)*S+i)", 1);
  return r.pass ? 0 : 1;
}

static int attn_time(const tool_op_env *env, const attn_problem *p,
                     tile_rt_stream *stream) {
  attn_launcher l = {env->kernel, p};
  tool_timing t;
  if (tool_time_launches(&t, env->ctx, stream, attn_launch, &l, p->sets.nsets,
                         env->run->warmup, env->run->iters,
                         env->run->timeout_s) != 0)
    return 1;
  /* Q K^T and P V: 2 * 2 * B * H * S^2 * D, half of it when causal. */
  double flops = 4.0 * (double)p->b * (double)p->h * (double)p->s *
                 (double)p->s * (double)p->d * (p->causal ? 0.5 : 1.0);
  char shape[128];
  attn_shape(shape, sizeof shape, p);
  printf("attention %s %s: median %.4f ms (min %.4f, max %.4f) over %d "
         "launches rotating %d input sets (%.1f MiB): %.1f TFLOP/s\n",
         env->desc->name, shape, t.median_ms, t.min_ms, t.max_ms, t.iters,
         p->sets.nsets, (double)tool_input_sets_total(&p->sets) / (1 << 20),
         flops / (t.median_ms * 1e-3) / 1e12);
  return 0;
}

/* --scale X, if given, into *scale. 0 when absent or read, else 1. */
static int attn_scale_option(float *scale, const tool_options *o) {
  for (int i = o->count - 1; i >= 0; --i) {
    if (strcmp(o->name[i], "scale") != 0)
      continue;
    double v;
    if (tool_parse_double(&v, o->value[i]) != 0 || !(fabs(v) < 1e30))
      return tool_fail("--scale wants a finite number, got '%s'", o->value[i]);
    *scale = (float)v;
    return 0;
  }
  return 0;
}

static int attn_run(const tool_op_env *env) {
  static const char *const dims[4] = {"B", "H", "S", "D"};
  int64_t shape[4];
  for (int i = 0; i < 4; ++i) {
    int rc =
        tool_options_i64(env->options, dims[i], 1, ATTN_MAX_DIM, &shape[i]);
    if (rc > 0)
      return tool_fail("--op attention needs --%s", dims[i]);
    if (rc < 0)
      return 1;
  }
  float scale = (float)(1.0 / sqrt((double)shape[3]));
  if (attn_scale_option(&scale, env->options) != 0)
    return 1;
  tile_rt_dtype types[2];
  if (attn_types_of_kernel(types, env->desc) != 0)
    return 1;
  attn_problem p;
  if (attn_init(&p, env, shape, tool_options_has(env->options, "causal"), scale,
                types) != 0)
    return 1;
  tile_rt_stream *stream = NULL;
  int rc = 0;
  tile_rt_status st = tile_rt_stream_create(&stream, env->ctx);
  if (st != TILE_RT_SUCCESS)
    rc = tool_rt_fail("creating a stream", st);
  if (rc == 0 && env->run->check)
    rc = attn_check_run(env, &p, stream);
  if (rc == 0 && env->run->iters > 0)
    rc = attn_time(env, &p, stream);
  tile_rt_stream_free(stream);
  attn_free(&p);
  return rc;
}

static const tool_op_flag attn_flags[] = {
    {"B", 1, "batch"},
    {"H", 1, "heads"},
    {"S", 1, "sequence length (queries and keys)"},
    {"D", 1, "head dimension"},
    {"causal", 0, "mask out keys j > query i (the kernel must be causal)"},
    {"scale", 1, "the score scale (default 1/sqrt(D))"},
    {NULL, 0, NULL},
};

const tool_op tool_op_attention = {
    "attention",
    "O = softmax(Q K^T * scale) V over [B,H,S,D] (kernel args Q, K, V, O, "
    "f32 scale; fp32 math)",
    attn_flags,
    attn_run,
};
