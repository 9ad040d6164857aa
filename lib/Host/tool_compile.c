/*===- tool_compile.c - Getting a module: compile it, or read it ----------===*
 *
 * The only tool code that touches MLIR: it drives the C API of
 * include/tile-c (registration, parsing, mlirTileCompile).
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "tool_compile.h"

#include "tile-c/Compiler.h"
#include "tile-c/Dialect/Tile.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <string.h>

const char tool_source_usage[] =
    "  --chip CHIP        target chip (default sm_90a)\n"
    "  --features F       PTX features (default +ptx80)\n"
    "  --opt-level N      LLVM optimisation level (default 2)\n"
    "  --ptx              produce PTX for the driver to JIT, not a cubin\n"
    "  --emit-dir DIR     write DIR/<stem>.cubin (or .ptx) and "
    "DIR/<stem>.kinfo\n"
    "  --no-compile       skip compiling: load --image and --kinfo\n"
    "  --image FILE       the cubin or PTX to load (with --no-compile)\n"
    "  --kinfo FILE       its kernel info (with --no-compile)\n"
    "  --param NAME=VALUE bind a parameter of the kernel (repeatable; VALUE\n"
    "                     an integer, true, false or a type such as bf16)\n";

void tool_source_init(tool_source *s) {
  memset(s, 0, sizeof *s);
  s->opt_level = -1;
}

int tool_source_option(tool_source *s, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  const char **value = NULL;
  if (strcmp(a, "--ptx") == 0) {
    s->ptx = 1;
    return 1;
  }
  if (strcmp(a, "--no-compile") == 0) {
    s->no_compile = 1;
    return 1;
  }
  if (strcmp(a, "--chip") == 0)
    value = &s->chip;
  else if (strcmp(a, "--features") == 0)
    value = &s->features;
  else if (strcmp(a, "--emit-dir") == 0)
    value = &s->emit_dir;
  else if (strcmp(a, "--image") == 0)
    value = &s->image_path;
  else if (strcmp(a, "--kinfo") == 0)
    value = &s->kinfo_path;
  else if (strcmp(a, "--param") == 0) {
    if (s->nparams == TOOL_MAX_PARAMS) {
      tool_fail("at most %d --param bindings", TOOL_MAX_PARAMS);
      return -1;
    }
    value = &s->params[s->nparams++];
  } else if (strcmp(a, "--opt-level") != 0)
    return 0;
  if (*i + 1 >= argc) {
    tool_fail("%s needs a value", a);
    return -1;
  }
  const char *v = argv[++*i];
  if (value) {
    *value = v;
    return 1;
  }
  int64_t level;
  if (tool_parse_i64(&level, v, 0, 3) != 0) {
    tool_fail("--opt-level wants 0..3, got '%s'", v);
    return -1;
  }
  s->opt_level = (int)level;
  return 1;
}

int tool_source_validate(const tool_source *s) {
  if (s->no_compile) {
    if (!s->image_path || !s->kinfo_path)
      return tool_fail("--no-compile needs --image FILE and --kinfo FILE");
    if (s->emit_dir)
      return tool_fail("--emit-dir writes what is compiled; with "
                       "--no-compile nothing is");
    if (s->nparams)
      return tool_fail("--param binds what is compiled; with --no-compile "
                       "nothing is");
    return 0;
  }
  if (s->image_path || s->kinfo_path)
    return tool_fail("--image and --kinfo need --no-compile");
  if (!s->mlir_path)
    return tool_fail("no input: give FILE.mlir (or --no-compile --image F "
                     "--kinfo F)");
  return 0;
}

/* MlirStringCallback into a tool_buffer; a failed append is remembered. */
typedef struct tool_sink {
  tool_buffer *buffer;
  int failed;
} tool_sink;

static void tool_collect(MlirStringRef chunk, void *user) {
  tool_sink *sink = user;
  if (tool_buffer_append(sink->buffer, chunk.data, chunk.length) != 0)
    sink->failed = 1;
}

typedef struct tool_sinks {
  tool_sink image, kinfo;
} tool_sinks;

static void tool_collect_image(MlirStringRef chunk, void *user) {
  tool_collect(chunk, &((tool_sinks *)user)->image);
}

static void tool_collect_kinfo(MlirStringRef chunk, void *user) {
  tool_collect(chunk, &((tool_sinks *)user)->kinfo);
}

void tool_append_string(MlirStringRef s, void *user) {
  tool_buffer_append(user, s.data, s.length);
}

/* A diagnostic into the thread's last error as the default handler would
 * print it ("LOC: error: MESSAGE"), its notes on lines after, but for the
 * note that prints the whole operation (MLIR's "see current operation"). */
