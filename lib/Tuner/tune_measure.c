/*===- tune_measure.c - Checking and timing the compiled candidates --------===*
 *
 * Every compiled candidate runs once on NaN-poisoned outputs and is checked
 * against the problem's fp64 host reference, or where it has none against
 * the outputs of its reference kernel or of the default configuration,
 * run once first: a wrong one is rejected and reported. The rest are timed,
 * first with a short probe: one that is already `early_stop` times slower than
 * the best so far stops there. Then the final round times the fastest few and
 * the default again, in turns, and the fastest of them against the default
 * alone, in rounds.
 *
 *===----------------------------------------------------------------------===*/

#include "tune_internal.h"

#include "tool_compile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Probe launches before deciding whether a candidate is worth the rest. */
#define TUNE_PROBE_ITERS 3

/* Loads candidate `c`'s cubin and finds `name` in it. */
static tile_rt_status load_kernel(tile_rt_module **module,
                                  tile_rt_kernel **kernel, tile_rt_context *ctx,
                                  const tune_candidate *c, const char *name) {
  tile_rt_status st = tile_rt_module_load(
      module, ctx, c->image.data, c->image.size, c->kinfo.data, c->kinfo.size);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_module_get_kernel(kernel, *module, name);
  return st;
}

static void measure_one(tune_candidate *c, const tune_space *s,
                        const tune_request *r, tile_rt_context *ctx,
                        tile_rt_stream *stream, tune_problem **problem,
                        double best_ms) {
  tile_rt_module *module = NULL;
  tile_rt_kernel *kernel = NULL;
  const tile_rt_kernel_desc *desc = NULL;
  tile_rt_status st = load_kernel(&module, &kernel, ctx, c, r->kernel);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_kernel_desc_of(&desc, kernel);
  if (st != TILE_RT_SUCCESS) {
    c->verdict = TUNE_LAUNCH_ERROR;
    snprintf(c->message, sizeof c->message, "loading: %s",
             tile_rt_last_error());
    tile_rt_module_free(module);
    return;
  }
  if (!*problem &&
      tune_problem_init(problem, &s->problem, r->seed, ctx, desc) != 0) {
    c->verdict = TUNE_LAUNCH_ERROR;
    snprintf(c->message, sizeof c->message, "the problem cannot be set up");
    tile_rt_module_free(module);
    return;
  }
  tool_check check;
  if (tune_problem_check(*problem, kernel, stream, r->timeout_s, &check) != 0) {
    c->verdict = TUNE_LAUNCH_ERROR;
    snprintf(c->message, sizeof c->message, "%s", tile_rt_last_error());
  } else if (!check.pass) {
    c->verdict = TUNE_WRONG;
    c->rel_err = check.rel_err;
    snprintf(c->message, sizeof c->message,
             "wrong result: rel_err %.2e over %.0e, %zu non-finite outputs "
             "(a compiler bug)",
             check.rel_err, check.threshold, check.nonfinite);
  } else {
    c->rel_err = check.rel_err;
    double probe;
    if (tune_problem_time(*problem, kernel, stream, 1, TUNE_PROBE_ITERS,
                          r->timeout_s, &probe) != 0) {
      c->verdict = TUNE_LAUNCH_ERROR;
      snprintf(c->message, sizeof c->message, "%s", tile_rt_last_error());
    } else if (best_ms > 0 && probe > r->early_stop * best_ms) {
      c->verdict = TUNE_EARLY_STOP;
      c->ms = probe;
      snprintf(c->message, sizeof c->message,
               "%.4f ms in the probe, over %.1fx the best (%.4f ms)", probe,
               r->early_stop, best_ms);
    } else if (tune_problem_time(*problem, kernel, stream, r->warmup, r->iters,
                                 r->timeout_s, &c->ms) != 0) {
      c->verdict = TUNE_LAUNCH_ERROR;
      snprintf(c->message, sizeof c->message, "%s", tile_rt_last_error());
    } else {
      c->verdict = TUNE_MEASURED;
    }
  }
  tile_rt_module_free(module);
}

int tune_by_ms(const void *a, const void *b) {
  const tune_candidate *x = *(tune_candidate *const *)a;
  const tune_candidate *y = *(tune_candidate *const *)b;
  return (x->ms > y->ms) - (x->ms < y->ms);
}

/* The rounds of the fastest finalist against the default (s->duel): one
 * time in turns among five can still favour one of them by the noise, so
 * the two are timed again alone, TUNE_DUEL_ROUNDS times, alternating which
 * goes first, and the rule (tune_beats_default) weighs the median ratio
 * against the rounds' spread. A failure part way leaves fewer rounds, which
 * keep the default. */
