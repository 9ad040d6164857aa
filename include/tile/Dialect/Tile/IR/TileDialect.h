//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILEDIALECT_H
#define TILE_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tile/Dialect/Tile/IR/TileDialect.h.inc"

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_H
