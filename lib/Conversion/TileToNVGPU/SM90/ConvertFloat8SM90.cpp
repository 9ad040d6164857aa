//===- ConvertFloat8SM90.cpp - 8-bit float conversions on sm_90a --------===//
//
// NVPTX has no arithmetic on 8-bit floats; sm_89 and later convert them in
// pairs (PTX ISA 9.7.9.21, cvt):
//
//   cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32  d, a, b   two f32 -> 16 bits
//   cvt.rn.f16x2.{e4m3x2,e5m2x2}          d, a      16 bits -> two f16
//
// A fragment register holds one element, so each conversion uses one half
// of the pair. Into 8 bits: the value goes through f32 (from f64 that is a
// double rounding, which is exact for a 3- or 2-bit mantissa since f32 has
// more than 2p + 2 bits), rounds to nearest even and saturates at the
// largest finite value; NaN stays NaN. Out of 8 bits: through f16, which
// holds every e4m3 and e5m2 value exactly.
//
//===----------------------------------------------------------------------===//

#include "FloatConvert.h"
#include "SM90.h"

#include "tile/Dialect/Tile/IR/TileTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;

Value sm90::convertEightBitFloat(OpBuilder &b, Location l, Value v,
                                 FloatType to) {
  auto from = dyn_cast<FloatType>(v.getType());
  if (!from || (!isEightBitFloat(from) && !isEightBitFloat(to)))
    return Value();
  if (from == to)
    return v;
  if (isEightBitFloat(from)) {
    // The byte in both halves of the pair; the low half is element 0.
    Value byte = arith::BitcastOp::create(b, l, b.getI8Type(), v);
    Value pair = vector::BroadcastOp::create(
        b, l, VectorType::get({2}, b.getI8Type()), byte);
    Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
        b, l, VectorType::get({2}, b.getF16Type()), pair, /*relu=*/false, from);
    Value half = vector::ExtractOp::create(b, l, halves, int64_t(0));
    if (isEightBitFloat(to))
      return convertEightBitFloat(b, l, half, to); // e4m3 <-> e5m2
    return convertFloat(b, l, half, to);
  }
  // The value is the pair's low byte (operand b); the high one converts 0.
  Value x = convertFloat(b, l, v, b.getF32Type());
  Value zero = arith::ConstantOp::create(b, l, b.getF32FloatAttr(0.0f));
  Value pair = NVVM::ConvertF32x2ToF8x2Op::create(
      b, l, b.getI16Type(), zero, x, NVVM::FPRoundingMode::RN,
      NVVM::SaturationMode::SATFINITE, /*relu=*/false, to);
  Value byte = arith::TruncIOp::create(b, l, b.getI8Type(), pair);
  return arith::BitcastOp::create(b, l, to, byte);
}
