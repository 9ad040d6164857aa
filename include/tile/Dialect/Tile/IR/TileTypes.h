//===- TileTypes.h - Types of the tile dialect ------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILETYPES_H
#define TILE_DIALECT_TILE_IR_TILETYPES_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.h.inc"

#endif // TILE_DIALECT_TILE_IR_TILETYPES_H
