//===- PredicatedAccess.h - Masked global accesses without branches -*- C++
//-*-===//
//
// A masked element at the edge of a tile is accessed by one predicated PTX
// instruction (`@p st.global.b16 [a], v;`) rather than a branch around a
// plain one. A 128x256 epilogue has a few hundred such accesses per thread;
// as branches they split the kernel into as many basic blocks, which LLVM
// and ptxas then schedule one by one (slower to compile, and nothing is
// scheduled across them).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETONVGPU_PREDICATEDACCESS_H
#define TILE_LIB_CONVERSION_TILETONVGPU_PREDICATEDACCESS_H

#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir::tile {

/// The address of `memref[indices]` as a global pointer (!llvm.ptr<1>).
/// `memref` is a kernel argument or a view of one.
Value globalAddress(OpBuilder &b, Location l, Value memref, ValueRange indices);

/// Whether `0 <= x < size` (index values), as an i1.
Value inRange(OpBuilder &b, Location l, Value x, Value size);

/// `inside` (i1) and, for each d, whether `indices[d]` is in range of
/// dimension d of `memref`: whether an element (or the row that the
/// leading indices select) exists.
Value andIndicesInside(OpBuilder &b, Location l, Value inside, Value memref,
                       ValueRange indices);

/// One inline PTX statement with side effects (so that LLVM keeps it in
/// place relative to barriers and other accesses); its result, of type
/// `result`, or none when `result` is null.
Value inlinePtx(OpBuilder &b, Location l, Type result, ValueRange operands,
                StringRef ptx, StringRef constraints);

/// Stores `element` (1 to 8 bytes) at `address` + `byteOffset` when `pred`
/// (i1) holds. The offset is the instruction's immediate (`[a+16]`), so the
/// registers of one thread share one address register.
void emitPredicatedStore(OpBuilder &b, Location l, Value pred, Value address,
                         int64_t byteOffset, Value element);

/// Loads one element of `type` (1 to 8 bytes) from `address` + `byteOffset`
/// when `pred` holds; zero otherwise.
Value emitPredicatedLoad(OpBuilder &b, Location l, Value pred, Value address,
                         int64_t byteOffset, Type type);

/// Loads `width` consecutive elements of `type` (4, 8 or 16 bytes in all,
/// aligned to that) from `address` + `byteOffset` in one vector instruction
/// when `pred` holds; zeros otherwise.
SmallVector<Value> emitPredicatedVectorLoad(OpBuilder &b, Location l,
                                            Value pred, Value address,
                                            int64_t byteOffset, Type type,
                                            int64_t width);

/// Stores `elements` (consecutive, 4, 8 or 16 bytes in all, aligned to that)
/// at `address` + `byteOffset` in one vector instruction when `pred` holds.
void emitPredicatedVectorStore(OpBuilder &b, Location l, Value pred,
                               Value address, int64_t byteOffset,
                               ValueRange elements);

/// How many elements of `type` one `red.global` combines with `kind` (two
/// for an add into f16 or bf16, packed; one otherwise). Vector forms
/// (`.v4.f32`) need PTX ISA 8.1, past the +ptx80 this lowering targets.
int64_t reductionWidth(Type type, AtomicKind kind);

/// Combines `elements` (1 or reductionWidth of them, consecutive and
/// aligned to their size) into memory at `address` + `byteOffset` with one
/// atomic `red.global` when `pred` holds (AtomicOp: float max and min as
/// integer max and min on the bits).
void emitPredicatedReduction(OpBuilder &b, Location l, Value pred,
                             Value address, int64_t byteOffset,
                             ValueRange elements, AtomicKind kind);

} // namespace mlir::tile

#endif // TILE_LIB_CONVERSION_TILETONVGPU_PREDICATEDACCESS_H
