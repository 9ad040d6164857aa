//===- RegisterLayout.h - Fragment layouts made concrete --------*- C++ -*-===//
//
// A fragment layout attribute applied to a fragment shape. Every layout the
// dialect has is linear in the bits of the lane and warp indices: bit k of
// the lane moves an element by laneBases[k], bit k of the warp by
// warpBases[k], and register r adds regOffsets[r]. So an element's
// coordinate is the sum of a per-thread part and a per-register constant,
// and the lanes that share a row are those whose bits move only columns,
// which is what reductions shuffle across.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_REGISTERLAYOUT_H
#define TILE_DIALECT_TILE_IR_REGISTERLAYOUT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir::tile {

using Coord = SmallVector<int64_t, 2>;

class RegisterLayout {
public:
  /// The layout of a `#tile.mma<warpgroups>` fragment of `shape` in a
  /// block of `threads`: the chip's MMA result layout, which the target
  /// gives. Fails with a diagnostic at `op`.
  using AccumulatorLayoutFn = llvm::function_ref<FailureOr<RegisterLayout>(
      ArrayRef<int64_t> shape, int64_t warpgroups, int64_t threads,
      Operation *op)>;

  /// The layout `attr` of a fragment of `shape` in a block of `threads`
  /// threads, `accumulator` giving #tile.mma's. Fails (with a diagnostic at
  /// `op`) when the layout does not tile the shape exactly.
  static FailureOr<RegisterLayout> get(Attribute attr, ArrayRef<int64_t> shape,
                                       int64_t threads, Operation *op,
                                       AccumulatorLayoutFn accumulator);

  int64_t rank() const { return shape.size(); }
  int64_t numRegs() const { return regOffsets.size(); }
  const Coord &regOffset(int64_t reg) const { return regOffsets[reg]; }
  /// The thread's part of the coordinate along `dim`.
  Value threadCoord(OpBuilder &b, Location loc, Value tid, unsigned dim) const;
  /// The coordinate of register `reg` of thread `thread`: what threadCoord
  /// emits plus regOffset(reg), computed here (for planning and tests).
  Coord coordOf(int64_t thread, int64_t reg) const;
  /// Lane xor masks whose lanes hold different coordinates along `dim`.
  SmallVector<int64_t> laneMasksAlong(unsigned dim) const;
  /// Warp index bits that move the coordinate along `dim`.
  SmallVector<unsigned> warpBitsAlong(unsigned dim) const;
  /// The bits of the thread index (lane bits, then warp bits from bit 5)
  /// that move no coordinate: threads that differ only in them hold the
  /// same elements. An element is owned by the thread whose replicating
  /// bits are all zero.
  int64_t replicatingThreadBits() const;
  /// Whether thread `tid` owns its elements (true when none replicates).
  Value isOwner(OpBuilder &b, Location loc, Value tid) const;
  /// The layout with `dim` removed (a #tile.slice of this one).
  RegisterLayout slice(unsigned dim) const;
  /// The register of `sliced` (this layout's slice along `dim`) that holds
  /// the element of register `reg` of this layout.
  int64_t sliceRegister(int64_t reg, unsigned dim,
                        const RegisterLayout &sliced) const;
  /// The register holding offset `offset`, or -1.
  int64_t findRegister(const Coord &offset) const;
  /// Whether `other` puts every element in the same thread and register.
  bool sameMapping(const RegisterLayout &other) const {
    return regOffsets == other.regOffsets && laneBases == other.laneBases &&
           warpBases == other.warpBases;
  }
  /// The same mapping of the same shape.
  bool operator==(const RegisterLayout &other) const {
    return shape == other.shape && sameMapping(other);
  }
  bool operator!=(const RegisterLayout &other) const {
    return !(*this == other);
  }

  SmallVector<int64_t> shape;
  SmallVector<Coord> laneBases, warpBases, regOffsets;
};

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_REGISTERLAYOUT_H
