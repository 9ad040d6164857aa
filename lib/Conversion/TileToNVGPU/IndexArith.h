//===- IndexArith.h - Index arithmetic as arith ops ------------*- C++ -*-===//
//
// The arithmetic of the layout models (SwizzledPanels.h) on `index` values:
// each operation an arith op at the builder's insertion point, constants
// from the caller (the emitter's own), so that one template gives both the
// planner's integers and the lowering's code.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_INDEXARITH_H
#define TILE_CONVERSION_TILETONVGPU_INDEXARITH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::tile {

struct IndexArith {
  using Value = mlir::Value;
  OpBuilder &b;
  Location loc;
  function_ref<Value(int64_t)> makeConstant;

  Value constant(int64_t v) const { return makeConstant(v); }
  Value add(Value x, Value y) const {
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value mul(Value x, Value y) const {
    return arith::MulIOp::create(b, loc, x, y);
  }
  Value div(Value x, Value y) const {
    return arith::DivUIOp::create(b, loc, x, y);
  }
  Value rem(Value x, Value y) const {
    return arith::RemUIOp::create(b, loc, x, y);
  }
  Value bitXor(Value x, Value y) const {
    return arith::XOrIOp::create(b, loc, x, y);
  }
};

} // namespace mlir::tile

#endif // TILE_CONVERSION_TILETONVGPU_INDEXARITH_H
