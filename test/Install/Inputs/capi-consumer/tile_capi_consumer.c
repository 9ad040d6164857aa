/* Compiles one kernel of FILE.mlir to PTX through the installed C API, then
 * reads its launch metadata with the installed runtime. No GPU needed.
 * Usage: tile-capi-consumer FILE.mlir KERNEL */
#include "tile-c/Compiler.h"
#include "tile-c/Dialect/Tile.h"
#include "tile-rt/tile_rt.h"

#include "mlir-c/IR.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Buffer {
  char *data;
  size_t size;
} Buffer;

/* What the two callbacks of mlirTileCompile fill. */
typedef struct Output {
  Buffer ptx;
  Buffer metadata;
} Output;

static void append(Buffer *b, MlirStringRef s) {
  char *grown = realloc(b->data, b->size + s.length + 1);
  if (!grown)
    abort();
  memcpy(grown + b->size, s.data, s.length);
  b->data = grown;
  b->size += s.length;
  b->data[b->size] = '\0';
}

static void onPtx(MlirStringRef s, void *user) {
  append(&((Output *)user)->ptx, s);
}

static void onMetadata(MlirStringRef s, void *user) {
  append(&((Output *)user)->metadata, s);
}

/* Prints the lines of `text` that start with `prefix`. */
static void printLines(const char *text, const char *prefix) {
  size_t n = strlen(prefix);
  for (const char *line = text; line && *line;) {
    const char *end = strchr(line, '\n');
    int length = end ? (int)(end - line) : (int)strlen(line);
    if (strncmp(line, prefix, n) == 0)
      printf("%.*s\n", length, line);
    line = end ? end + 1 : NULL;
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: tile-capi-consumer FILE.mlir KERNEL\n");
    return 2;
  }
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirTileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);
  mlirTileRegisterPassesAndPipelines();

  MlirModule module = mlirModuleCreateParseFromFile(
      ctx, mlirStringRefCreateFromCString(argv[1]));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "cannot parse %s\n", argv[1]);
    return 1;
  }
  MlirTileCompileOptions options;
  mlirTileCompileOptionsInitDefault(&options);
  options.format = MlirTileOutputPtx;
  const char *kernels[] = {argv[2]};
  options.kernels = kernels;
  options.numKernels = 1;
  Output out = {{NULL, 0}, {NULL, 0}};
  MlirLogicalResult compiled =
      mlirTileCompile(module, &options, onPtx, onMetadata, &out);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  printf("compile: %s\n",
         mlirLogicalResultIsSuccess(compiled) ? "ok" : "failed");
  if (!mlirLogicalResultIsSuccess(compiled))
    return 1;
  printLines(out.ptx.data, ".target");
  printLines(out.ptx.data, ".visible .entry");

  tile_rt_kernel_info *info = NULL;
  tile_rt_status status =
      tile_rt_kernel_info_parse(&info, out.metadata.data, out.metadata.size);
  int count = 0;
  if (status == TILE_RT_SUCCESS)
    status = tile_rt_kernel_info_count(&count, info);
  printf("kernel info: %s, %d kernel(s)\n", tile_rt_status_name(status),
         count);
  for (int i = 0; i < count; ++i) {
    const tile_rt_kernel_desc *desc = NULL;
    if (tile_rt_kernel_info_get(&desc, info, i) == TILE_RT_SUCCESS)
      printf("kernel %s block %u smem %u\n", desc->name, desc->block[0],
             desc->smem);
  }
  tile_rt_kernel_info_free(info);
  free(out.ptx.data);
  free(out.metadata.data);
  return status == TILE_RT_SUCCESS ? 0 : 1;
}
