/* Drives the tile C API from C: dialect registration, parsing, compilation
 * of a module of tile kernels to PTX, and the launch metadata. */
#include "tile-c/Compiler.h"
#include "tile-c/Dialect/Tile.h"
#include "tile-c/Passes.h"

#include "mlir-c/IR.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where the two callbacks of mlirTileCompile write. */
typedef struct Sinks {
  FILE *binary;
  FILE *metadata;
} Sinks;

static void onBinary(MlirStringRef s, void *user) {
  fwrite(s.data, 1, s.length, ((Sinks *)user)->binary);
}

static void onMetadata(MlirStringRef s, void *user) {
  fwrite(s.data, 1, s.length, ((Sinks *)user)->metadata);
}

static MlirModule parse(MlirContext ctx, const char *path) {
  return mlirTileModuleCreateParseFromFile(
      ctx, mlirStringRefCreateFromCString(path));
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: tile-capi-test FILE.mlir\n");
    return 2;
  }
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirTileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);
  mlirTileRegisterPassesAndPipelines();

  MlirDialect tile =
      mlirContextGetOrLoadDialect(ctx, mlirStringRefCreateFromCString("tile"));
  MlirStringRef ns = mlirDialectGetNamespace(tile);
  printf("dialect: %.*s\n", (int)ns.length, ns.data);

  /* A generated pass constructor exists and makes a pass. */
  MlirPass pass = mlirCreateTileConversionConvertTileToNVGPU();
  printf("pass created: %s\n", pass.ptr ? "yes" : "no");
  /* A pass manager owns the passes added to it: destroying it frees the
   * pass (a leak under LeakSanitizer otherwise). */
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, pass);
  mlirPassManagerDestroy(pm);

  MlirModule module = parse(ctx, argv[1]);
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "parse failed\n");
    return 1;
  }
  MlirTileCompileOptions options;
  mlirTileCompileOptionsInitDefault(&options);
  options.format = MlirTileOutputPtx;
  Sinks sinks = {tmpfile(), stdout};
  printf("--- metadata\n");
  MlirLogicalResult r =
      mlirTileCompile(module, &options, onBinary, onMetadata, &sinks);
  printf("--- status: %s\n", mlirLogicalResultIsSuccess(r) ? "ok" : "failed");
  /* The PTX, as the binary callback received it. */
  printf("--- ptx\n");
  long size = ftell(sinks.binary);
  rewind(sinks.binary);
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, sinks.binary)) > 0)
    fwrite(buffer, 1, n, stdout);
  printf("\n--- ptx bytes: %s\n", size > 0 ? "nonzero" : "zero");
  fclose(sinks.binary);
  mlirModuleDestroy(module);

  /* The resource estimate of one instance with a binding; then a binding
   * whose shared memory does not fit, refused. */
  const char *bindings[] = {"STAGES=3"};
  const char *kernels[] = {"gemm_bf16"};
  options.bindings = bindings;
  options.numBindings = 1;
  options.kernels = kernels;
  options.numKernels = 1;
  module = parse(ctx, argv[1]);
  printf("--- resources\n");
  MlirLogicalResult e =
      mlirTileEstimateResources(module, &options, onMetadata, &sinks);
  printf("--- status: %s\n", mlirLogicalResultIsSuccess(e) ? "ok" : "failed");
  mlirModuleDestroy(module);
  const char *tooBig[] = {"BK=128"};
  options.bindings = tooBig;
  module = parse(ctx, argv[1]);
  e = mlirTileEstimateResources(module, &options, onMetadata, &sinks);
  printf("--- over the limit: %s\n",
         mlirLogicalResultIsSuccess(e) ? "ok" : "failed");
  mlirModuleDestroy(module);

  /* A source nested deeper than the parser can take is refused with an
   * error (on stderr), not a stack overflow. */
  enum { kDepth = 100000 };
  char *deep = malloc(2 * kDepth + 64);
  int len = sprintf(deep, "module attributes {a = ");
  memset(deep + len, '[', kDepth);
  memset(deep + len + kDepth, ']', kDepth);
  strcpy(deep + len + 2 * kDepth, "} {}");
  module = mlirTileModuleCreateParse(ctx, mlirStringRefCreateFromCString(deep));
  printf("--- deep source: %s\n",
         mlirModuleIsNull(module) ? "refused" : "parsed");
  free(deep);

  /* A source that is not NUL-terminated (an MlirStringRef into a larger
   * buffer) is parsed within its length: the lexer must not read past it
   * (under ASan, a heap overflow otherwise). */
  static const char kUnterminated[] = "tile.kernele.ketile.ke";
  char *exact = malloc(sizeof kUnterminated - 1);
  memcpy(exact, kUnterminated, sizeof kUnterminated - 1);
  module = mlirTileModuleCreateParse(
      ctx, mlirStringRefCreate(exact, sizeof kUnterminated - 1));
  printf("--- unterminated source: %s\n",
         mlirModuleIsNull(module) ? "refused" : "parsed");
  free(exact);
  mlirContextDestroy(ctx);
  return mlirLogicalResultIsSuccess(r) ? 0 : 1;
}
