//===- TileAttrs.h - Layouts, parameter references, contracts --*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILEATTRS_H
#define TILE_DIALECT_TILE_IR_TILEATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "tile/Dialect/Tile/IR/IntExpr.h"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.h.inc"

#endif // TILE_DIALECT_TILE_IR_TILEATTRS_H
