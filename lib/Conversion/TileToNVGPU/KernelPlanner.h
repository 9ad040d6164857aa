//===- KernelPlanner.h - Builds the KernelPlan of a kernel ------*- C++ -*-===//
//
// planKernel's steps, one member each (Planning.cpp, PlanRegions.cpp,
// WarpSpecialize.cpp): each checks what its part of the lowering needs,
// with a diagnostic at the op it refuses, and records its decisions in the
// plan under construction.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETONVGPU_KERNELPLANNER_H
#define TILE_LIB_CONVERSION_TILETONVGPU_KERNELPLANNER_H

#include "KernelPlan.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {

/// How many iterations late the consumers of a warp-specialised loop free
/// a stage (WarpSpecialize.cpp): 1 when tile-plan-waits left a group in
/// flight past an iteration's end and the ring has stages to spare, else 0.
int64_t stageReleaseLag(PipelinedOp loop);
/// The wait after which the consumers of such a loop free the stage of the
/// iteration before (tile-plan-waits marks it), or null: at the end.
MmaWaitOp earlyStageRelease(PipelinedOp loop);

class KernelPlanner {
public:
  KernelPlanner(KernelOp kernel, const TileTarget &target, int64_t sharedLimit)
      : kernel(kernel), target(target), sharedLimit(sharedLimit),
        threads(kernel.getThreadCount()) {
    plan.threads = threads;
  }

  /// Runs every step; the plan is complete when this succeeds.
  LogicalResult run();
  KernelPlan plan;

private:
  /// Checks where tile operations sit: the kernel body, tile.pipelined
  /// bodies and the branches of an scf.if (without results, TMA loads or
  /// pipelined loops inside).
  LogicalResult planRegions();
  /// Checks an scf.for that holds tile operations (planRegions).
  bool planSerialLoop(scf::ForOp loop);
  bool planAtomic(AtomicOp atomic);
  /// Checks a tile.arrive (Arrive.cpp): its counter, offsets and count are
  /// the same in every thread, and no TMA store's writes precede it.
  bool planArrive(ArriveOp arrive);
  LogicalResult collectBulkCopies(SmallVectorImpl<CopyOp> &tmaCopies,
                                  DenseMap<Value, int64_t> &stagesOf);
  void planTensorMaps(ArrayRef<CopyOp> tmaCopies);
  LogicalResult planSharedTiles();
  /// The plan of one shared tile, but its offset.
  LogicalResult planSharedTile(AllocSharedOp alloc,
                               const DenseMap<Value, int64_t> &stagesOf);
  /// Offsets for the `after_loops` tiles, over tiles dead by their uses.
  void placeAfterLoops(ArrayRef<AllocSharedOp> tiles);
  LogicalResult planFragments();
  LogicalResult planGemms();
  LogicalResult planParallels();
  LogicalResult planCopies();
  LogicalResult planPipelined();
  LogicalResult planReduces();
  /// Checks the warp-specialised loops and chooses the register budgets.
  LogicalResult planWarpSpecialization();
  /// tile.turn is taken only in warp-specialised loops (Turns.cpp).
  LogicalResult planTurns();
  /// Checks the multicast copies (Multicast.cpp): warp-specialised TMA
  /// loads in a kernel launched in clusters, the same in every block of a
  /// cluster, whose rows split evenly among the blocks.
  LogicalResult planMulticast();
  /// Reserves `bytes` of shared memory, 16-byte aligned; returns the offset.
  int64_t reserveShared(int64_t bytes);

  /// Shared tiles that a TMA store reads (collectBulkCopies).
  llvm::SetVector<Value> tmaStoreSources;
  /// Shared tiles that row copies from global memory fill (copy_c6).
  llvm::SetVector<Value> rowCopyTiles;

  KernelOp kernel;
  const TileTarget &target;
  int64_t sharedLimit;
  int64_t threads;
};

} // namespace mlir::tile

#endif // TILE_LIB_CONVERSION_TILETONVGPU_KERNELPLANNER_H
