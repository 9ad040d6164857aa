//===- ByteToFloat.cpp - 8-bit integers to floats without cvt -----------===//
//
// An int8 converted to a float is a conversion instruction per value
// (cvt.rn.f32.s16 after a sign extension: I2F, which sm_90 issues at a
// sixteenth of the rate of an integer or float add). A dequantising GEMM
// converts every weight it reads, so that rate bounds it (16x4096x4096
// W8A16 with the weights as register A: 29 us, against 21 us with the
// form below; docs/Performance.md, step 35).
//
// The form below uses a float whose unit in the last place is 1: the byte,
// offset to unsigned, goes into the low mantissa bits of 2^10 (f16) or
// 2^23 (f32), and subtracting that number plus the offset leaves the
// integer, exactly:
//
//   f16:  bits(0x6400 | u) = 1024 + u          x = that - (1024 + 128)
//   f32:  bits(0x4B000000 | u) = 2^23 + u      x = that - (2^23 + 128)
//
// with u = x + 128 = byte(x) ^ 0x80 for a signed x (u = byte(x) and no
// offset for an unsigned one). One xor (or: the magic's low byte is zero)
// and one subtraction; for f16 the xor and the subtraction go two values
// at a time once LLVM pairs them (lop3 and HADD2). bf16 has too short a
// mantissa for 256 consecutive integers: it goes through f32, as does f64.
//
//===----------------------------------------------------------------------===//

#include "ByteToFloat.h"
#include "FloatConvert.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tile;

/// `x` (i8; signed or not) as the float type `to`, exactly.
static Value byteToFloat(OpBuilder &b, Location l, Value x, FloatType to,
                         bool isSigned) {
  FloatType via = to.isF16() ? FloatType(b.getF16Type()) : b.getF32Type();
  unsigned bits = via.getWidth();
  uint64_t base = bits == 16 ? 0x6400 : 0x4B000000;
  double baseValue = bits == 16 ? 1024.0 : 8388608.0;
  uint64_t offset = isSigned ? 0x80 : 0;
  Type word = b.getIntegerType(bits);
  Value u = arith::ExtUIOp::create(b, l, word, x);
  Value magic = arith::ConstantOp::create(
      b, l, b.getIntegerAttr(word, static_cast<int64_t>(base | offset)));
  Value bitsValue = arith::XOrIOp::create(b, l, u, magic);
  Value shifted = arith::BitcastOp::create(b, l, via, bitsValue);
  Value bias = arith::ConstantOp::create(
      b, l, b.getFloatAttr(via, baseValue + static_cast<double>(offset)));
  Value value = arith::SubFOp::create(b, l, shifted, bias);
  return convertFloat(b, l, value, to);
}

void tile::lowerByteToFloatConversions(gpu::GPUFuncOp func) {
  SmallVector<Operation *> conversions;
  func.walk([&](Operation *op) {
    if (!isa<arith::SIToFPOp, arith::UIToFPOp>(op) ||
        !op->getOperand(0).getType().isInteger(8))
      return;
    auto to = dyn_cast<FloatType>(op->getResult(0).getType());
    if (to && (to.isF16() || to.isBF16() || to.isF32() || to.isF64()))
      conversions.push_back(op);
  });
  for (Operation *op : conversions) {
    OpBuilder b(op);
    Value v = byteToFloat(b, op->getLoc(), op->getOperand(0),
                          cast<FloatType>(op->getResult(0).getType()),
                          isa<arith::SIToFPOp>(op));
    op->getResult(0).replaceAllUsesWith(v);
    op->erase();
  }
}
