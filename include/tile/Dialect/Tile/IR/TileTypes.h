//===- TileTypes.h - Types of the tile dialect ------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILETYPES_H
#define TILE_DIALECT_TILE_IR_TILETYPES_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.h.inc"

namespace mlir::tile {
/// Calls `check` on each op nested in `root` (`root` included, parents
/// first) with the type of each value it defines: its results and the
/// arguments of its regions' blocks. Stops at the first failure.
LogicalResult
checkValueTypes(Operation *root,
                function_ref<LogicalResult(Operation *, Type)> check);
} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILETYPES_H
