//===- SM90.h - Hopper (sm_90a) hardware facts -----------------*- C++ -*-===//
//
// Every number the sm_90a lowering relies on, with where it comes from.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETONVGPU_SM90_SM90_H
#define TILE_LIB_CONVERSION_TILETONVGPU_SM90_SM90_H

#include "tile/Dialect/Tile/IR/TileHardware.h"

#include "mlir/IR/Builders.h"

#include <cstdint>

namespace mlir::tile::sm90 {

/// wgmma shapes (PTX ISA 9.7.15.5): M is 64 per instruction, K is 32 bytes
/// (16 f16/bf16), N a multiple of 8 up to 256.
constexpr int64_t kWgmmaM = 64;
constexpr int64_t kWgmmaKBytes = 32;
constexpr int64_t kWgmmaNStep = 8;
constexpr int64_t kWgmmaMaxN = 256;

/// The one shared-memory layout the sm_90a path uses for TMA destinations and
/// wgmma operands: 128-byte swizzle. A tile is stored as column panels of 128
/// bytes per row; 8 rows form a 1024-byte swizzle atom (PTX ISA 9.7.15.5.1,
/// CU_TENSOR_MAP_SWIZZLE_128B), so panels and stages are 1024-byte aligned.
constexpr int64_t kSwizzleBytes = 128;
constexpr int64_t kSwizzleAtomRows = 8;
constexpr int64_t kSwizzleAtomBytes = kSwizzleBytes * kSwizzleAtomRows;

/// wgmma matrix descriptor fields (PTX ISA 9.7.15.5.1.2, "Matrix Descriptor
/// Format"): addresses and offsets in 16-byte units; bits 62-63 the swizzle
/// mode, 1 = 128-byte swizzle.
constexpr int64_t kDescAddressShift = 4;
constexpr int64_t kDescFieldMask = 0x3FFF;
constexpr int64_t kDescLeadingOffsetBit = 16;
constexpr int64_t kDescStrideOffsetBit = 32;
constexpr uint64_t kDescSwizzle128B = 1ull << 62;

/// TMA (cuTensorMapEncodeTiled): a box dimension holds 1 to 256 elements.
constexpr int64_t kTmaMaxBoxDim = 256;

/// Dynamic shared memory a block may opt into on sm_90 (227 KB), less the
/// 1 KB that ptxas may pad the static part (the mbarriers) to, so the 1024-
/// aligned dynamic part still fits.
constexpr int64_t kMaxDynamicSharedBytes = 227 * 1024 - 1024;

/// The oldest PTX ISA (as in +ptx80) that has sm_90a, wgmma and TMA.
constexpr unsigned kMinPtxVersion = 80;

/// Registers one thread may use (ptxas's limit on sm_90).
constexpr int64_t kMaxRegistersPerThread = 255;
/// The 32-bit registers of an SM (and the most a block may hold).
constexpr int64_t kRegistersPerSM = 65536;
/// Per-thread register counts are allocated, and setmaxnreg moves them, in
/// multiples of 8 (PTX ISA 9.7.19.5).
constexpr int64_t kRegisterAllocationUnit = 8;
/// The most registers a consumer warpgroup asks for with setmaxnreg
/// (FlashAttention-3's; a thread addresses 255 at most).
constexpr int64_t kMaxSetmaxnregRegisters = 240;

/// `v` converted to `to`, one side an 8-bit float (ConvertFloat8SM90.cpp).
Value convertEightBitFloat(OpBuilder &b, Location l, Value v, FloatType to);

} // namespace mlir::tile::sm90

#endif // TILE_LIB_CONVERSION_TILETONVGPU_SM90_SM90_H