static void against_default(tune_space *s, const tune_request *r,
                            tile_rt_stream *stream, tune_problem *problem,
                            tune_candidate *const *fin,
                            tile_rt_kernel *const *kernels, int n) {
  int fastest = -1, def = -1;
  for (int i = 0; i < n; ++i) {
    if (fastest < 0 || fin[i]->ms < fin[fastest]->ms)
      fastest = i;
    if (fin[i]->is_default)
      def = i;
  }
  if (def < 0 || fastest == def)
    return;
  tune_duel *d = &s->duel;
  memset(d, 0, sizeof *d);
  d->challenger = fin[fastest];
  for (int round = 0; round < TUNE_DUEL_ROUNDS; ++round) {
    int first = round % 2 ? def : fastest, second = round % 2 ? fastest : def;
    tile_rt_kernel *pair[2] = {kernels[first], kernels[second]};
    double ms[2];
    if (tune_problem_time_in_turns(problem, pair, 2, stream, 1,
                                   TUNE_DUEL_LAUNCHES, r->timeout_s, ms) != 0) {
      tune_say(r,
               "the rounds against the default stopped after %d (said "
               "above)\n",
               round);
      break;
    }
    double challenger = round % 2 ? ms[1] : ms[0];
    double baseline = round % 2 ? ms[0] : ms[1];
    d->ratio[d->rounds++] = baseline > 0 ? challenger / baseline : 0;
  }
  d->wins = tune_beats_default(d->ratio, d->rounds, &d->median, &d->noise);
}

/* One pass times each candidate at a different moment, and the GPU drifts
 * between them (clocks, temperature, power): a few per cent between two
 * close candidates, or between the best and the default, may be that
 * drift. The final round times the fastest TUNE_FINALISTS and the default
 * again, launch by launch in turns (tool_time_in_turns), and each keeps its
 * median. Where something fails, the first pass's times stand. */
static void final_round(tune_space *s, const tune_request *r,
                        tile_rt_context *ctx, tile_rt_stream *stream,
                        tune_problem *problem) {
  tune_candidate **sorted = malloc((size_t)(s->n ? s->n : 1) * sizeof *sorted);
  if (!sorted)
    return;
  int measured = 0;
  for (int i = 0; i < s->n; ++i)
    if (s->c[i].verdict == TUNE_MEASURED)
      sorted[measured++] = &s->c[i];
  qsort(sorted, (size_t)measured, sizeof *sorted, tune_by_ms);
  /* The fastest, and the default once (a space may list a value twice
   * through --space, so several candidates can be the default). */
  tune_candidate *fin[TUNE_FINALISTS + 1];
  int n = 0, have_default = 0;
  for (int i = 0; i < measured && n < TUNE_FINALISTS + 1; ++i) {
    int is_default = sorted[i]->is_default;
    if (is_default ? have_default : i >= TUNE_FINALISTS)
      continue;
    have_default |= is_default;
    fin[n++] = sorted[i];
  }
  free(sorted);
  if (n < 2)
    return;

  tile_rt_module *modules[TUNE_FINALISTS + 1] = {0};
  tile_rt_kernel *kernels[TUNE_FINALISTS + 1] = {0};
  double ms[TUNE_FINALISTS + 1];
  int ok = 1;
  for (int i = 0; ok && i < n; ++i) {
    tile_rt_status st =
        load_kernel(&modules[i], &kernels[i], ctx, fin[i], r->kernel);
    if (st != TILE_RT_SUCCESS)
      ok = !tool_rt_fail("loading a finalist", st);
  }
  ok = ok &&
       tune_problem_time_in_turns(problem, kernels, n, stream, r->warmup,
                                  TUNE_FINAL_ROUNDS, r->timeout_s, ms) == 0;
  for (int i = 0; ok && i < n; ++i) {
    fin[i]->ms = ms[i];
    fin[i]->finalist = 1;
  }
  if (!ok)
    tune_say(r, "the final round failed (said above): the first times "
                "stand\n");
  else
    against_default(s, r, stream, problem, fin, kernels, n);
  for (int i = 0; i < n; ++i)
    tile_rt_module_free(modules[i]);
}

/* Compiles the reference kernel the problem names from the source, and
 * loads it. 0, or 1 after printing why. */
static int load_reference_kernel(tile_rt_module **module,
                                 tile_rt_kernel **kernel, const tune_request *r,
                                 tile_rt_context *ctx, const char *name) {
  MlirTileCompileOptions options;
  mlirTileCompileOptionsInitDefault(&options);
  options.kernels = &name;
  options.numKernels = 1;
  tool_buffer image = {0}, kinfo = {0};
  MlirContext mlir = tool_mlir_context();
  int rc = tool_compile_file(mlir, r->mlir_path, &options, &image, &kinfo);
  mlirContextDestroy(mlir);
  if (rc == 0) {
    tile_rt_status st = tile_rt_module_load(module, ctx, image.data, image.size,
                                            kinfo.data, kinfo.size);
    if (st == TILE_RT_SUCCESS)
      st = tile_rt_module_get_kernel(kernel, *module, name);
    if (st != TILE_RT_SUCCESS)
      rc = tool_rt_fail("loading the reference kernel", st);
  }
  tool_buffer_free(&image);
  tool_buffer_free(&kinfo);
  return rc;
}

