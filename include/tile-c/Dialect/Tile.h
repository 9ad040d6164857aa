//===- Tile.h - C API: the tile dialect ---------------------------*- C -*-===//

#ifndef TILE_C_DIALECT_TILE_H
#define TILE_C_DIALECT_TILE_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Tile, tile);

/// Registers the tile dialect, the upstream dialects its pipelines produce and
/// their LLVM IR translations into `registry`.
MLIR_CAPI_EXPORTED void
mlirTileRegisterAllDialects(MlirDialectRegistry registry);

/// Registers the tile passes and the `tile-to-ptx` / `tile-to-cubin` pipelines
/// (once per process; later and concurrent calls do nothing).
MLIR_CAPI_EXPORTED void mlirTileRegisterPassesAndPipelines(void);

/// Parses `source` into a module like mlirModuleCreateParse, after checking
/// that it nests no deeper than the parser can take (kMaxSourceNesting, 256
/// brackets): deeper sources would overflow the caller's stack. Errors go to
/// the context's diagnostic handlers; the module is null after one.
MLIR_CAPI_EXPORTED MlirModule mlirTileModuleCreateParse(MlirContext context,
                                                        MlirStringRef source);

/// The same for the file at `path` ("-" reads standard input); diagnostics
/// name the file.
MLIR_CAPI_EXPORTED MlirModule
mlirTileModuleCreateParseFromFile(MlirContext context, MlirStringRef path);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_DIALECT_TILE_H
