//===- IntExpr.cpp - Integer expressions of constraints and contracts ----===//
//
// expr := product (('+' | '-') product)*
// product := primary (('*' | 'floordiv' | 'ceildiv' | 'mod') primary)*
// primary := integer | '-' primary | '(' expr ')' | leaf
//
// The caller parses the leaves (parameter names, `%X[1]`) into symbols.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/IntExpr.h"
#include "ParamSyntax.h"

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

static constexpr StringRef kOperatorWords[] = {"floordiv", "ceildiv", "mod"};

bool tile::isIntExprKeyword(StringRef word) {
  return llvm::is_contained(kOperatorWords, word);
}

//===----------------------------------------------------------------------===//
// Relations
//===----------------------------------------------------------------------===//

static constexpr StringRef kRelationNames[] = {"eq", "le", "ge", "lt", "gt"};
static constexpr StringRef kRelationSigns[] = {"==", "<=", ">=", "<", ">"};

StringRef tile::getRelationName(Relation relation) {
  return kRelationNames[static_cast<int>(relation)];
}

StringRef tile::getRelationSign(Relation relation) {
  return kRelationSigns[static_cast<int>(relation)];
}

std::optional<Relation> tile::getRelationByName(StringRef name) {
  const StringRef *it = llvm::find(kRelationNames, name);
  if (it == std::end(kRelationNames))
    return std::nullopt;
  return static_cast<Relation>(it - std::begin(kRelationNames));
}

bool tile::relationHolds(Relation relation, int64_t lhs, int64_t rhs) {
  switch (relation) {
  case Relation::Eq:
    return lhs == rhs;
  case Relation::Le:
    return lhs <= rhs;
  case Relation::Ge:
    return lhs >= rhs;
  case Relation::Lt:
    return lhs < rhs;
  case Relation::Gt:
    return lhs > rhs;
  }
  llvm_unreachable("unknown relation");
}

ParseResult tile::parseRelation(AsmParser &parser, Relation &relation) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalEqual())) {
    relation = Relation::Eq;
    return parser.parseEqual();
  }
  if (succeeded(parser.parseOptionalLess())) {
    relation =
        succeeded(parser.parseOptionalEqual()) ? Relation::Le : Relation::Lt;
    return success();
  }
  if (succeeded(parser.parseOptionalGreater())) {
    relation =
        succeeded(parser.parseOptionalEqual()) ? Relation::Ge : Relation::Gt;
    return success();
  }
  return parser.emitError(loc, "expected ==, <=, >=, < or >");
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
struct ExprParser {
  AsmParser &parser;
  IntExprLeafParser leaf;

  ParseResult parsePrimary(AffineExpr &expr) {
    if (succeeded(parser.parseOptionalLParen()))
      return failure(parseSum(expr) || parser.parseRParen());
    if (succeeded(parser.parseOptionalMinus())) {
      if (parsePrimary(expr))
        return failure();
      expr = -expr;
      return success();
    }
    int64_t value;
    OptionalParseResult isInt = parser.parseOptionalInteger(value);
    if (isInt.has_value()) {
      if (failed(*isInt))
        return failure();
      expr = getAffineConstantExpr(value, parser.getContext());
      return success();
    }
    return leaf(expr);
  }

  ParseResult parseProduct(AffineExpr &expr) {
    if (parsePrimary(expr))
      return failure();
    while (true) {
      AffineExpr rhs;
      if (succeeded(parser.parseOptionalStar())) {
        if (parsePrimary(rhs))
          return failure();
        expr = getAffineBinaryOpExpr(AffineExprKind::Mul, expr, rhs);
        continue;
      }
      StringRef word;
      if (succeeded(parser.parseOptionalKeyword(&word, kOperatorWords))) {
        if (parsePrimary(rhs))
          return failure();
        AffineExprKind kind = word == "mod"        ? AffineExprKind::Mod
                              : word == "floordiv" ? AffineExprKind::FloorDiv
                                                   : AffineExprKind::CeilDiv;
        expr = getAffineBinaryOpExpr(kind, expr, rhs);
        continue;
      }
      return success();
    }
  }

  ParseResult parseSum(AffineExpr &expr) {
    if (parseProduct(expr))
      return failure();
    while (true) {
      AffineExpr rhs;
      bool plus = succeeded(parser.parseOptionalPlus());
      if (!plus && failed(parser.parseOptionalMinus()))
        return success();
      if (parseProduct(rhs))
        return failure();
      expr =
          getAffineBinaryOpExpr(AffineExprKind::Add, expr, plus ? rhs : -rhs);
    }
  }
};
} // namespace

