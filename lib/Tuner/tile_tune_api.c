/*===- tile_tune_api.c - The autotuner's C API ----------------------------===*
 *
 * include/tile-tune/tile_tune.h over tune_run (tune.h).
 *
 *===----------------------------------------------------------------------===*/

#include "builtin_problems.h"
#include "host_util.h"
#include "tile-tune/tile_tune.h"
#include "timing.h"
#include "tune.h"

#include <stdlib.h>
#include <string.h>

void tile_tune_options_init(tile_tune_options *o) {
  tune_request r;
  tune_request_init(&r);
  memset(o, 0, sizeof *o);
  o->compile_timeout_s = r.compile_timeout_s;
  o->max_spill_bytes = r.max_spill_bytes;
  o->early_stop = r.early_stop;
  o->iters = r.iters;
  o->warmup = r.warmup;
  o->seed = r.seed;
  o->timeout_s = r.timeout_s;
}

static int tune_checked(const tile_tune_options *o, tile_rt_context *ctx,
                        tile_tune_result *out);

int tile_tune_run(const tile_tune_options *o, tile_rt_context *ctx,
                  tile_tune_result *out) {
  tool_clear_error();
  int was = tool_capture_errors(o && o->capture_errors);
  int rc = tune_checked(o, ctx, out);
  tool_capture_errors(was);
  return rc;
}

const char *tile_tune_last_error(void) { return tool_last_error(); }

static int tune_checked(const tile_tune_options *o, tile_rt_context *ctx,
                        tile_tune_result *out) {
  if (!o || !out || !o->source_path || !o->kernel ||
      (!o->op && !o->problem_json) || o->nparams > TUNE_MAX_LIST ||
      o->naxes > TUNE_MAX_LIST || o->nparams < 0 || o->naxes < 0)
    return tool_fail("tile_tune_run: missing or bad options"), TILE_TUNE_FAILED;
  if (o->problem_json ? o->op && strcmp(o->op, "problem") != 0
                      : !tool_is_builtin(o->op))
    return tool_fail("tile_tune_run: op is %s, or \"problem\" with "
                     "problem_json; got '%s'",
                     tool_builtin_list, o->op),
           TILE_TUNE_FAILED;
  memset(out, 0, sizeof *out);
  tune_request r;
  tune_request_init(&r);
  r.mlir_path = o->source_path;
  r.kernel = o->kernel;
  r.op = o->problem_json ? "problem" : o->op;
  r.problem_json = o->problem_json;
  r.m = o->m;
  r.n = o->n;
  r.k = o->k;
  r.gelu_erf = o->gelu_erf;
  if (strcmp(r.op, "attention") == 0) {
    r.b = o->b;
    r.h = o->h;
    r.s = o->s;
    r.d = o->d;
    r.causal = o->causal;
  }
  for (int i = 0; i < o->nparams; ++i)
    r.params[r.nparams++] = o->params[i];
  for (int i = 0; i < o->naxes; ++i)
    r.axes[r.naxes++] = o->axes[i];
  r.cache_dir = o->cache_dir;
  r.no_cache = o->no_cache;
  r.retune = o->retune;
  r.lookup_only = o->lookup_only;
  r.compile_only = o->compile_only;
  r.jobs = o->jobs;
  r.compile_timeout_s = o->compile_timeout_s;
  r.max_spill_bytes = o->max_spill_bytes;
  r.early_stop = o->early_stop;
  r.iters = o->iters;
  r.warmup = o->warmup;
  r.seed = o->seed;
  r.timeout_s = o->timeout_s;
  r.smem_limit = o->smem_limit;
  r.threads_limit = o->threads_limit;
  r.verbose = o->verbose;
  r.quiet = o->quiet;
  tune_result res;
  int rc = tune_run(&r, (struct tile_rt_context *)ctx, &res);
  if (rc == 0) {
    memcpy(out->best, res.best, sizeof out->best);
    out->best_ms = res.best_ms;
    out->from_cache = res.from_cache;
    memcpy(out->key, res.key, sizeof out->key);
    /* Moved: the buffers are malloc'd. */
    out->image = res.image.data;
    out->image_size = res.image.size;
    out->kinfo = res.kinfo.data;
    out->kinfo_size = res.kinfo.size;
    res.image.data = res.kinfo.data = NULL;
  }
  out->seconds = res.seconds;
  tune_result_free(&res);
  return rc == 0           ? TILE_TUNE_OK
         : rc == TUNE_MISS ? TILE_TUNE_MISS
                           : TILE_TUNE_FAILED;
}

/* A caller's callable, run on the native stream. */
typedef struct native_run {
  tile_tune_run_fn run, prepare;
  void *user;
} native_run;

static int run_native(tile_tune_run_fn fn, void *user, int set,
                      tile_rt_stream *stream) {
  void *native = NULL;
  tile_rt_stream_native(&native, stream);
  return fn(user, set, native) == 0 ? 0 : tool_fail("a timed run failed");
}

static int launch_native(void *user, int set, tile_rt_stream *stream) {
  const native_run *r = user;
  return run_native(r->run, r->user, set, stream);
}

static int prepare_native(void *user, int set, tile_rt_stream *stream) {
  const native_run *r = user;
  return run_native(r->prepare, r->user, set, stream);
}

int tile_tune_time_in_turns(tile_rt_context *ctx, void *stream, int n,
                            const tile_tune_run_fn *run,
                            const tile_tune_run_fn *prepare, void *const *users,
                            int nsets, int warmup, int rounds, double timeout_s,
                            double *median_ms) {
  tool_clear_error();
  int was = tool_capture_errors(1);
  int rc = 0;
  tile_rt_stream *s = NULL;
  native_run *runs = NULL;
  tool_turn *turns = NULL;
  tool_timing *t = NULL;
  if (!ctx || !run || !users || !median_ms || n <= 0) {
    rc = tool_fail("tile_tune_time_in_turns: missing or bad arguments");
    goto done;
  }
  runs = calloc((size_t)n, sizeof *runs);
  turns = calloc((size_t)n, sizeof *turns);
  t = calloc((size_t)n, sizeof *t);
  if (!runs || !turns || !t) {
    rc = tool_fail("out of host memory");
    goto done;
  }
  for (int k = 0; k < n; ++k) {
    if (!run[k]) {
      rc = tool_fail("tile_tune_time_in_turns: run %d is NULL", k);
      goto done;
    }
    runs[k] = (native_run){run[k], prepare ? prepare[k] : NULL, users[k]};
    turns[k] = (tool_turn){launch_native, &runs[k],
                           runs[k].prepare ? prepare_native : NULL};
  }
  tile_rt_status st = tile_rt_stream_wrap(&s, ctx, stream);
  if (st != TILE_RT_SUCCESS) {
    rc = tool_rt_fail("the stream", st);
    goto done;
  }
  rc =
      tool_time_in_turns(t, turns, n, ctx, s, nsets, warmup, rounds, timeout_s);
  for (int k = 0; rc == 0 && k < n; ++k)
    median_ms[k] = t[k].median_ms;
done:
  tile_rt_stream_free(s);
  free(runs);
  free(turns);
  free(t);
  tool_capture_errors(was);
  return rc == 0 ? TILE_TUNE_OK : TILE_TUNE_FAILED;
}

void tile_tune_result_free(tile_tune_result *r) {
  if (!r)
    return;
  free(r->image);
  free(r->kinfo);
  r->image = NULL;
  r->kinfo = NULL;
  r->image_size = r->kinfo_size = 0;
}
