//===- ParamSyntax.h - Custom syntax of kernel parameters -------*- C++ -*-===//
//
// The pieces of tile.kernel's and tile.pipelined's custom forms that name
// parameters: sizes written as an integer or a parameter name, and the
// `where` constraints and the `requires` contracts (the integer language of
// IntExpr.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_IR_PARAMSYNTAX_H
#define TILE_LIB_DIALECT_TILE_IR_PARAMSYNTAX_H

#include "tile/Dialect/Tile/IR/IntExpr.h"

#include "mlir/IR/OpImplementation.h"

namespace mlir::tile {

/// `128` or `BM` (an IntegerAttr or a #tile.param).
ParseResult parseSize(AsmParser &parser, Attribute &size);
void printSize(AsmPrinter &printer, Attribute size);

/// `[BM mod 64 == 0, THREADS == 2 * BM]` over the integer parameters
/// `names` (the symbols of each resulting one-constraint set: symbols, so
/// that `mod` and products of parameters stay expressible as affine sets).
ParseResult parseConstraints(AsmParser &parser, ArrayRef<StringRef> names,
                             SmallVectorImpl<Attribute> &sets);
void printConstraints(AsmPrinter &printer, ArrayAttr sets,
                      ArrayRef<StringRef> names);

/// Parses one leaf of an integer expression (a name, an operand) into
/// `expr`, a symbol.
using IntExprLeafParser = function_ref<ParseResult(AffineExpr &expr)>;

/// An integer expression (IntExpr.h) whose leaves `leaf` parses.
ParseResult parseIntExpr(AsmParser &parser, IntExprLeafParser leaf,
                         AffineExpr &expr);
/// `==`, `<=`, `>=`, `<` or `>`.
ParseResult parseRelation(AsmParser &parser, Relation &relation);

} // namespace mlir::tile

#endif // TILE_LIB_DIALECT_TILE_IR_PARAMSYNTAX_H
