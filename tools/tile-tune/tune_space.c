/*===- tune_space.c - Enumerating the configurations -----------------------===*
 *
 * Parses the kernel source once and asks the C API for the space and each
 * configuration's verdict (tile-c/Tune.h): nothing is compiled here.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "tune_internal.h"

#include "tool_compile.h"
#include "tile-c/Dialect/Tile.h"
#include "tile-c/Tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tune_verdict_name(tune_verdict v) {
  static const char *const names[TUNE_NUM_VERDICTS] = {
      "viable",        "constraint",      "contract", "refused",
      "shared-memory",
      "threads",       "compile-error",   "compile-timeout",
      "spills",        "compiled",        "launch-error",
      "wrong",         "early-stop",      "measured"};
  return (unsigned)v < TUNE_NUM_VERDICTS ? names[v] : "?";
}

static void append_text(MlirStringRef s, void *user) {
  tool_buffer_append(user, s.data, s.length);
}

static void fill_options(MlirTileCompileOptions *o, const tune_request *r) {
  mlirTileCompileOptionsInitDefault(o);
  o->bindings = r->params;
  o->numBindings = (size_t)r->nparams;
}

int tune_space_open(tune_space *s, const tune_request *r) {
  memset(s, 0, sizeof *s);
  if (tool_read_file(r->mlir_path, &s->source) != 0)
    return 1;
  s->ctx = tool_mlir_context();
  /* From the file, so that diagnostics name it. */
  s->module = mlirTileModuleCreateParseFromFile(
      s->ctx, mlirStringRefCreateFromCString(r->mlir_path));
  if (mlirModuleIsNull(s->module))
    return tool_fail("cannot parse '%s'", r->mlir_path);
  MlirTileCompileOptions options;
  fill_options(&options, r);
  MlirLogicalResult ok = mlirTileEnumerateCandidates(
      s->module, mlirStringRefCreateFromCString(r->kernel), &options, r->axes,
      (size_t)r->naxes, mlirStringRefCreateFromCString(""), NULL, append_text,
      NULL, &s->space_text);
  if (mlirLogicalResultIsFailure(ok))
    return tool_fail("cannot tune '%s' of %s", r->kernel, r->mlir_path);
  tool_buffer_append(&s->space_text, "", 1); /* a C string */
  return 0;
}

typedef struct collect {
  tune_space *s;
  int failed;
} collect;

static void copy_ref(char *dst, size_t n, MlirStringRef s) {
  size_t len = s.length < n - 1 ? s.length : n - 1;
  memcpy(dst, s.data, len);
  dst[len] = '\0';
}

static void add_candidate(const MlirTileCandidate *c, void *user) {
  collect *k = user;
  tune_space *s = k->s;
  tune_candidate *grown = realloc(s->c, (size_t)(s->n + 1) * sizeof *grown);
  if (!grown) {
    k->failed = 1;
    return;
  }
  s->c = grown;
  tune_candidate *t = &s->c[s->n++];
  memset(t, 0, sizeof *t);
  copy_ref(t->config, sizeof t->config, c->config);
  copy_ref(t->message, sizeof t->message, c->message);
  t->verdict = (tune_verdict)c->status; /* the first six agree */
  t->smem = c->sharedBytes;
  t->threads = c->threads;
}

void tune_arg_shapes(const tune_request *r, char *buf, size_t n) {
  long long m = r->m, nn = r->n, k = r->k;
  if (strcmp(r->op, "softmax") == 0)
    snprintf(buf, n, "%lldx%lld;%lldx%lld", m, nn, m, nn);
  else if (strcmp(r->op, "gemm_bias_gelu") == 0)
    snprintf(buf, n, "%lldx%lld;%lldx%lld;%lld;%lldx%lld", m, k, k, nn, nn, m,
             nn);
  else
    snprintf(buf, n, "%lldx%lld;%lldx%lld;%lldx%lld", m, k, k, nn, m, nn);
}

int tune_space_enumerate(tune_space *s, const tune_request *r,
                         int64_t smem_limit, int64_t threads_limit) {
  MlirTileCompileOptions options;
  fill_options(&options, r);
  MlirTileTuningLimits limits = {smem_limit, threads_limit};
  collect k = {s, 0};
  char shapes[256];
  tune_arg_shapes(r, shapes, sizeof shapes);
  MlirLogicalResult ok = mlirTileEnumerateCandidates(
      s->module, mlirStringRefCreateFromCString(r->kernel), &options, r->axes,
      (size_t)r->naxes, mlirStringRefCreateFromCString(shapes), &limits, NULL,
      add_candidate, &k);
  if (mlirLogicalResultIsFailure(ok))
    return tool_fail("cannot tune '%s' of %s", r->kernel, r->mlir_path);
  if (k.failed)
    return tool_fail("out of host memory enumerating the space");
  return 0;
}

void tune_space_free(tune_space *s) {
  for (int i = 0; i < s->n; ++i) {
    tool_buffer_free(&s->c[i].image);
    tool_buffer_free(&s->c[i].kinfo);
  }
  free(s->c);
  if (!mlirModuleIsNull(s->module))
    mlirModuleDestroy(s->module);
  if (s->ctx.ptr)
    mlirContextDestroy(s->ctx);
  tool_buffer_free(&s->source);
  tool_buffer_free(&s->space_text);
  memset(s, 0, sizeof *s);
}
