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

#ifdef __cplusplus
}
#endif

#endif // TILE_C_DIALECT_TILE_H
