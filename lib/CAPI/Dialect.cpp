//===- Dialect.cpp - C API: the tile dialect and its passes -------------===//

#include "tile-c/Dialect/Tile.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/InitAll.h"
#include "tile/Support/SourceNesting.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

#include <mutex>

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Tile, tile, mlir::tile::TileDialect)

void mlirTileRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::tile::registerAllDialects(*unwrap(registry));
}

void mlirTileRegisterPassesAndPipelines(void) {
  // Once per process: the registries are global, and callers (a tuner's
  // compile threads) may ask concurrently.
  static std::once_flag once;
  std::call_once(once, [] { mlir::tile::registerAllPasses(); });
}

MlirModule mlirTileModuleCreateParse(MlirContext context,
                                     MlirStringRef source) {
  return wrap(
      mlir::tile::parseModule(unwrap(source), unwrap(context)).release());
}

MlirModule mlirTileModuleCreateParseFromFile(MlirContext context,
                                             MlirStringRef path) {
  return wrap(
      mlir::tile::parseModuleFile(unwrap(path), unwrap(context)).release());
}
