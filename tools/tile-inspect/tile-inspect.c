/*===- tile-inspect.c - What the compiler makes of a kernel --------------===*
 *
 * Compiles FILE.mlir through the C API and shows, for a kernel author: the
 * IR after a pass (or every pass), the PTX, the SASS (the CUDA toolkit's
 * nvdisasm), and per kernel what it uses of the GPU: threads, registers,
 * spills, shared memory per pipeline stage and the instruction mix that
 * matters on Hopper. Needs no GPU.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "inspect_report.h"

#include "host_util.h"
#include "tool_compile.h"

#include "tile-c/Compiler.h"
#include "tile-c/Dialect/Tile.h"
#include "tile-c/Inspect.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: tile-inspect [options] FILE.mlir\n"
    "Shows what the compiler makes of the kernels of FILE.mlir (no GPU "
    "needed).\n"
    "\n"
    "what to show (default: --resources):\n"
    "  --ir-after PASS    the IR after pass PASS of the compile pipeline\n"
    "                     (its argument, e.g. tile-infer-layouts); 'all':\n"
    "                     after every pass; 'list': the pipeline itself\n"
    "  --ptx              the PTX\n"
    "  --sass             the SASS, through the CUDA toolkit's nvdisasm\n"
    "  --resources        per kernel: threads, registers, spills, shared\n"
    "                     memory per stage, instruction mix (PTX, and SASS\n"
    "                     when nvdisasm is found)\n"
    "  --which-nvdisasm   the nvdisasm --sass runs ($TILE_NVDISASM, else\n"
    "                     $CUDA_HOME/bin, $CUDA_PATH/bin, "
    "/usr/local/cuda/bin,\n"
    "                     PATH); exits 1 saying where it looked if none\n"
    "\n"
    "what to compile:\n"
    "  --kernel NAME      only this kernel or instance (repeatable)\n"
    "  --param NAME=VALUE bind a parameter (repeatable)\n"
    "  --chip CHIP        target chip (default sm_90a)\n"
    "  --features F       PTX features (default +ptx80)\n"
    "  --opt-level N      LLVM optimisation level (default 2)\n"
    "  -h, --help         this text\n";

enum {
  OPT_IR_AFTER = 256,
  OPT_PTX,
  OPT_SASS,
  OPT_RESOURCES,
  OPT_WHICH,
  OPT_KERNEL,
  OPT_PARAM,
  OPT_CHIP,
  OPT_FEATURES,
  OPT_OPT_LEVEL,
};

#define MAX_KERNELS 64

typedef struct inspect_options {
  const char *path;
  const char *ir_after;
  int ptx, sass, resources;
  const char *kernels[MAX_KERNELS];
  int nkernels;
  const char *params[TOOL_MAX_PARAMS];
  int nparams;
  const char *chip, *features;
  int opt_level;
} inspect_options;

static int parse_args(inspect_options *o, int argc, char **argv, int *which) {
  static const struct option longs[] = {
      {"ir-after", required_argument, NULL, OPT_IR_AFTER},
      {"ptx", no_argument, NULL, OPT_PTX},
      {"sass", no_argument, NULL, OPT_SASS},
      {"resources", no_argument, NULL, OPT_RESOURCES},
      {"which-nvdisasm", no_argument, NULL, OPT_WHICH},
      {"kernel", required_argument, NULL, OPT_KERNEL},
      {"param", required_argument, NULL, OPT_PARAM},
      {"chip", required_argument, NULL, OPT_CHIP},
      {"features", required_argument, NULL, OPT_FEATURES},
      {"opt-level", required_argument, NULL, OPT_OPT_LEVEL},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  o->opt_level = -1;
  *which = 0;
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
    switch (c) {
    case OPT_IR_AFTER:
      o->ir_after = optarg;
      break;
    case OPT_PTX:
      o->ptx = 1;
      break;
    case OPT_SASS:
      o->sass = 1;
      break;
    case OPT_RESOURCES:
      o->resources = 1;
      break;
    case OPT_WHICH:
      *which = 1;
      break;
    case OPT_KERNEL:
      if (o->nkernels == MAX_KERNELS)
        return tool_fail("at most %d --kernel options", MAX_KERNELS);
      o->kernels[o->nkernels++] = optarg;
      break;
    case OPT_PARAM:
      if (o->nparams == TOOL_MAX_PARAMS)
        return tool_fail("at most %d --param bindings", TOOL_MAX_PARAMS);
      o->params[o->nparams++] = optarg;
      break;
    case OPT_CHIP:
      o->chip = optarg;
      break;
    case OPT_FEATURES:
      o->features = optarg;
      break;
    case OPT_OPT_LEVEL: {
      int64_t level;
      if (tool_parse_i64(&level, optarg, 0, 3) != 0)
        return tool_fail("--opt-level wants 0..3, got '%s'", optarg);
      o->opt_level = (int)level;
      break;
    }
    case 'h':
      fputs(usage, stdout);
      exit(0);
    case ':':
      return tool_fail("%s needs a value", argv[optind - 1]);
    default:
      return tool_fail("unknown option '%s' (see --help)", argv[optind - 1]);
    }
  }
  if (*which)
    return 0;
  if (optind + 1 != argc)
    return tool_fail(optind == argc ? "no input: give FILE.mlir (see --help)"
                                    : "one FILE.mlir at a time");
  o->path = argv[optind];
  if (!o->ir_after && !o->ptx && !o->sass)
    o->resources = 1;
  return 0;
}

static void options_for(const inspect_options *o, MlirTileCompileOptions *c,
                        MlirTileOutputFormat format) {
  mlirTileCompileOptionsInitDefault(c);
  if (o->chip)
    c->chip = o->chip;
  if (o->features)
    c->features = o->features;
  if (o->opt_level >= 0)
    c->optLevel = o->opt_level;
  c->format = format;
  c->bindings = o->params;
  c->numBindings = (size_t)o->nparams;
  c->kernels = o->kernels;
  c->numKernels = (size_t)o->nkernels;
}

static void to_stdout(MlirStringRef s, void *user) {
  (void)user;
  fwrite(s.data, 1, s.length, stdout);
}

static void to_buffer(MlirStringRef s, void *user) {
  tool_buffer *b = user;
  if (tool_buffer_append(b, s.data, s.length) != 0) {
    fputs("tile-inspect: out of memory\n", stderr);
    exit(1);
  }
}

typedef struct compiled {
  tool_buffer binary, kinfo;
} compiled;

static MlirModule parse(MlirContext ctx, const char *path) {
  return mlirTileModuleCreateParseFromFile(
      ctx, mlirStringRefCreateFromCString(path));
}

/* What each step needs: a fresh module, since compiling changes it. */
static int compile_to(MlirContext ctx, const inspect_options *o,
                      MlirTileOutputFormat format, compiled *out) {
  MlirTileCompileOptions options;
  options_for(o, &options, format);
  return tool_compile_file(ctx, o->path, &options, &out->binary, &out->kinfo);
}

