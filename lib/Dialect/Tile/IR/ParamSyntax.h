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

#include <map>

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

/// While alive, what the parser knows of the tile.kernel whose body it is
/// reading: the arguments' types, and those of the tiles allocated so far
/// (recordTileType), so that tile ops can leave out their operands' types.
class KernelParseScope {
public:
  explicit KernelParseScope(ArrayRef<OpAsmParser::Argument> args);
  ~KernelParseScope();

  ArrayRef<OpAsmParser::Argument> args;
  std::map<std::pair<std::string, unsigned>, Type> tiles;

private:
  KernelParseScope *previous;
};

/// The type of the argument `operand` names, of the kernel being parsed.
std::optional<Type>
lookupKernelArgType(const OpAsmParser::UnresolvedOperand &operand);

/// Records `type` for result `result` of the op being parsed (an
/// allocation), inside a kernel's body.
void recordTileType(OpAsmParser &parser, unsigned result, Type type);

/// The type of the kernel argument or the recorded tile `operand` names.
std::optional<Type>
lookupOperandType(const OpAsmParser::UnresolvedOperand &operand);

/// `: T0 SEP0 T1 SEP1 T2` (`seps[i]` between types i and i + 1, "," or
/// "->"), or, with no `:`, the types of the operands as they were declared
/// (kernel arguments and allocated tiles). A null operand is absent, and
/// so is its type, with the separator before it. With `mayBeWritten`
/// false, the caller has seen that no `:` follows.
ParseResult
parseOperandTypes(OpAsmParser &parser,
                  ArrayRef<const OpAsmParser::UnresolvedOperand *> operands,
                  ArrayRef<StringRef> seps, ArrayRef<Type *> types,
                  bool mayBeWritten = true);
void printOperandTypes(OpAsmPrinter &printer, ArrayRef<Type> types,
                       ArrayRef<StringRef> seps);

} // namespace mlir::tile

#endif // TILE_LIB_DIALECT_TILE_IR_PARAMSYNTAX_H
