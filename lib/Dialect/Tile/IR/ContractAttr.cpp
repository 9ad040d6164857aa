//===- ContractAttr.cpp - Shape contracts of kernels ---------------------===//
//
// A #tile.contract compares two integer expressions (IntExpr.h) over
// dimensions of memref arguments, integer parameters and integers.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileAttrs.h"
#include "tile/Dialect/Tile/IR/TileParams.h"

#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace mlir::tile;

Relation ContractAttr::getRelationKind() {
  std::optional<Relation> relation = getRelationByName(getRelation());
  assert(relation && "a verified contract has a known relation");
  return *relation;
}

std::optional<std::pair<int64_t, int64_t>> ContractAttr::getArgDim(unsigned i) {
  auto dim = dyn_cast<DenseI64ArrayAttr>(getOperands()[i]);
  if (!dim || dim.size() != 2)
    return std::nullopt;
  return std::make_pair(dim[0], dim[1]);
}

ContractAttr ContractAttr::foldIntegerOperands(std::string &why) {
  MLIRContext *ctx = getContext();
  SmallVector<AffineExpr> symbols;
  SmallVector<Attribute> kept;
  SmallVector<std::optional<int64_t>> values;
  for (Attribute operand : getOperands()) {
    if (auto integer = dyn_cast<IntegerAttr>(operand)) {
      int64_t value = getParamInteger(integer);
      symbols.push_back(getAffineConstantExpr(value, ctx));
      values.push_back(value);
    } else {
      symbols.push_back(getAffineSymbolExpr(kept.size(), ctx));
      kept.push_back(operand);
      values.push_back(std::nullopt);
    }
  }
  for (AffineExpr side : getSides().getResults())
    if (std::optional<int64_t> divisor = findNonPositiveDivisor(
            side, [&](unsigned i) { return values[i]; })) {
      why = "it divides by " + std::to_string(*divisor) +
            " once the parameters are bound; a divisor must be positive";
      return ContractAttr();
    }
  AffineMap sides = simplifyAffineMap(
      getSides().replaceDimsAndSymbols({}, symbols, 0, kept.size()));
  // Folding wraps: the folded sides must compute what the checked
  // arithmetic does, the dimensions (kept symbols) at a few values.
  for (auto [before, after] :
       llvm::zip(getSides().getResults(), sides.getResults())) {
    auto original = [&](ArrayRef<int64_t> keptValues) {
      SmallVector<int64_t> all;
      unsigned next = 0;
      for (std::optional<int64_t> v : values)
        all.push_back(v ? *v : keptValues[next++]);
      return evaluateIntExpr(before, all);
    };
    if (!foldsExactly(after, kept.size(), original)) {
      why = "its integers pass 64 bits (|x| <= 9223372036854775807) once "
            "the parameters are bound";
      return ContractAttr();
    }
  }
  return ContractAttr::get(ctx, getRelation(), sides,
                           ArrayAttr::get(ctx, kept));
}

std::optional<std::pair<int64_t, int64_t>>
ContractAttr::evaluate(function_ref<std::optional<int64_t>(unsigned)> value) {
  SmallVector<int64_t> symbols;
  for (auto [i, operand] : llvm::enumerate(getOperands())) {
    std::optional<int64_t> v;
    if (auto integer = dyn_cast<IntegerAttr>(operand))
      v = integer.getInt();
    else
      v = value(i);
    if (!v)
      return std::nullopt;
    symbols.push_back(*v);
  }
  std::optional<int64_t> lhs =
      evaluateIntExpr(getSides().getResult(0), symbols);
  std::optional<int64_t> rhs =
      evaluateIntExpr(getSides().getResult(1), symbols);
  if (!lhs || !rhs)
    return std::nullopt;
  return std::make_pair(*lhs, *rhs);
}

void ContractAttr::printOperand(
    raw_ostream &os, unsigned i,
    function_ref<void(raw_ostream &, int64_t)> printArg) {
  Attribute operand = getOperands()[i];
  if (std::optional<std::pair<int64_t, int64_t>> dim = getArgDim(i)) {
    printArg(os, dim->first);
    os << '[' << dim->second << ']';
  } else if (auto ref = dyn_cast<ParamRefAttr>(operand)) {
    os << ref.getName();
  } else {
    os << cast<IntegerAttr>(operand).getInt();
  }
}

void ContractAttr::print(raw_ostream &os,
                         function_ref<void(raw_ostream &, int64_t)> printArg) {
  auto symbol = [&](raw_ostream &os, unsigned i) {
    printOperand(os, i, printArg);
  };
  printIntExpr(os, getSides().getResult(0), symbol);
  os << ' ' << getRelationSign(getRelationKind()) << ' ';
  printIntExpr(os, getSides().getResult(1), symbol);
}