static MlirLogicalResult capture_diagnostic(MlirDiagnostic d, void *user) {
  static const char *const severity[] = {"error", "warning", "note", "remark"};
  static const char op_dump[] = "see current operation";
  tool_buffer message = {0};
  mlirDiagnosticPrint(d, tool_append_string, &message);
  if (message.data && strncmp(message.data, op_dump, strlen(op_dump)) != 0) {
    unsigned s = (unsigned)mlirDiagnosticGetSeverity(d);
    const char *name = s < 4 ? severity[s] : "error";
    tool_buffer line = {0};
    mlirLocationPrint(mlirDiagnosticGetLocation(d), tool_append_string, &line);
    tool_buffer_append(&line, ": ", 2);
    tool_buffer_append(&line, name, strlen(name));
    tool_buffer_append(&line, ": ", 2);
    tool_buffer_append(&line, message.data, message.size);
    if (line.data)
      tool_error_append(line.data, line.size);
    tool_buffer_free(&line);
  }
  tool_buffer_free(&message);
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); ++i)
    capture_diagnostic(mlirDiagnosticGetNote(d, i), user);
  return mlirLogicalResultSuccess();
}

MlirContext tool_mlir_context(void) {
  /* Registering the passes is idempotent; the first call does it. */
  mlirTileRegisterPassesAndPipelines();
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirTileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);
  if (tool_errors_captured())
    mlirContextAttachDiagnosticHandler(ctx, capture_diagnostic, NULL, NULL);
  return ctx;
}

int tool_compile_file(MlirContext ctx, const char *path,
                      const MlirTileCompileOptions *options, tool_buffer *image,
                      tool_buffer *kinfo) {
  /* Parse from the file so that diagnostics name it; errors are printed
   * by the context's default handler. */
  MlirModule module = mlirTileModuleCreateParseFromFile(
      ctx, mlirStringRefCreateFromCString(path));
  if (mlirModuleIsNull(module))
    return tool_fail("cannot parse '%s'", path);
  tool_sinks sinks = {{image, 0}, {kinfo, 0}};
  MlirLogicalResult result = mlirTileCompile(
      module, options, tool_collect_image, tool_collect_kinfo, &sinks);
  mlirModuleDestroy(module);
  if (mlirLogicalResultIsFailure(result))
    return tool_fail("compiling '%s' failed", path);
  if (sinks.image.failed || sinks.kinfo.failed)
    return tool_fail("out of memory collecting the compiled module");
  if (image->size == 0)
    return tool_fail("compiling '%s' produced no binary", path);
  return 0;
}

static int tool_compile(const tool_source *s, tool_buffer *image,
                        tool_buffer *kinfo) {
  /* Fail early and plainly on a missing file; MLIR's message comes later. */
  FILE *probe = fopen(s->mlir_path, "rb");
  if (!probe)
    return tool_fail("cannot open '%s'", s->mlir_path);
  fclose(probe);

  double start = tool_now();
  MlirContext ctx = tool_mlir_context();
  MlirTileCompileOptions options;
  mlirTileCompileOptionsInitDefault(&options);
  if (s->chip)
    options.chip = s->chip;
  if (s->features)
    options.features = s->features;
  if (s->opt_level >= 0)
    options.optLevel = s->opt_level;
  options.format = s->ptx ? MlirTileOutputPtx : MlirTileOutputCubin;
  options.bindings = s->params;
  options.numBindings = (size_t)s->nparams;
  const char *kernels[2] = {s->kernel, s->reference};
  if (s->nparams && s->kernel) {
    options.kernels = kernels;
    options.numKernels = s->reference ? 2 : 1;
  }
  int rc = tool_compile_file(ctx, s->mlir_path, &options, image, kinfo);
  mlirContextDestroy(ctx);
  if (rc == 0)
    printf("compiled %s in %.3f s: %s of %zu bytes, kernel info of %zu "
           "bytes\n",
           s->mlir_path, tool_now() - start, s->ptx ? "PTX" : "cubin",
           image->size, kinfo->size);
  return rc;
}

static int tool_emit(const tool_source *s, const tool_buffer *image,
                     const tool_buffer *kinfo) {
  char stem[256], path[4096];
  tool_path_stem(stem, sizeof stem, s->mlir_path);
  if (tool_make_dir(s->emit_dir) != 0)
    return 1;
  snprintf(path, sizeof path, "%s/%s.%s", s->emit_dir, stem,
           s->ptx ? "ptx" : "cubin");
  if (tool_write_file(path, image->data, image->size) != 0)
    return 1;
  printf("wrote %s\n", path);
  snprintf(path, sizeof path, "%s/%s.kinfo", s->emit_dir, stem);
  if (tool_write_file(path, kinfo->data, kinfo->size) != 0)
    return 1;
  printf("wrote %s\n", path);
  return 0;
}

int tool_source_load(const tool_source *s, tool_buffer *image,
                     tool_buffer *kinfo) {
  if (s->no_compile) {
    if (tool_read_file(s->image_path, image) != 0 ||
        tool_read_file(s->kinfo_path, kinfo) != 0)
      return 1;
    printf("loaded %s (%zu bytes) and %s (%zu bytes)\n", s->image_path,
           image->size, s->kinfo_path, kinfo->size);
    return 0;
  }
  if (tool_compile(s, image, kinfo) != 0)
    return 1;
  return s->emit_dir ? tool_emit(s, image, kinfo) : 0;
}