/* Sets up the problem on the first compiled candidate's kernel record and,
 * where it has no host reference, runs the reference once: the kernel it
 * names, or the default configuration. 0, or 1 after printing why. */
static int prepare_problem(tune_space *s, const tune_request *r,
                           tile_rt_context *ctx, tile_rt_stream *stream,
                           tune_problem **problem) {
  const tune_candidate *first = NULL, *def = NULL;
  for (int i = 0; i < s->n; ++i) {
    if (s->c[i].verdict != TUNE_COMPILED)
      continue;
    if (!first)
      first = &s->c[i];
    if (s->c[i].is_default && !def)
      def = &s->c[i];
  }
  const tune_candidate *from = def ? def : first;
  if (!from)
    return 0;
  tile_rt_module *module = NULL, *ref_module = NULL;
  tile_rt_kernel *kernel = NULL, *ref = NULL;
  const tile_rt_kernel_desc *desc = NULL;
  tile_rt_status st = load_kernel(&module, &kernel, ctx, from, r->kernel);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_kernel_desc_of(&desc, kernel);
  int rc = st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("loading a candidate", st);
  if (rc == 0)
    rc = tune_problem_init(problem, &s->problem, r->seed, ctx, desc);
  if (rc == 0 && tune_problem_needs_reference(*problem)) {
    const char *name = s->problem.reference_kernel;
    if (name[0]) {
      const tile_rt_kernel_desc *ref_desc = NULL;
      tool_problem_desc check = s->problem;
      rc = load_reference_kernel(&ref_module, &ref, r, ctx, name);
      if (rc == 0 &&
          (st = tile_rt_kernel_desc_of(&ref_desc, ref)) != TILE_RT_SUCCESS)
        rc = tool_rt_fail("the reference kernel", st);
      if (rc == 0)
        rc = tool_problem_bind(&check, ref_desc);
      tune_say(r, "checking every candidate against kernel %s\n", name);
    } else if (!def) {
      rc = tool_fail("the %s problem has no host reference and the default "
                     "configuration of %s did not compile: the candidates "
                     "have nothing to be checked against (name a "
                     "\"reference\" kernel)",
                     s->problem.op, r->kernel);
    } else {
      ref = kernel;
      tune_say(r,
               "checking every candidate against the default "
               "configuration %s\n",
               def->config);
    }
    if (rc == 0)
      rc = tune_problem_set_reference(*problem, ref, stream, r->timeout_s);
  }
  tile_rt_module_free(ref_module);
  tile_rt_module_free(module);
  return rc;
}

int tune_measure_all(tune_space *s, const tune_request *r, tile_rt_context *ctx,
                     double *work, const char **unit) {
  tile_rt_stream *stream = NULL;
  tile_rt_status st = tile_rt_stream_create(&stream, ctx);
  if (st != TILE_RT_SUCCESS)
    return tool_rt_fail("creating a stream", st);
  int total = 0, done = 0;
  for (int i = 0; i < s->n; ++i)
    total += s->c[i].verdict == TUNE_COMPILED;
  tune_problem *problem = NULL;
  if (prepare_problem(s, r, ctx, stream, &problem) != 0) {
    tune_problem_free(problem);
    tile_rt_stream_free(stream);
    return 1;
  }
  const tune_candidate *stuck = NULL;
  double best = 0;
  for (int i = 0; i < s->n; ++i) {
    tune_candidate *c = &s->c[i];
    if (c->verdict != TUNE_COMPILED)
      continue;
    if (stuck) {
      c->verdict = TUNE_LAUNCH_ERROR;
      snprintf(c->message, sizeof c->message,
               "not run: the GPU is still busy with %s", stuck->config);
      tune_progress(r, "measuring", ++done, total);
      continue;
    }
    measure_one(c, s, r, ctx, stream, &problem, best);
    /* A kernel that does not finish holds the GPU: nothing after it can
     * run, so the rest is reported, not attempted. */
    if (c->verdict == TUNE_LAUNCH_ERROR && strstr(c->message, "did not finish"))
      stuck = c;
    if (c->verdict == TUNE_MEASURED && (best == 0 || c->ms < best))
      best = c->ms;
    if (r->verbose)
      tune_say(r, "  %-12s %s%s%s\n", tune_verdict_name(c->verdict), c->config,
               c->message[0] ? ": " : "", c->message);
    tune_progress(r, "measuring", ++done, total);
  }
  if (problem && !stuck)
    final_round(s, r, ctx, stream, problem);
  *work = problem ? tune_problem_work(problem, unit) : 0;
  tune_problem_free(problem);
  tile_rt_stream_free(stream);
  return 0;
}
