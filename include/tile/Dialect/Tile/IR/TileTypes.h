//===- TileTypes.h - Types of the tile dialect ------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILETYPES_H
#define TILE_DIALECT_TILE_IR_TILETYPES_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.h.inc"

namespace mlir::tile {
/// The 8-bit floats tiles may hold (f8E4M3FN, f8E5M2): stored, moved by
/// copies that keep their type and read by tensor cores, never computed
/// with (tile.gemm's gemm_c6, the planner's scalar check).
inline bool isEightBitFloat(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(t);
}

/// Calls `check` on each op nested in `root` (`root` included, parents
/// first) with the type of each value it defines: its results and the
/// arguments of its regions' blocks. Stops at the first failure.
LogicalResult
checkValueTypes(Operation *root,
                function_ref<LogicalResult(Operation *, Type)> check);
} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILETYPES_H
