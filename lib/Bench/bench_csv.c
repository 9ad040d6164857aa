/*===- bench_csv.c - tile-bench --csv: one row per measurement ------------===*/

#include "bench_csv.h"

#include "bench.h"
#include "host_util.h"

#include <errno.h>
#include <string.h>

/* A cell, quoted when it holds a comma, a quote or a line break. */
static void put_field(FILE *f, const char *s) {
  if (!s)
    return;
  if (!strpbrk(s, ",\"\n\r")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; ++s) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

int bench_csv_open(bench_csv *c, const char *path, const char *op) {
  memset(c, 0, sizeof *c);
  c->path = path;
  c->op = op;
  c->dtype = c->variant = c->unit = "";
  if (!(c->file = fopen(path, "w")))
    return tool_fail("--csv: cannot create '%s': %s", path, strerror(errno));
  fputs("op,size,dtype,variant,impl,kernel,ms,throughput,unit,rel_err,check\n",
        c->file);
  fflush(c->file);
  return 0;
}

void bench_csv_columns(bench_csv *c, const char *dtype, const char *variant,
                       const char *unit) {
  if (!c)
    return;
  c->dtype = dtype;
  c->variant = variant;
  c->unit = unit;
}

void bench_csv_row(bench_csv *c, const bench_size *s, const char *impl,
                   const char *kernel, const tool_timing *t, double work,
                   double rel_err, const char *check) {
  if (!c)
    return;
  FILE *f = c->file;
  if (s->k)
    fprintf(f, "%s,%lldx%lldx%lld,", c->op, (long long)s->m, (long long)s->n,
            (long long)s->k);
  else
    fprintf(f, "%s,%lldx%lld,", c->op, (long long)s->m, (long long)s->n);
  put_field(f, c->dtype);
  fputc(',', f);
  put_field(f, c->variant);
  fputc(',', f);
  put_field(f, impl);
  fputc(',', f);
  put_field(f, kernel);
  if (t && t->median_ms > 0)
    fprintf(f, ",%.6g,%.6g,", t->median_ms,
            work / (t->median_ms * 1e-3) / 1e12);
  else
    fputs(",,,", f);
  put_field(f, c->unit);
  if (rel_err >= 0)
    fprintf(f, ",%.3g,", rel_err);
  else
    fputs(",,", f);
  put_field(f, check);
  fputc('\n', f);
  fflush(f);
}

void bench_csv_ours(const bench_env *env, const bench_size *s,
                    const tool_timing *t, double work, double rel_err, int pass,
                    const char *fail_word) {
  ptrdiff_t i = s - env->args->sizes;
  const char *config = env->args->tuned && i >= 0 && i < BENCH_MAX_SIZES
                           ? env->size_config[i]
                           : NULL;
  bench_csv_row(env->csv, s, env->args->tuned ? "ours-tuned" : "ours",
                config ? config : env->desc->name, t, work, rel_err,
                pass ? "pass" : fail_word);
}

void bench_csv_default(const bench_env *env, const bench_size *s,
                       const bench_default *d, double work) {
  switch (d->state) {
  case BENCH_DEFAULT_NONE:
    return;
  case BENCH_DEFAULT_TIMED:
    bench_csv_row(env->csv, s, "ours", env->desc->name, &d->t, work, -1,
                  "pass");
    return;
  case BENCH_DEFAULT_WRONG:
    bench_csv_row(env->csv, s, "ours", env->desc->name, NULL, work, -1,
                  "wrong");
    return;
  case BENCH_DEFAULT_REFUSED:
    bench_csv_row(env->csv, s, "ours", env->desc->name, NULL, work, -1,
                  "refused");
    return;
  }
}

int bench_csv_close(bench_csv *c) {
  if (!c || !c->file)
    return 0;
  int bad = ferror(c->file);
  if (fclose(c->file) != 0)
    bad = 1;
  c->file = NULL;
  return bad ? tool_fail("--csv: writing '%s' failed", c->path) : 0;
}
