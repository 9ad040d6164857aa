/*===- tune_problem.c - The problem the candidates run on ------------------===*
 *
 * One problem per tuning, shared by every candidate: the gemm problems
 * (gemm_problem.h, with the bias + GELU epilogue for gemm_bias_gelu), the
 * softmax problem (softmax_problem.h) and the attention problem
 * (attention_problem.h, causal or not, scale 1/sqrt(D)), with their inputs
 * rotated to defeat L2 and their fp64 checks.
 *
 *===----------------------------------------------------------------------===*/

#include "tune_internal.h"

#include "attention_problem.h"
#include "gemm_problem.h"
#include "softmax_problem.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

typedef enum { PROBLEM_GEMM, PROBLEM_SOFTMAX, PROBLEM_ATTENTION } problem_kind;

struct tune_problem {
  problem_kind kind;
  tile_rt_context *ctx;
  gemm_problem gemm;
  softmax_problem softmax;
  attention_problem attention;
  tile_rt_kernel *kernel; /* the one being launched */
};

int tune_problem_init(tune_problem **out, const tune_request *r,
                      tile_rt_context *ctx, const tile_rt_kernel_desc *desc) {
  tune_problem *p = calloc(1, sizeof *p);
  if (!p)
    return tool_fail("out of host memory");
  p->ctx = ctx;
  int rc;
  if (strcmp(r->op, "attention") == 0) {
    p->kind = PROBLEM_ATTENTION;
    tile_rt_dtype types[2];
    const int64_t shape[4] = {r->b, r->h, r->s, r->d};
    rc = attention_types_of_kernel(types, desc) != 0 ||
         attention_problem_init(&p->attention, ctx, shape, r->causal,
                                attention_default_scale(r->d), types, r->seed,
                                TOOL_ROTATE_BYTES) != 0;
  } else if (strcmp(r->op, "softmax") == 0) {
    p->kind = PROBLEM_SOFTMAX;
    tile_rt_dtype types[2];
    rc = softmax_types_of_kernel(types, desc) != 0 ||
         softmax_problem_init(&p->softmax, ctx, r->m, r->n, types, r->seed,
                              TOOL_ROTATE_BYTES) != 0;
  } else {
    p->kind = PROBLEM_GEMM;
    gemm_epilogue e = strcmp(r->op, "gemm") == 0 ? GEMM_EPILOGUE_NONE
                      : r->gelu_erf              ? GEMM_EPILOGUE_BIAS_GELU_ERF
                                                 : GEMM_EPILOGUE_BIAS_GELU_TANH;
    gemm_types types;
    rc = gemm_types_of_kernel(&types, desc, e) != 0 ||
         gemm_problem_init(&p->gemm, ctx, r->m, r->n, r->k, 0, &types, e,
                           r->seed, TOOL_ROTATE_BYTES) != 0;
  }
  if (rc) {
    free(p);
    return 1;
  }
  *out = p;
  return 0;
}

void tune_problem_free(tune_problem *p) {
  if (!p)
    return;
  if (p->kind == PROBLEM_ATTENTION)
    attention_problem_free(&p->attention);
  else if (p->kind == PROBLEM_SOFTMAX)
    softmax_problem_free(&p->softmax);
  else
    gemm_problem_free(&p->gemm);
  free(p);
}

static int launch(void *user, int set, tile_rt_stream *stream) {
  tune_problem *p = user;
  tile_rt_status st;
  if (p->kind == PROBLEM_ATTENTION)
    st = attention_problem_launch(p->kernel, &p->attention, set, p->attention.o,
                                  stream);
  else if (p->kind == PROBLEM_SOFTMAX)
    st = softmax_problem_launch(p->kernel, &p->softmax, set, p->softmax.y,
                                stream);
  else
    st = gemm_problem_launch(p->kernel, &p->gemm, set, p->gemm.c, stream);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("launching", st);
}

/* The problem's input sets, which launches rotate among. */
static int input_sets(const tune_problem *p) {
  return p->kind == PROBLEM_ATTENTION ? p->attention.nsets
         : p->kind == PROBLEM_SOFTMAX ? p->softmax.nsets
                                      : p->gemm.nsets;
}

int tune_problem_check(tune_problem *p, tile_rt_kernel *kernel,
                       tile_rt_stream *stream, double timeout_s,
                       tool_check *check) {
  p->kernel = kernel;
  if (p->kind == PROBLEM_ATTENTION) {
    attention_problem *a = &p->attention;
    return tool_run_poisoned(p->ctx, stream, a->o, a->out_type,
                             attention_problem_out_count(a), launch, p,
                             timeout_s) != 0 ||
           attention_problem_check(check, a, a->o) != 0;
  }
  if (p->kind == PROBLEM_SOFTMAX) {
    softmax_problem *s = &p->softmax;
    return tool_run_poisoned(p->ctx, stream, s->y, s->y_type,
                             (size_t)(s->m * s->n), launch, p,
                             timeout_s) != 0 ||
           softmax_problem_check(check, s, s->y) != 0;
  }
  gemm_problem *g = &p->gemm;
  return tool_run_poisoned(p->ctx, stream, g->c, g->c_type,
                           (size_t)(g->m * g->n), launch, p, timeout_s) != 0 ||
         gemm_problem_check(check, g, g->c) != 0;
}

int tune_problem_time(tune_problem *p, tile_rt_kernel *kernel,
                      tile_rt_stream *stream, int warmup, int iters,
                      double timeout_s, double *median_ms) {
  p->kernel = kernel;
  tool_timing t;
  if (tool_time_launches(&t, p->ctx, stream, launch, p, input_sets(p), warmup,
                         iters, timeout_s) != 0)
    return 1;
  *median_ms = t.median_ms;
  return 0;
}

/* One kernel of a comparison in turns: the problem's launch with it. */
typedef struct turn {
  tune_problem *p;
  tile_rt_kernel *kernel;
} turn;

static int launch_turn(void *user, int set, tile_rt_stream *stream) {
  turn *t = user;
  t->p->kernel = t->kernel;
  return launch(t->p, set, stream);
}

int tune_problem_time_in_turns(tune_problem *p, tile_rt_kernel *const *kernels,
                               int n, tile_rt_stream *stream, int warmup,
                               int rounds, double timeout_s,
                               double *median_ms) {
  turn *users = calloc((size_t)n, sizeof *users);
  tool_turn *turns = calloc((size_t)n, sizeof *turns);
  tool_timing *t = calloc((size_t)n, sizeof *t);
  int rc = !users || !turns || !t ? tool_fail("out of host memory") : 0;
  for (int i = 0; rc == 0 && i < n; ++i) {
    users[i] = (turn){p, kernels[i]};
    turns[i] = (tool_turn){launch_turn, &users[i]};
  }
  if (rc == 0)
    rc = tool_time_in_turns(t, turns, n, p->ctx, stream, input_sets(p), warmup,
                            rounds, timeout_s);
  for (int i = 0; rc == 0 && i < n; ++i)
    median_ms[i] = t[i].median_ms;
  free(users);
  free(turns);
  free(t);
  return rc;
}

double tune_problem_work(const tune_problem *p, const char **unit) {
  if (p->kind == PROBLEM_SOFTMAX) {
    *unit = "TB/s";
    return (double)p->softmax.x_bytes + (double)p->softmax.y_bytes;
  }
  *unit = "TFLOP/s";
  if (p->kind == PROBLEM_ATTENTION)
    return attention_problem_flops(&p->attention);
  return 2.0 * (double)p->gemm.m * (double)p->gemm.n * (double)p->gemm.k;
}
