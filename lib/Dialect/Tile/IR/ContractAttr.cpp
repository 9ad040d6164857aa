//===- ContractAttr.cpp - Shape contracts of kernels ---------------------===//
//
// A #tile.contract compares two integer expressions (IntExpr.h) over
// dimensions of memref arguments, integer parameters and integers.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileAttrs.h"

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

ContractAttr ContractAttr::foldIntegerOperands() {
  MLIRContext *ctx = getContext();
  SmallVector<AffineExpr> symbols;
  SmallVector<Attribute> kept;
  for (Attribute operand : getOperands()) {
    if (auto integer = dyn_cast<IntegerAttr>(operand)) {
      symbols.push_back(getAffineConstantExpr(integer.getInt(), ctx));
    } else {
      symbols.push_back(getAffineSymbolExpr(kept.size(), ctx));
      kept.push_back(operand);
    }
  }
  AffineMap sides =
      getSides().replaceDimsAndSymbols({}, symbols, 0, kept.size());
  return ContractAttr::get(ctx, getRelation(), simplifyAffineMap(sides),
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
