//===- Dialect.cpp - C API: the tile dialect and its passes -------------===//

#include "tile-c/Dialect/Tile.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/InitAll.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Tile, tile, mlir::tile::TileDialect)

void mlirTileRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::tile::registerAllDialects(*unwrap(registry));
}

void mlirTileRegisterPassesAndPipelines(void) {
  mlir::tile::registerAllPasses();
}
