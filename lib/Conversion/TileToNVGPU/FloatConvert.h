//===- FloatConvert.h - One float type to another, as arith does -*- C++
//-*-===//
//
// The conversion of copies between float types (copy_c8), also used by a
// target to reach the types its instructions take (SM90/ConvertFloat8SM90).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_FLOATCONVERT_H
#define TILE_CONVERSION_TILETONVGPU_FLOATCONVERT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::tile {

/// `v` converted to the float type `to` (arith.truncf / arith.extf
/// semantics); f16 <-> bf16 through f32, which holds both exactly.
inline Value convertFloat(OpBuilder &b, Location l, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  unsigned fromBits = from.getIntOrFloatBitWidth();
  unsigned toBits = to.getIntOrFloatBitWidth();
  if (fromBits == toBits)
    return arith::TruncFOp::create(
        b, l, to, arith::ExtFOp::create(b, l, b.getF32Type(), v));
  if (fromBits > toBits)
    return arith::TruncFOp::create(b, l, to, v);
  return arith::ExtFOp::create(b, l, to, v);
}

} // namespace mlir::tile

#endif // TILE_CONVERSION_TILETONVGPU_FLOATCONVERT_H
