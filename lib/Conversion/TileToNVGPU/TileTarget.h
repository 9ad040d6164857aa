//===- TileTarget.h - What the lowering asks of a chip ----------*- C++ -*-===//
//
// The planner and the emitter name no chip's numbers: they ask the target
// the kernel is compiled for. Each chip is one implementation in a folder of
// its own (SM90/ for sm_90a), registered under its name; a new chip is a new
// implementation, not an edit of every file.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETONVGPU_TILETARGET_H
#define TILE_LIB_CONVERSION_TILETONVGPU_TILETARGET_H

#include "tile/Dialect/Tile/IR/RegisterLayout.h"
#include "tile/Dialect/Tile/IR/SwizzledPanels.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include <memory>
#include <string>

namespace mlir::tile {

class TileTarget {
public:
  virtual ~TileTarget();
  /// The chip, as the passes' `chip` option spells it (sm_90a).
  virtual StringRef getChip() const = 0;

  /// Why the PTX `features` (+ptxNN) cannot build code for the chip, or an
  /// empty string.
  virtual std::string checkFeatures(StringRef features) const = 0;

  // ---- Limits. ----
  /// The dynamic shared memory a block may use, in bytes.
  virtual int64_t getMaxSharedBytes() const = 0;
  /// The 32-bit registers one thread may use.
  virtual int64_t getMaxRegistersPerThread() const = 0;

  // ---- Shared tiles. ----
  /// Why a `rows` x `cols` tile of `elementType` cannot live in shared
  /// memory (a sentence to follow "a shared tile ..."), or an empty string.
  virtual std::string checkSharedTile(int64_t rows, int64_t cols,
                                      Type elementType) const = 0;
  /// One stage's layout of a tile checkSharedTile accepts.
  virtual SwizzledPanels getSharedTileLayout(int64_t rows, int64_t cols,
                                             int64_t eltBytes) const = 0;
  /// The alignment of each shared tile and stage, in bytes.
  virtual int64_t getSharedTileAlignment() const = 0;

  // ---- Tensor cores. ----
  /// Checks what the MMA instruction needs of `gemm` in a block of
  /// `threads`, with a diagnostic at the gemm.
  virtual LogicalResult checkMma(GemmOp gemm, int64_t threads) const = 0;
  /// The registers of a `#tile.mma<warpgroups>` accumulator of `shape` in a
  /// block of `threads`: the MMA instruction's result layout. A diagnostic
  /// at `op` when the shape cannot have it.
  virtual FailureOr<RegisterLayout>
  getAccumulatorLayout(ArrayRef<int64_t> shape, int64_t warpgroups,
                       int64_t threads, Operation *op) const = 0;

  /// The registers of a fragment laid out by `attr` (#tile.mma as
  /// getAccumulatorLayout says).
  FailureOr<RegisterLayout> getFragmentLayout(Attribute attr,
                                              ArrayRef<int64_t> shape,
                                              int64_t threads,
                                              Operation *op) const;

  // ---- 8-bit floats. ----
  /// `v` converted to `to` (arith.truncf / arith.extf semantics: round to
  /// nearest even, values past the largest finite one saturating to it),
  /// where `v` or `to` is an 8-bit float (isEightBitFloat) and the other
  /// side any float; null where the chip has no such conversion.
  virtual Value convertEightBitFloat(OpBuilder &b, Location l, Value v,
                                     FloatType to) const = 0;

  // ---- Warp specialisation. ----
  /// Per-thread register budgets (producer, consumer) when a producer
  /// warpgroup joins `threads` consumers and `blocks` such blocks share a
  /// multiprocessor; {0, 0} leaves the allocation to the assembler.
  virtual std::pair<int64_t, int64_t>
  getRegisterBudgets(int64_t threads, int64_t blocks) const = 0;
};

/// The target registered for `chip`, or null. sm_90a is always registered.
const TileTarget *lookupTileTarget(StringRef chip);

/// Registers `target` under its chip, replacing one registered before.
void registerTileTarget(std::unique_ptr<TileTarget> target);

/// The sm_90a target (SM90/SM90Target.cpp).
std::unique_ptr<TileTarget> createSM90Target();

} // namespace mlir::tile

#endif // TILE_LIB_CONVERSION_TILETONVGPU_TILETARGET_H
