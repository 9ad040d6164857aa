//===- ByteToFloat.h - 8-bit integers to floats without cvt -----*- C++ -*-===//
//
// The conversions of 8-bit integers to floats that an emitted function
// holds (the dequantisation of int8 weights), as integer and float adds.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_BYTETOFLOAT_H
#define TILE_CONVERSION_TILETONVGPU_BYTETOFLOAT_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::tile {

/// Rewrites every scalar `arith.sitofp` / `arith.uitofp` of an i8 in `func`
/// into a float of 16, 32 or 64 bits (ByteToFloat.cpp).
void lowerByteToFloatConversions(gpu::GPUFuncOp func);

} // namespace mlir::tile

#endif // TILE_CONVERSION_TILETONVGPU_BYTETOFLOAT_H
