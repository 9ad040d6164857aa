//===- IntExpr.h - Integer expressions of constraints and contracts -*- C++
//-*-===//
//
// The integer language that a kernel's `where` constraints and `requires`
// contracts share: expressions over symbols (parameters, argument
// dimensions) with + - * floordiv ceildiv mod, held as AffineExprs whose
// symbols the caller names, compared by one of five relations.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_INTEXPR_H
#define TILE_DIALECT_TILE_IR_INTEXPR_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace mlir::tile {

/// How the two sides of a comparison relate.
enum class Relation { Eq, Le, Ge, Lt, Gt };

/// `eq`, `le`, `ge`, `lt`, `gt`: the relation's name in attributes and in
/// the kernel info.
StringRef getRelationName(Relation relation);
/// `==`, `<=`, `>=`, `<`, `>`: the relation in the custom syntax.
StringRef getRelationSign(Relation relation);
std::optional<Relation> getRelationByName(StringRef name);
/// Whether `lhs relation rhs`.
bool relationHolds(Relation relation, int64_t lhs, int64_t rhs);

/// Whether `word` is an operator of the language (`floordiv`, `ceildiv`,
/// `mod`), which cannot name a parameter.
bool isIntExprKeyword(StringRef word);

/// The value of `expr` with `symbols[i]` for symbol i, or std::nullopt when
/// the arithmetic overflows or divides by a value that is not positive.
std::optional<int64_t> evaluateIntExpr(AffineExpr expr,
                                       ArrayRef<int64_t> symbols);

/// `l kind r` (+, *, mod, floordiv, ceildiv) in checked arithmetic:
/// std::nullopt when it overflows or divides by a value that is not
/// positive.
std::optional<int64_t> applyIntOperator(AffineExprKind kind, int64_t l,
                                        int64_t r);

/// Whether `folded` (an expression AffineExpr built and simplified, over
/// `numSymbols` symbols) computes what `original` computes in checked
/// arithmetic at a few small symbol values: a fold whose constants wrapped
/// does not.
bool foldsExactly(
    AffineExpr folded, unsigned numSymbols,
    function_ref<std::optional<int64_t>(ArrayRef<int64_t>)> original);

/// The divisor of the first `floordiv`, `ceildiv` or `mod` of `expr` that is
/// not positive, given `value(i)` for the symbols whose value is known, or
/// std::nullopt when every divisor that can be computed is positive.
std::optional<int64_t>
findNonPositiveDivisor(AffineExpr expr,
                       function_ref<std::optional<int64_t>(unsigned)> value);

/// `lhs kind rhs`, built (and simplified), each symbol standing for a
/// magnitude of 1; a null expression after saying in `why` what is wrong:
/// the integers of the result pass 64 bits, or it divides by a constant
/// that is not positive.
AffineExpr combineIntExprs(AffineExprKind kind, AffineExpr lhs, AffineExpr rhs,
                           std::string &why);

/// Prints `expr` in the source syntax (`BM mod (THREADS floordiv 2)`),
/// `symbol` printing symbol i.
void printIntExpr(raw_ostream &os, AffineExpr expr,
                  function_ref<void(raw_ostream &, unsigned)> symbol);

/// The number of items of `expr` in postfix, a subtraction (an added
/// negated term, getNegatedTerm) counting as one operator: what the kernel
/// info's `require` line spends on it.
int64_t getPostfixLength(AffineExpr expr);

/// `+`, `*`, `mod`, `floordiv` or `ceildiv`: the operator of a binary
/// expression of that kind.
StringRef getIntExprOperator(AffineExprKind kind);

/// The operand that a sum prints after ` - `: `x` when `e` is `x * -1`,
/// `x * c` when it is `x * -c`, `c` when it is `-c`; a null expression
/// when `e` is no negated term.
AffineExpr getNegatedTerm(AffineExpr e);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_INTEXPR_H
