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
// Checked construction
//===----------------------------------------------------------------------===//

// AffineExpr folds constants as it builds and simplifies, in wrapping 64-bit
// arithmetic: `9223372036854775807 * 2` would become -2. A fold that wraps
// changes the value at small symbol values (the constants it folded are
// the value at 0, the coefficients the value at 1), so the folded
// expression is compared with the checked computation at a few points.

/// Whether `kind` divides (mod, floordiv, ceildiv): its divisor must be
/// positive.
static bool isDivision(AffineExprKind kind) {
  return kind == AffineExprKind::Mod || kind == AffineExprKind::FloorDiv ||
         kind == AffineExprKind::CeilDiv;
}

static constexpr int kSamples = 4;

/// Symbol i's value at sample `k`: all 0, all 1, all 2, then i + 3.
static int64_t sampleValue(int k, unsigned i) {
  return k < 3 ? k : int64_t(i) + 3;
}

bool tile::foldsExactly(
    AffineExpr folded, unsigned numSymbols,
    function_ref<std::optional<int64_t>(ArrayRef<int64_t>)> original) {
  SmallVector<int64_t> symbols(numSymbols);
  for (int k = 0; k < kSamples; ++k) {
    for (unsigned i = 0; i < numSymbols; ++i)
      symbols[i] = sampleValue(k, i);
    if (evaluateIntExpr(folded, symbols) != original(symbols))
      return false;
  }
  return true;
}

std::optional<int64_t> tile::findNonPositiveDivisor(
    AffineExpr expr, function_ref<std::optional<int64_t>(unsigned)> value) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return std::nullopt;
  if (std::optional<int64_t> bad = findNonPositiveDivisor(bin.getLHS(), value))
    return bad;
  if (std::optional<int64_t> bad = findNonPositiveDivisor(bin.getRHS(), value))
    return bad;
  if (!isDivision(bin.getKind()))
    return std::nullopt;
  // The divisor's value when every symbol in it is known.
  SmallVector<int64_t> symbols;
  bool known = true;
  bin.getRHS().walk([&](AffineExpr e) {
    if (auto sym = dyn_cast<AffineSymbolExpr>(e)) {
      std::optional<int64_t> v = value(sym.getPosition());
      known &= v.has_value();
      if (symbols.size() <= sym.getPosition())
        symbols.resize(sym.getPosition() + 1, 0);
      if (v)
        symbols[sym.getPosition()] = *v;
    }
  });
  if (!known)
    return std::nullopt;
  std::optional<int64_t> divisor = evaluateIntExpr(bin.getRHS(), symbols);
  if (divisor && *divisor <= 0)
    return divisor;
  return std::nullopt;
}

