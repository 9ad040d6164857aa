//===- TileOps.h - Operations of the tile dialect ---------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILEOPS_H
#define TILE_DIALECT_TILE_IR_TILEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Dialect/Tile/IR/TileAttrs.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileTypes.h"

#include "tile/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

namespace mlir::tile {
/// Whether a region of `op` holds an operation of the tile dialect.
bool holdsTileOps(Operation *op);

/// Whether an op nested in `scope` (or `scope` itself), other than `except`,
/// takes `v` as an operand.
bool usedWithin(Value v, Operation *scope, Operation *except = nullptr);

/// Whether `op` may write `v`: it says so, or says nothing of its effects.
bool mayWrite(Operation *op, Value v);

/// Whether a loop around `op` inside its tile.kernel holds a user of `v`
/// that `match` accepts: one that runs again before `op`'s next run.
bool usedInLoopAround(Value v, Operation *op,
                      llvm::function_ref<bool(Operation *)> match);

/// Whether `op` is a shorthand of the source language, which
/// tile-expand-shorthands rewrites into the ops it stands for: tile.let, a
/// copy `through` a shared tile, tile.index of an integer type, a gemm
/// whose transpose a parameter chooses, an allocation sized by parameter
/// names, a pipelined loop from an implied 0.
bool isSourceShorthand(Operation *op);
} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILEOPS_H
