/*===- tune_cache.c - The tuning cache's key and record --------------------===*
 *
 * Key: everything that changes the answer (docs/Tuning.md): the kernel
 * source, the kernel, its space (axes and fixed values, which carry the
 * caller's bindings and the element types), the operator and shape (with
 * the GELU form, or attention's causal flag), the GPU (name, compute
 * capability, SM count), the driver's CUDA version, the limits, and the
 * compiler's build (with its ptxas). Entry: a JSON record (the best
 * configuration, every candidate's verdict and time) and the best's cubin
 * and kernel info, so a hit launches without compiling.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "tune_internal.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void copy_out(MlirStringRef s, void *user) {
  tool_buffer_append(user, s.data, s.length);
}

/* An entry is checked for integrity, not for who wrote it: whoever may
 * write the cache directory decides what a hit launches. The cache creates
 * its directory private to the user (mode 0700); an existing default one
 * that others may write, or that another user owns, is reported once. */
static void warn_if_shared(const char *dir) {
  static atomic_int warned;
  struct stat st;
  if (stat(dir, &st) != 0)
    return;
  int writable = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
  int foreign = st.st_uid != geteuid();
  if ((!writable && !foreign) || atomic_exchange(&warned, 1))
    return;
  fprintf(stderr,
          "warning: the cache directory %s is %s (mode %03o): whoever may "
          "write it decides what the cached kernels run; make it the user's "
          "alone (chmod 700) or pass --cache-dir\n",
          dir, foreign ? "owned by another user" : "writable by other users",
          (unsigned)(st.st_mode & 0777));
}

const char *tune_cache_dir(const tune_request *r, char *buf, size_t n) {
  if (r->cache_dir) {
    snprintf(buf, n, "%s", r->cache_dir);
    return buf;
  }
  tool_buffer dir = {0};
  mlirTileCacheGetDefaultDirectory(copy_out, &dir);
  snprintf(buf, n, "%.*s", (int)dir.size, dir.data ? dir.data : "");
  tool_buffer_free(&dir);
  if (buf[0])
    warn_if_shared(buf);
  return buf;
}

static void add(tune_key *k, const char *name, const char *value, size_t size) {
  k->c[k->n].name = mlirStringRefCreateFromCString(name);
  k->c[k->n].value = (MlirStringRef){value, size};
  ++k->n;
}

void tune_key_init(tune_key *k, const tune_request *r, const tune_space *s,
                   const tile_rt_device_info *dev) {
  memset(k, 0, sizeof *k);
  mlirTileCacheGetCompilerBuildId(copy_out, &k->build);
  /* The problem: the built-ins' sizes, or a whole description. */
  snprintf(k->op, sizeof k->op, "%s", s->problem.op);
  snprintf(k->shape, sizeof k->shape, "%s", s->problem.key);
  if (dev)
    snprintf(k->gpu, sizeof k->gpu, "%s|sm_%d%d|%d SMs|driver %d", dev->name,
             dev->cc_major, dev->cc_minor, dev->sm_count, dev->driver_version);
  else
    snprintf(k->gpu, sizeof k->gpu, "none");
  snprintf(k->limits, sizeof k->limits, "smem %lld threads %lld spills %lld",
           (long long)r->smem_limit, (long long)r->threads_limit,
           (long long)r->max_spill_bytes);
  add(k, "source", s->source.data, s->source.size);
  add(k, "kernel", r->kernel, strlen(r->kernel));
  add(k, "op", k->op, strlen(k->op));
  /* space_text ends with its NUL. */
  add(k, "space", s->space_text.data,
      s->space_text.size ? s->space_text.size - 1 : 0);
  add(k, "shape", k->shape, strlen(k->shape));
  add(k, "gpu", k->gpu, strlen(k->gpu));
  add(k, "limits", k->limits, strlen(k->limits));
  add(k, "compiler", k->build.data, k->build.size);
}

void tune_key_free(tune_key *k) { tool_buffer_free(&k->build); }

/*===--- Loading ----------------------------------------------------------===*/

typedef struct loaded {
  tune_result *out;
  tool_buffer best;
  int failed;
} loaded;

static void on_blob(MlirStringRef name, MlirStringRef data, void *user) {
  loaded *l = user;
  tool_buffer *into = NULL;
  if (name.length == 6 && memcmp(name.data, "binary", 6) == 0)
    into = &l->out->image;
  else if (name.length == 5 && memcmp(name.data, "kinfo", 5) == 0)
    into = &l->out->kinfo;
  else if (name.length == 4 && memcmp(name.data, "best", 4) == 0)
    into = &l->best;
  if (into && tool_buffer_append(into, data.data, data.length) != 0)
    l->failed = 1;
}

static void on_message(MlirStringRef s, void *user) {
  (void)user;
  fprintf(stderr, "warning: %.*s\n", (int)s.length, s.data);
}

int tune_cache_load(const tune_request *r, const tune_space *s,
                    const tile_rt_device_info *dev, tune_result *out) {
  char dir[4096];
  tune_cache_dir(r, dir, sizeof dir);
  if (!dir[0])
    return 0;
  tune_key k;
  tune_key_init(&k, r, s, dev);
  loaded l = {out, {0}, 0};
  MlirTileCacheResult res =
      mlirTileCacheLoad(mlirStringRefCreateFromCString(dir),
                        mlirStringRefCreateFromCString("tune"), k.c,
                        (size_t)k.n, NULL, on_blob, on_message, &l);
  tune_key_free(&k);
  /* "best": the configuration, a newline, the median in ms. */
  char text[1200] = "";
  if (l.best.size < sizeof text)
    memcpy(text, l.best.data ? l.best.data : "", l.best.size);
  tool_buffer_free(&l.best);
  char *nl = strchr(text, '\n');
  if (res != MlirTileCacheHit || l.failed || !nl || out->image.size == 0 ||
      out->kinfo.size == 0) {
    if (res == MlirTileCacheHit)
      fprintf(stderr, "warning: a tuning cache entry lacks its parts; "
                      "tuning again\n");
    tool_buffer_free(&out->image);
    tool_buffer_free(&out->kinfo);
    return 0;
  }
  *nl = '\0';
  snprintf(out->best, sizeof out->best, "%s", text);
  out->best_ms = strtod(nl + 1, NULL);
  out->from_cache = 1;
  return 1;
}