AffineExpr tile::combineIntExprs(AffineExprKind kind, AffineExpr lhs,
                                 AffineExpr rhs, std::string &why) {
  if (!lhs || !rhs)
    return AffineExpr(); // `why` says why already
  if (auto c = dyn_cast<AffineConstantExpr>(rhs);
      isDivision(kind) && c && c.getValue() <= 0) {
    why = "'" + getIntExprOperator(kind).str() + " " +
          std::to_string(c.getValue()) + "': the divisor must be positive";
    return AffineExpr();
  }
  AffineExpr result = getAffineBinaryOpExpr(kind, lhs, rhs);
  unsigned numSymbols = 0;
  for (AffineExpr e : {lhs, rhs})
    e.walk([&](AffineExpr leaf) {
      if (auto sym = dyn_cast<AffineSymbolExpr>(leaf))
        numSymbols = std::max(numSymbols, sym.getPosition() + 1);
    });
  auto checked = [&](ArrayRef<int64_t> symbols) -> std::optional<int64_t> {
    std::optional<int64_t> l = evaluateIntExpr(lhs, symbols);
    std::optional<int64_t> r = evaluateIntExpr(rhs, symbols);
    if (!l || !r)
      return std::nullopt;
    return applyIntOperator(kind, *l, *r);
  };
  // Integers alone must compute; with symbols, the fold must be exact.
  if ((numSymbols == 0 && !checked({})) ||
      !foldsExactly(result, numSymbols, checked)) {
    why = "its integers pass 64 bits (|x| <= 9223372036854775807)";
    return AffineExpr();
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
struct ExprParser {
  AsmParser &parser;
  IntExprLeafParser leaf;

  /// `expr = expr kind rhs`, or an error at `loc`, the operator.
  ParseResult combine(SMLoc loc, AffineExprKind kind, AffineExpr &expr,
                      AffineExpr rhs) {
    std::string why;
    AffineExpr result = combineIntExprs(kind, expr, rhs, why);
    if (!result)
      return parser.emitError(loc) << why;
    expr = result;
    return success();
  }

  /// An integer literal: at most 64 bits once negated when `negated`.
  OptionalParseResult parseLiteral(AffineExpr &expr, bool negated) {
    SMLoc loc = parser.getCurrentLocation();
    APInt value;
    OptionalParseResult isInt = parser.parseOptionalInteger(value);
    if (!isInt.has_value() || failed(*isInt))
      return isInt;
    // The parser gives a literal as a non-negative signed value.
    APInt wide = value.sext(value.getBitWidth() + 1);
    if (negated)
      wide.negate();
    if (wide.getSignificantBits() > 64 || wide.getSExtValue() == INT64_MIN)
      return parser.emitError(loc)
             << "the integer is out of the range an expression computes in "
             << "(|x| <= 9223372036854775807)";
    expr = getAffineConstantExpr(wide.getSExtValue(), parser.getContext());
    return success();
  }

  ParseResult parsePrimary(AffineExpr &expr) {
    if (succeeded(parser.parseOptionalLParen()))
      return failure(parseSum(expr) || parser.parseRParen());
    SMLoc loc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalMinus())) {
      OptionalParseResult isInt = parseLiteral(expr, /*negated=*/true);
      if (isInt.has_value())
        return *isInt;
      if (parsePrimary(expr))
        return failure();
      return combine(loc, AffineExprKind::Mul, expr,
                     getAffineConstantExpr(-1, parser.getContext()));
    }
    OptionalParseResult isInt = parseLiteral(expr, /*negated=*/false);
    if (isInt.has_value())
      return *isInt;
    return leaf(expr);
  }

  ParseResult parseProduct(AffineExpr &expr) {
    if (parsePrimary(expr))
      return failure();
    while (true) {
      AffineExpr rhs;
      SMLoc loc = parser.getCurrentLocation();
      if (succeeded(parser.parseOptionalStar())) {
        if (parsePrimary(rhs) || combine(loc, AffineExprKind::Mul, expr, rhs))
          return failure();
        continue;
      }
      StringRef word;
      if (succeeded(parser.parseOptionalKeyword(&word, kOperatorWords))) {
        if (parsePrimary(rhs))
          return failure();
        AffineExprKind kind = word == "mod"        ? AffineExprKind::Mod
                              : word == "floordiv" ? AffineExprKind::FloorDiv
                                                   : AffineExprKind::CeilDiv;
        if (combine(loc, kind, expr, rhs))
          return failure();
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
      SMLoc loc = parser.getCurrentLocation();
      bool plus = succeeded(parser.parseOptionalPlus());
      if (!plus && failed(parser.parseOptionalMinus()))
        return success();
      if (parseProduct(rhs))
        return failure();
      if (!plus && combine(loc, AffineExprKind::Mul, rhs,
                           getAffineConstantExpr(-1, parser.getContext())))
        return failure();
      if (combine(loc, AffineExprKind::Add, expr, rhs))
        return failure();
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
  return applyIntOperator(bin.getKind(), *l, *r);
}

std::optional<int64_t> tile::applyIntOperator(AffineExprKind kind, int64_t l,
                                              int64_t r) {
  switch (kind) {
  case AffineExprKind::Add:
    return llvm::checkedAdd(l, r);
  case AffineExprKind::Mul:
    return llvm::checkedMul(l, r);
  case AffineExprKind::Mod:
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
    if (r <= 0)
      return std::nullopt;
    if (kind == AffineExprKind::Mod)
      return llvm::mod(l, r);
    return kind == AffineExprKind::FloorDiv ? llvm::divideFloorSigned(l, r)
                                            : llvm::divideCeilSigned(l, r);
  default:
    return std::nullopt;
  }
}
