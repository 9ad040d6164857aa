/*===- tune.c - The autotuner's driver -------------------------------------===*
 *
 * tune_run: the space, the cache lookup, the filter before compiling, the
 * parallel compilation, the measurement and the final table, with one
 * summary line per stage (the details with `verbose`).
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "tune_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void tune_request_init(tune_request *r) {
  memset(r, 0, sizeof *r);
  r->compile_timeout_s = 4.0;
  r->max_spill_bytes = -1;
  r->early_stop = 1.5;
  r->iters = 20;
  r->warmup = 3;
  r->seed = 1;
  r->timeout_s = 10.0;
}

void tune_say(const tune_request *r, const char *fmt, ...) {
  if (r->quiet)
    return;
  va_list args;
  va_start(args, fmt);
  vprintf(fmt, args);
  va_end(args);
}

void tune_progress(const tune_request *r, const char *what, int done,
                   int total) {
  if (!r->progress || total == 0 || !isatty(STDERR_FILENO))
    return;
  int width = 30, filled = done * width / total;
  fprintf(stderr, "\r%s [%.*s%*s] %d/%d", what, filled,
          "##############################", width - filled, "", done, total);
  if (done == total)
    fputc('\n', stderr);
  fflush(stderr);
}

void tune_result_free(tune_result *r) {
  tool_buffer_free(&r->image);
  tool_buffer_free(&r->kinfo);
}

static void count_verdicts(const tune_space *s, int counts[]) {
  memset(counts, 0, TUNE_NUM_VERDICTS * sizeof counts[0]);
  for (int i = 0; i < s->n; ++i)
    ++counts[s->c[i].verdict];
}

/* ", 3 constraint, 2 shared-memory" for the verdicts in [from, to]. */
static void print_counts(const tune_request *r, const int counts[], int from,
                         int to) {
  for (int v = from; v <= to; ++v)
    if (counts[v])
      tune_say(r, ", %d %s", counts[v], tune_verdict_name((tune_verdict)v));
}

static void print_dropped(const tune_request *r, const tune_space *s, int from,
                          int to) {
  for (int i = 0; i < s->n; ++i)
    if ((int)s->c[i].verdict >= from && (int)s->c[i].verdict <= to)
      tune_say(r, "  %-15s %s: %s\n", tune_verdict_name(s->c[i].verdict),
               s->c[i].config, s->c[i].message);
}

/* The measured candidates, fastest first, at most `rows`. */
static void print_table(const tune_request *r, const tune_space *s,
                        const tune_candidate *chosen, double work,
                        const char *unit, int rows) {
  tune_candidate **sorted = malloc((size_t)(s->n ? s->n : 1) * sizeof *sorted);
  if (!sorted)
    return;
  int n = 0, finalists = 0;
  for (int i = 0; i < s->n; ++i)
    if (s->c[i].verdict == TUNE_MEASURED && s->c[i].finalist)
      sorted[n++] = &s->c[i];
  finalists = n;
  for (int i = 0; i < s->n; ++i)
    if (s->c[i].verdict == TUNE_MEASURED && !s->c[i].finalist)
      sorted[n++] = &s->c[i];
  /* The finalists first (their times are the final round's), then the
   * rest (the first pass's). */
  qsort(sorted, (size_t)finalists, sizeof *sorted, tune_by_ms);
  qsort(sorted + finalists, (size_t)(n - finalists), sizeof *sorted,
        tune_by_ms);
  tune_say(r, "%-4s %-48s %10s %9s %5s %6s %8s %9s %-5s\n", "rank",
           "configuration", "median ms", unit, "regs", "spills", "smem KiB",
           "rel_err", "timed");
  for (int i = 0; i < n && i < rows; ++i) {
    const tune_candidate *c = sorted[i];
    double rate = work / (c->ms * 1e-3) / 1e12;
    tune_say(r, "%-4d %-48s %10.4f %9.1f %5d %6d %8.1f %9.2e %-5s%s%s\n", i + 1,
             c->config, c->ms, rate, c->registers, c->spill_bytes,
             (double)c->smem / 1024, c->rel_err,
             c->finalist ? "final" : "first", c->is_default ? " default" : "",
             c == chosen ? " chosen" : "");
  }
  free(sorted);
}

/* The kernel's default configuration among the candidates, or NULL (the
 * parsers refuse duplicate candidates, so there is one at most). */
static const tune_candidate *default_candidate(const tune_space *s) {
  for (int i = 0; i < s->n; ++i)
    if (s->c[i].is_default)
      return &s->c[i];
  return NULL;
}