/*===--- Storing ----------------------------------------------------------===*/

/* Appends `s` as a JSON string. */
static void json_string(tool_buffer *b, const char *s) {
  tool_buffer_append(b, "\"", 1);
  for (; *s; ++s) {
    char esc[8];
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') {
      esc[0] = '\\';
      esc[1] = (char)ch;
      tool_buffer_append(b, esc, 2);
    } else if (ch < 0x20) {
      snprintf(esc, sizeof esc, "\\u%04x", ch);
      tool_buffer_append(b, esc, 6);
    } else {
      tool_buffer_append(b, s, 1);
    }
  }
  tool_buffer_append(b, "\"", 1);
}

static void json_text(tool_buffer *b, const char *s) {
  tool_buffer_append(b, s, strlen(s));
}

static void json_number(tool_buffer *b, double v) {
  char num[64];
  snprintf(num, sizeof num, "%.6g", v);
  json_text(b, num);
}

void tune_cache_store(const tune_request *r, const tune_space *s,
                      const tile_rt_device_info *dev,
                      const tune_candidate *best, tune_result *out) {
  char dir[4096];
  tune_cache_dir(r, dir, sizeof dir);
  if (!dir[0]) {
    fprintf(stderr, "warning: no cache directory; the result is not kept\n");
    return;
  }
  tool_buffer rec = {0};
  char summary[2600];
  tune_key k;
  tune_key_init(&k, r, s, dev);
  snprintf(summary, sizeof summary, "tune %s %s %s on %s: %s (%.4f ms)",
           r->kernel, k.op, k.shape, dev ? dev->name : "none", best->config,
           best->ms);
  json_text(&rec, "{\"summary\": ");
  json_string(&rec, summary);
  json_text(&rec, ", \"best\": {\"config\": ");
  json_string(&rec, best->config);
  json_text(&rec, ", \"ms\": ");
  json_number(&rec, best->ms);
  json_text(&rec, "}, \"seconds\": ");
  json_number(&rec, out->seconds);
  /* The configurations the kernel's `where` excludes are counted, not
   * listed: a wide space has tens of thousands of them (softmax: 66564 of
   * 67392), and every lookup parses the record. */
  int excluded = 0;
  for (int i = 0; i < s->n; ++i)
    excluded += s->c[i].verdict == TUNE_CONSTRAINT;
  json_text(&rec, ", \"constraint\": ");
  json_number(&rec, excluded);
  json_text(&rec, ", \"candidates\": [");
  int listed = 0;
  for (int i = 0; i < s->n; ++i) {
    const tune_candidate *c = &s->c[i];
    if (c->verdict == TUNE_CONSTRAINT)
      continue;
    json_text(&rec, listed++ ? ", {\"config\": " : "{\"config\": ");
    json_string(&rec, c->config);
    json_text(&rec, ", \"verdict\": ");
    json_string(&rec, tune_verdict_name(c->verdict));
    if (c->ms > 0) {
      json_text(&rec, ", \"ms\": ");
      json_number(&rec, c->ms);
      /* Whose time: the final round's (in turns) or the first pass's. */
      json_text(&rec, c->finalist ? ", \"timed\": \"final\""
                                  : ", \"timed\": \"first\"");
    }
    if (c->is_default)
      json_text(&rec, ", \"default\": true");
    if (c->verdict >= TUNE_COMPILED) {
      json_text(&rec, ", \"registers\": ");
      json_number(&rec, c->registers);
      json_text(&rec, ", \"spill_bytes\": ");
      json_number(&rec, c->spill_bytes);
      json_text(&rec, ", \"rel_err\": ");
      json_number(&rec, c->rel_err);
    }
    if (c->smem > 0) {
      json_text(&rec, ", \"shared_bytes\": ");
      json_number(&rec, (double)c->smem);
    }
    if (c->message[0]) {
      json_text(&rec, ", \"message\": ");
      json_string(&rec, c->message);
    }
    json_text(&rec, "}");
  }
  json_text(&rec, "]}");

  char bestText[1200];
  int bestLen =
      snprintf(bestText, sizeof bestText, "%s\n%.17g", best->config, best->ms);
  MlirTileCacheBlob blobs[3] = {
      {mlirStringRefCreateFromCString("binary"),
       (MlirStringRef){best->image.data, best->image.size}},
      {mlirStringRefCreateFromCString("kinfo"),
       (MlirStringRef){best->kinfo.data, best->kinfo.size}},
      {mlirStringRefCreateFromCString("best"),
       (MlirStringRef){bestText, (size_t)bestLen}}};
  if (mlirLogicalResultIsFailure(mlirTileCacheStore(
          mlirStringRefCreateFromCString(dir),
          mlirStringRefCreateFromCString("tune"), k.c, (size_t)k.n,
          (MlirStringRef){rec.data, rec.size}, blobs, 3, on_message, NULL)))
    fprintf(stderr, "warning: the tuning result is not kept\n");
  tune_key_free(&k);
  tool_buffer_free(&rec);
}
