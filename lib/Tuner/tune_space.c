/*===- tune_space.c - Enumerating the configurations -----------------------===*
 *
 * Parses the kernel source once and asks the C API for the space and each
 * configuration's verdict (tile-c/Tune.h): nothing is compiled here.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "tune_internal.h"

#include "tile-c/Dialect/Tile.h"
#include "tile-c/Tune.h"
#include "tool_compile.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tune_verdict_name(tune_verdict v) {
  static const char *const names[TUNE_NUM_VERDICTS] = {
      "viable",        "constraint", "contract",      "refused",
      "shared-memory", "threads",    "compile-error", "compile-timeout",
      "spills",        "compiled",   "launch-error",  "wrong",
      "early-stop",    "measured"};
  return (unsigned)v < TUNE_NUM_VERDICTS ? names[v] : "?";
}

static void fill_options(MlirTileCompileOptions *o, const tune_request *r) {
  mlirTileCompileOptionsInitDefault(o);
  o->bindings = r->params;
  o->numBindings = (size_t)r->nparams;
}

int tune_space_open(tune_space *s, const tune_request *r) {
  memset(s, 0, sizeof *s);
  if (tune_request_problem(r, &s->problem) != 0 ||
      tool_read_file(r->mlir_path, &s->source) != 0)
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
      (size_t)r->naxes, mlirStringRefCreateFromCString(""), NULL,
      tool_append_string, NULL, &s->space_text);
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
  t->is_default = tune_is_default(s, t->config);
}

int tune_space_enumerate(tune_space *s, const tune_request *r,
                         int64_t smem_limit, int64_t threads_limit) {
  MlirTileCompileOptions options;
  fill_options(&options, r);
  MlirTileTuningLimits limits = {smem_limit, threads_limit};
  collect k = {s, 0};
  char shapes[256];
  tool_problem_arg_shapes(&s->problem, shapes, sizeof shapes);
  MlirLogicalResult ok = mlirTileEnumerateCandidates(
      s->module, mlirStringRefCreateFromCString(r->kernel), &options, r->axes,
      (size_t)r->naxes, mlirStringRefCreateFromCString(shapes), &limits, NULL,
      add_candidate, &k);
  if (mlirLogicalResultIsFailure(ok))
    return strcmp(s->problem.op, "problem") == 0
               ? tool_fail("cannot tune '%s' of %s on the problem given",
                           r->kernel, r->mlir_path)
               : tool_fail("cannot tune '%s' of %s on a %s problem", r->kernel,
                           r->mlir_path, s->problem.op);
  if (k.failed)
    return tool_fail("out of host memory enumerating the space");
  return 0;
}

/*===--- The parameter the problem decides -------------------------------===*/

/* The value of `param` after `kind` ("fixed" or "axis") in the space's
 * text, copied into `buf`; NULL when it has no such line. */
static const char *space_value(const tune_space *s, const char *kind,
                               const char *param, char *buf, size_t n) {
  size_t klen = strlen(kind), plen = strlen(param);
  for (const char *line = s->space_text.data; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    if (len > klen + plen + 1 && strncmp(line, kind, klen) == 0 &&
        line[klen] == ' ' && strncmp(line + klen + 1, param, plen) == 0 &&
        line[klen + 1 + plen] == '=') {
      size_t at = klen + plen + 2;
      snprintf(buf, n, "%.*s", (int)(len - at), line + at);
      return buf;
    }
    line = end ? end + 1 : NULL;
  }
  return NULL;
}

/* Whether the caller binds `param` (a `--param` of the request). */
static int caller_binds(const tune_request *r, const char *param) {
  size_t n = strlen(param);
  for (int i = 0; i < r->nparams; ++i)
    if (strncmp(r->params[i], param, n) == 0 && r->params[i][n] == '=')
      return 1;
  return 0;
}

/* Whether `kernel` is an instance of the module that binds `param`. */
static int instance_binds(MlirModule module, const char *kernel,
                          const char *param) {
  MlirStringRef name = mlirStringRefCreateFromCString(kernel);
  MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                            mlirStringRefCreateFromCString("tile.instance")))
      continue;
    MlirAttribute sym = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    if (mlirAttributeIsNull(sym) || !mlirAttributeIsAString(sym) ||
        !mlirStringRefEqual(mlirStringAttrGetValue(sym), name))
      continue;
    MlirAttribute bindings = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("bindings"));
    return !mlirAttributeIsNull(bindings) &&
           mlirAttributeIsADictionary(bindings) &&
           !mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(
               bindings, mlirStringRefCreateFromCString(param)));
  }
  return 0;
}

int tune_space_bind_flag(tune_space *s, tune_request *r) {
  const tool_problem_desc *d = &s->problem;
  const char *param = d->flag_param;
  if (!param)
    return 0;
  int want = d->flag_value != 0;
  const char *want_text = want ? "true" : "false";
  char have[64];
  if (space_value(s, "axis", param, have, sizeof have))
    return tool_fail("%s follows the problem, which wants %s: it is not "
                     "tuned",
                     param, d->flag_wants[want]);
  /* A kernel without the parameter: the check against the reference
   * decides. */
  if (!space_value(s, "fixed", param, have, sizeof have) ||
      strcmp(have, want_text) == 0)
    return 0;
  int by_caller = caller_binds(r, param);
  if (by_caller || instance_binds(s->module, r->kernel, param))
    return tool_fail("kernel '%s' has %s=%s (bound by %s), but the problem "
                     "wants %s",
                     r->kernel, param, have,
                     by_caller ? "the caller" : "the instance",
                     d->flag_wants[want]);
  if (r->nparams == TUNE_MAX_LIST)
    return tool_fail("at most %d bindings", TUNE_MAX_LIST - 1);
  const char *binding = d->flag_bindings[want];
  r->params[r->nparams++] = binding;
  tune_say(r, "binding %s: the problem wants %s\n", binding,
           d->flag_wants[want]);
  tune_space_free(s);
  return tune_space_open(s, r);
}

/* Whether `token` is one of the space-separated words of `config`. */
static int has_word(const char *config, const char *token, size_t len) {
  for (const char *at = config; (at = strstr(at, token)) != NULL; at += len)
    if ((at == config || at[-1] == ' ') && (at[len] == ' ' || !at[len]))
      return 1;
  return 0;
}

int tune_is_default(const tune_space *s, const char *config) {
  int defaults = 0;
  for (const char *line = s->space_text.data; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    if (len > 8 && strncmp(line, "default ", 8) == 0) {
      char token[256];
      snprintf(token, sizeof token, "%.*s", (int)(len - 8), line + 8);
      if (!has_word(config, token, strlen(token)))
        return 0;
      ++defaults;
    }
    line = end ? end + 1 : NULL;
  }
  return defaults > 0;
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