/* The end of the final round's line where its fastest was timed against
 * the default alone: the verdict, the median ratio and the noise. */
static void print_duel(const tune_request *r, const tune_duel *d,
                       const tune_candidate *def,
                       const tune_candidate *chosen) {
  double needed =
      d->noise > TUNE_DEFAULT_MARGIN ? d->noise : TUNE_DEFAULT_MARGIN;
  if (chosen != def)
    tune_say(r,
             "%.1f%% faster than the default %s in %d rounds against it "
             "(time ratio %.3f, noise %.1f%%)\n",
             100 * (1 / d->median - 1), def->config, d->rounds, d->median,
             100 * d->noise);
  else
    tune_say(r,
             "the default %s kept (the fastest, %s, ran at %.3fx its "
             "time in %d rounds against it: not faster by more than "
             "%.1f%%, the noise or the margin)\n",
             def->config, d->challenger->config, d->median, d->rounds,
             100 * needed);
}

/* One line on the final round: how many, and the default's fate. */
static void print_final_round(const tune_request *r, const tune_space *s,
                              const tune_candidate *chosen) {
  int n = 0;
  const tune_candidate *fastest = NULL;
  for (int i = 0; i < s->n; ++i) {
    const tune_candidate *c = &s->c[i];
    if (!c->finalist)
      continue;
    ++n;
    if (!fastest || c->ms < fastest->ms)
      fastest = c;
  }
  if (!n)
    return;
  tune_say(r, "final round: %d candidates in turns, %d rounds; ", n,
           TUNE_FINAL_ROUNDS);
  const tune_candidate *def = default_candidate(s);
  if (!def)
    tune_say(r, "the default configuration is not in the space\n");
  else if (!def->finalist)
    tune_say(r, "the default %s did not take part (%s)\n", def->config,
             tune_verdict_name(def->verdict));
  else if (s->duel.challenger)
    print_duel(r, &s->duel, def, chosen);
  else if (chosen == def && fastest != def)
    tune_say(r,
             "the default %s kept (%.4f ms; the fastest, %.4f ms, is "
             "within %.0f%%)\n",
             def->config, def->ms, fastest->ms, 100 * TUNE_DEFAULT_MARGIN);
  else if (chosen == def)
    tune_say(r, "the default %s is the fastest (%.4f ms)\n", def->config,
             def->ms);
  else
    tune_say(r, "%.1f%% faster than the default %s (%.4f ms)\n",
             100 * (def->ms / chosen->ms - 1), def->config, def->ms);
}

static void copy_key(MlirStringRef s, void *user) {
  char *key = user;
  size_t n = s.length < 64 ? s.length : 64;
  memcpy(key, s.data, n);
  key[n] = '\0';
}