static int show_ir(MlirContext ctx, const inspect_options *o) {
  MlirTileCompileOptions options;
  options_for(o, &options, MlirTileOutputCubin);
  if (strcmp(o->ir_after, "list") == 0) {
    /* One pass argument per line, nested passes under their op; the
     * pipeline's anchor (depth 0) is left out. */
    tool_buffer text = {0};
    mlirTileCompilePipeline(ctx, &options, false, to_buffer, &text);
    int depth = 0, start = 1;
    for (size_t i = 0; i < text.size; ++i) {
      char c = ((const char *)text.data)[i];
      if (c == ',' || c == '(' || c == ')') {
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        if (!start)
          putchar('\n');
        start = 1;
        continue;
      }
      if (depth == 0)
        continue;
      if (start)
        printf("%*s", 2 * (depth - 1), "");
      start = 0;
      putchar(c);
    }
    if (!start)
      putchar('\n');
    tool_buffer_free(&text);
    return 0;
  }
  MlirModule module = parse(ctx, o->path);
  if (mlirModuleIsNull(module))
    return tool_fail("cannot parse '%s'", o->path);
  MlirLogicalResult r =
      mlirTileCompilePrintIR(module, &options, o->ir_after, to_stdout, NULL);
  mlirModuleDestroy(module);
  return mlirLogicalResultIsFailure(r) ? 1 : 0;
}

static int which_nvdisasm(void) {
  tool_buffer text = {0};
  MlirLogicalResult r = mlirTileFindDisassembler(to_buffer, &text);
  if (mlirLogicalResultIsSuccess(r))
    printf("%.*s\n", (int)text.size, (const char *)text.data);
  else
    fprintf(stderr, "tile-inspect: %.*s\n", (int)text.size,
            (const char *)text.data);
  tool_buffer_free(&text);
  return mlirLogicalResultIsSuccess(r) ? 0 : 1;
}

int main(int argc, char **argv) {
  tool_name = "tile-inspect";
  inspect_options o;
  int which;
  if (parse_args(&o, argc, argv, &which) != 0)
    return 2;
  if (which)
    return which_nvdisasm();

  MlirContext ctx = tool_mlir_context();
  int rc = 0;
  compiled ptx = {{0}, {0}}, cubin = {{0}, {0}};
  tool_buffer sass = {0}, planned = {0};
  int have_sass = 0;

  if (o.ir_after)
    rc = show_ir(ctx, &o);
  if (rc == 0 && (o.ptx || o.resources))
    rc = compile_to(ctx, &o, MlirTileOutputPtx, &ptx);
  if (rc == 0 && o.ptx)
    fwrite(ptx.binary.data, 1, ptx.binary.size, stdout);
  if (rc == 0 && (o.sass || o.resources))
    rc = compile_to(ctx, &o, MlirTileOutputCubin, &cubin);
  if (rc == 0 && (o.sass || o.resources)) {
    MlirLogicalResult r = mlirTileDisassemble(
        (MlirStringRef){cubin.binary.data, cubin.binary.size}, to_buffer,
        &sass);
    have_sass = mlirLogicalResultIsSuccess(r);
    if (o.sass) {
      if (have_sass)
        fwrite(sass.data, 1, sass.size, stdout);
      else
        rc =
            tool_fail("no SASS: %.*s", (int)sass.size, (const char *)sass.data);
    }
  }
  if (rc == 0 && o.resources) {
    MlirModule module = parse(ctx, o.path);
    if (mlirModuleIsNull(module)) {
      rc = tool_fail("cannot parse '%s'", o.path);
    } else {
      MlirTileCompileOptions options;
      options_for(&o, &options, MlirTileOutputCubin);
      if (mlirLogicalResultIsFailure(
              mlirTileEstimateResources(module, &options, to_buffer, &planned)))
        rc = tool_fail("planning '%s' failed", o.path);
      mlirModuleDestroy(module);
    }
    if (rc == 0) {
      inspect_inputs in = {&cubin.binary, &cubin.kinfo,
                           &ptx.binary,   have_sass ? &sass : NULL,
                           &planned,      have_sass ? NULL : &sass};
      rc = inspect_print_resources(&in);
    }
  }
  tool_buffer_free(&ptx.binary);
  tool_buffer_free(&ptx.kinfo);
  tool_buffer_free(&cubin.binary);
  tool_buffer_free(&cubin.kinfo);
  tool_buffer_free(&sass);
  tool_buffer_free(&planned);
  mlirContextDestroy(ctx);
  return rc;
}
