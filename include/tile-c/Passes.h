//===- Passes.h - C API: tile passes ------------------------------*- C -*-===//
//
// `mlirRegisterTile<Pass>()`, `mlirCreateTile<Pass>()` and friends, generated
// from the passes' TableGen definitions.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_C_PASSES_H
#define TILE_C_PASSES_H

#include "mlir-c/Pass.h"

#include "tile/Conversion/Passes.capi.h.inc"
#include "tile/Dialect/Tile/Transforms/Passes.capi.h.inc"

#endif // TILE_C_PASSES_H
