/*===- op_attention.c - tile-run --op attention: softmax(QK^T s) V --------===*
 *
 * Runs an attention kernel (signature in attention_problem.h) on random
 * inputs, checks it against an fp64 host reference by relative Frobenius
 * norm (each query row and the whole), and times it. --causal tells the
 * runner that the kernel masks keys j > i; it does not guess from the
 * kernel's name.
 *
 *===----------------------------------------------------------------------===*/

#include "attention_problem.h"
#include "host_util.h"
#include "ops.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct attn_launcher {
  tile_rt_kernel *kernel;
  const attention_problem *problem;
} attn_launcher;

static int attn_launch(void *user, int set, tile_rt_stream *stream) {
  const attn_launcher *l = user;
  tile_rt_status st = attention_problem_launch(l->kernel, l->problem, set,
                                               l->problem->o, stream);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("launching", st);
}

static int attn_check_run(const tool_op_env *env, const attention_problem *p,
                          tile_rt_stream *stream) {
  attn_launcher l = {env->kernel, p};
  if (tool_run_poisoned(env->ctx, stream, p->o, p->out_type,
                        attention_problem_out_count(p), attn_launch, &l,
                        env->run->timeout_s) != 0)
    return 1;
  tool_check r;
  if (attention_problem_check(&r, p, p->o) != 0)
    return 1;
  char shape[128], types[64];
  printf("attention %s %s %s: rel_err=%.2e %s\n", env->desc->name,
         attention_problem_shape(shape, sizeof shape, p),
         attention_problem_types(types, sizeof types, p), r.rel_err,
         r.pass ? "PASS" : "FAIL");
  tool_check_print(&r, p->b * p->h * p->s,
                   "query rows (all D columns; row (b*H+h)*S+i)", 1);
  return r.pass ? 0 : 1;
}

static int attn_time(const tool_op_env *env, const attention_problem *p,
                     tile_rt_stream *stream) {
  attn_launcher l = {env->kernel, p};
  tool_timing t;
  if (tool_time_launches(&t, env->ctx, stream, attn_launch, &l, p->nsets,
                         env->run->warmup, env->run->iters,
                         env->run->timeout_s) != 0)
    return 1;
  char shape[128];
  printf("attention %s %s: median %.4f ms (min %.4f, max %.4f) over %d "
         "launches rotating %d input sets (%.1f MiB): %.1f TFLOP/s\n",
         env->desc->name, attention_problem_shape(shape, sizeof shape, p),
         t.median_ms, t.min_ms, t.max_ms, t.iters, p->nsets,
         (double)tool_input_sets_total(&p->sets) / (1 << 20),
         attention_problem_flops(p) / (t.median_ms * 1e-3) / 1e12);
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
    int rc = tool_options_i64(env->options, dims[i], 1, ATTENTION_MAX_DIM,
                              &shape[i]);
    if (rc > 0)
      return tool_fail("--op attention needs --%s", dims[i]);
    if (rc < 0)
      return 1;
  }
  float scale = attention_default_scale(shape[3]);
  if (attn_scale_option(&scale, env->options) != 0)
    return 1;
  tile_rt_dtype types[2];
  if (attention_types_of_kernel(types, env->desc) != 0)
    return 1;
  attention_problem p;
  if (attention_problem_init(&p, env->ctx, shape,
                             tool_options_has(env->options, "causal"), scale,
                             types, env->run->seed,
                             env->run->iters > 0 ? TOOL_ROTATE_BYTES : 0) != 0)
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
  attention_problem_free(&p);
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