int tune_run(const tune_request *r, tile_rt_context *ctx, tune_result *out) {
  memset(out, 0, sizeof *out);
  double start = tool_now();
  tune_space s;
  tune_request req = *r;
  if (tune_space_open(&s, &req) != 0 || tune_space_bind_flag(&s, &req) != 0) {
    tune_space_free(&s);
    return 1;
  }
  tile_rt_device_info dev, *devp = NULL;
  if (ctx && tile_rt_context_device_info(&dev, ctx) == TILE_RT_SUCCESS) {
    devp = &dev;
    /* The static part (the barriers) is padded to 1 KiB beside the
     * dynamic part the estimate counts. */
    if (req.smem_limit <= 0)
      req.smem_limit = dev.max_smem_optin - 1024;
    if (req.threads_limit <= 0)
      req.threads_limit = dev.max_threads_per_block;
  }
  {
    tune_key k;
    tune_key_init(&k, &req, &s, devp);
    mlirTileCacheComputeKey(mlirStringRefCreateFromCString("tune"), k.c,
                            (size_t)k.n, copy_key, out->key);
    tune_key_free(&k);
  }
  int rc = 1;
  if (!req.no_cache && !req.retune && !req.compile_only &&
      tune_cache_load(&req, &s, devp, out)) {
    out->seconds = tool_now() - start;
    tune_say(r, "tuned %s for %s from the cache in %.1f ms: %s (%.4f ms)\n",
             r->kernel, s.problem.op, out->seconds * 1e3, out->best,
             out->best_ms);
    tune_space_free(&s);
    return 0;
  }

  if (req.lookup_only) {
    rc = TUNE_MISS;
    goto done;
  }

  /* The space, and what is dropped before compiling. */
  if (tune_space_enumerate(&s, &req, req.smem_limit, req.threads_limit) != 0)
    goto done;
  int counts[TUNE_NUM_VERDICTS];
  count_verdicts(&s, counts);
  const char *axes = s.space_text.data;
  tune_say(r, "space of %s: %d configurations over", r->kernel, s.n);
  for (const char *line = axes; line && *line;) {
    const char *end = strchr(line, '\n');
    if (strncmp(line, "axis ", 5) == 0)
      tune_say(r, " %.*s", (int)((end ? end : line + strlen(line)) - line - 5),
               line + 5);
    line = end ? end + 1 : NULL;
  }
  tune_say(r, "\ndropped before compiling: %d", s.n - counts[TUNE_VIABLE]);
  print_counts(&req, counts, TUNE_CONSTRAINT, TUNE_THREADS);
  if (req.smem_limit > 0)
    tune_say(r, " (limits: %lld bytes of shared memory, %lld threads)\n",
             (long long)req.smem_limit,
             (long long)(req.threads_limit > 0 ? req.threads_limit : 1024));
  else
    tune_say(r, " (limits: sm_90a's)\n");
  if (req.verbose) {
    print_dropped(&req, &s, TUNE_CONSTRAINT, TUNE_THREADS);
    const tune_candidate *def = default_candidate(&s);
    if (def)
      tune_say(r, "the default configuration: %s (%s)\n", def->config,
               tune_verdict_name(def->verdict));
    else
      tune_say(r, "the default configuration is not in the space\n");
  }
  if (counts[TUNE_VIABLE] == 0) {
    tool_fail("no configuration of %s fits", r->kernel);
    goto done;
  }

  /* Compile. */
  double t0 = tool_now();
  if (tune_compile_all(&s, &req) != 0)
    goto done;
  count_verdicts(&s, counts);
  int hits = 0;
  for (int i = 0; i < s.n; ++i)
    hits += s.c[i].compile_cache_hit && s.c[i].verdict >= TUNE_SPILLS;
  tune_say(r, "compiled %d of %d in %.1f s (%d from the compile cache)",
           counts[TUNE_COMPILED] + counts[TUNE_SPILLS],
           counts[TUNE_VIABLE] + counts[TUNE_COMPILED] + counts[TUNE_SPILLS] +
               counts[TUNE_COMPILE_ERROR] + counts[TUNE_COMPILE_TIMEOUT],
           tool_now() - t0, hits);
  print_counts(&req, counts, TUNE_COMPILE_ERROR, TUNE_SPILLS);
  tune_say(r, "\n");
  print_dropped(&req, &s, TUNE_COMPILE_ERROR, TUNE_COMPILE_TIMEOUT);
  if (req.verbose)
    print_dropped(&req, &s, TUNE_SPILLS, TUNE_SPILLS);
  if (req.compile_only) {
    rc = 0;
    goto done;
  }
  if (!ctx) {
    tool_fail("measuring needs a GPU");
    goto done;
  }

  /* Check and time. */
  t0 = tool_now();
  double work = 0;
  const char *unit = "";
  if (tune_measure_all(&s, &req, ctx, &work, &unit) != 0)
    goto done;
  count_verdicts(&s, counts);
  tune_say(r, "measured %d in %.1f s", counts[TUNE_MEASURED], tool_now() - t0);
  print_counts(&req, counts, TUNE_LAUNCH_ERROR, TUNE_EARLY_STOP);
  tune_say(r, "\n");
  print_dropped(&req, &s, TUNE_LAUNCH_ERROR, TUNE_WRONG);
  tune_candidate *best = tune_choose_best(&s);
  print_final_round(&req, &s, best);
  if (!best) {
    tool_fail("no configuration of %s ran correctly", r->kernel);
    goto done;
  }
  snprintf(out->best, sizeof out->best, "%s", best->config);
  out->best_ms = best->ms;
  tool_buffer_append(&out->image, best->image.data, best->image.size);
  tool_buffer_append(&out->kinfo, best->kinfo.data, best->kinfo.size);
  out->seconds = tool_now() - start;
  rc = 0;
  if (!req.no_cache)
    tune_cache_store(&req, &s, devp, best, out);
  print_table(&req, &s, best, work, unit, 10);
  tune_say(r, "tuned %s for %s in %.1f s: %s (%.4f ms)\n", r->kernel,
           s.problem.op, out->seconds, out->best, out->best_ms);
done:
  tune_space_free(&s);
  return rc;
}