ParseResult tile::parseIntExpr(AsmParser &parser, IntExprLeafParser leaf,
                               AffineExpr &expr) {
  return ExprParser{parser, leaf}.parseSum(expr);
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

int64_t tile::getPostfixLength(AffineExpr expr) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return 1;
  AffineExpr rhs = bin.getRHS();
  if (bin.getKind() == AffineExprKind::Add)
    if (AffineExpr negated = getNegatedTerm(rhs))
      rhs = negated;
  return getPostfixLength(bin.getLHS()) + getPostfixLength(rhs) + 1;
}

StringRef tile::getIntExprOperator(AffineExprKind kind) {
  switch (kind) {
  case AffineExprKind::Add:
    return "+";
  case AffineExprKind::Mul:
    return "*";
  case AffineExprKind::Mod:
    return "mod";
  case AffineExprKind::FloorDiv:
    return "floordiv";
  case AffineExprKind::CeilDiv:
    return "ceildiv";
  default:
    llvm_unreachable("not a binary affine expression");
  }
}

/// Binding strength: sums bind loosest, products tighter, leaves tightest.
static int precedence(AffineExpr e) {
  if (e.getKind() == AffineExprKind::Add)
    return 1;
  return isa<AffineBinaryOpExpr>(e) ? 2 : 3;
}

AffineExpr tile::getNegatedTerm(AffineExpr e) {
  MLIRContext *ctx = e.getContext();
  // INT64_MIN has no positive counterpart: it stays an added constant.
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue() < 0 && c.getValue() != INT64_MIN
               ? getAffineConstantExpr(-c.getValue(), ctx)
               : AffineExpr();
  auto mul = dyn_cast<AffineBinaryOpExpr>(e);
  if (!mul || mul.getKind() != AffineExprKind::Mul)
    return AffineExpr();
  auto k = dyn_cast<AffineConstantExpr>(mul.getRHS());
  if (!k || k.getValue() >= 0 || k.getValue() == INT64_MIN)
    return AffineExpr();
  return k.getValue() == -1 ? mul.getLHS() : mul.getLHS() * -k.getValue();
}

void tile::printIntExpr(raw_ostream &os, AffineExpr expr,
                        function_ref<void(raw_ostream &, unsigned)> symbol) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
    os << c.getValue();
    return;
  }
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr)) {
    symbol(os, sym.getPosition());
    return;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  AffineExpr lhs = bin.getLHS(), rhs = bin.getRHS();
  // Operators associate to the left: a left operand of the same strength
  // needs no parentheses, a right one does.
  auto operand = [&](AffineExpr e, bool right) {
    bool parens = precedence(e) < precedence(expr) ||
                  (right && precedence(e) == precedence(expr));
    if (parens)
      os << '(';
    printIntExpr(os, e, symbol);
    if (parens)
      os << ')';
  };
  operand(lhs, false);
  if (bin.getKind() == AffineExprKind::Add) {
    if (AffineExpr negated = getNegatedTerm(rhs)) {
      os << " - ";
      operand(negated, true);
      return;
    }
  }
  os << ' ' << getIntExprOperator(bin.getKind()) << ' ';
  operand(rhs, true);
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

std::optional<int64_t> tile::evaluateIntExpr(AffineExpr expr,
                                             ArrayRef<int64_t> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue();
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return sym.getPosition() < symbols.size()
               ? std::optional<int64_t>(symbols[sym.getPosition()])
               : std::nullopt;
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return std::nullopt;
  std::optional<int64_t> l = evaluateIntExpr(bin.getLHS(), symbols);
  std::optional<int64_t> r = evaluateIntExpr(bin.getRHS(), symbols);
  if (!l || !r)
    return std::nullopt;
  switch (bin.getKind()) {
  case AffineExprKind::Add:
    return llvm::checkedAdd(*l, *r);
  case AffineExprKind::Mul:
    return llvm::checkedMul(*l, *r);
  case AffineExprKind::Mod:
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
    if (*r <= 0)
      return std::nullopt;
    if (bin.getKind() == AffineExprKind::Mod)
      return llvm::mod(*l, *r);
    return bin.getKind() == AffineExprKind::FloorDiv
               ? llvm::divideFloorSigned(*l, *r)
               : llvm::divideCeilSigned(*l, *r);
  default:
    return std::nullopt;
  }
}
