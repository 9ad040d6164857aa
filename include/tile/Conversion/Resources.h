//===- Resources.h - What a specialised kernel needs of the GPU -*- C++ -*-===//
//
// The sm_90a lowering's plan of a kernel, without emitting code: what
// tile-estimate-resources records and what a tuner compares with a device's
// limits before it compiles a configuration.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_RESOURCES_H
#define TILE_CONVERSION_RESOURCES_H

#include "tile/Dialect/Tile/IR/TileOps.h"

#include <string>

namespace mlir::tile {

/// What one specialised kernel needs of the GPU.
struct KernelResources {
  /// Dynamic shared memory: every tile with all its pipeline stages, the
  /// barriers and the reduction scratch.
  int64_t sharedBytes = 0;
  /// The deepest pipeline: the most stages of any shared tile (1: none).
  int64_t stages = 1;
  /// One stage of the pipelined tiles (those with more than one stage):
  /// what each further stage costs.
  int64_t stageBytes = 0;
  /// Every stage of the pipelined tiles: stages * stageBytes when they all
  /// have the same depth. sharedBytes - pipelinedBytes is the rest (tiles
  /// loaded once, barriers, reduction scratch, alignment).
  int64_t pipelinedBytes = 0;
  /// The launched block's threads, a producer warpgroup included.
  int64_t threads = 0;
  /// A warp-specialised kernel's producer warpgroup (0 or 1), and the
  /// setmaxnreg budgets of its consumers and producer (0: none asked).
  int64_t producerWarpgroups = 0;
  int64_t consumerRegisters = 0, producerRegisters = 0;
  /// The launch rule, with the arguments' source names: `[C[1] / 256, ...]`.
  std::string grid;
};

/// The chip the tuner and the default pipelines compile for.
inline constexpr llvm::StringLiteral kDefaultChip = "sm_90a";

/// The most dynamic shared memory one block may use on `chip`; 0 when no
/// target is registered for it.
int64_t getMaxSharedBytes(StringRef chip);

/// Plans specialised `kernel` for `chip` as the lowering would, without
/// emitting code, diagnosing at the op that is wrong what the lowering
/// would refuse, shared memory over `sharedLimit` included (a tuner passes
/// INT64_MAX and compares with the device it has).
FailureOr<KernelResources> planKernelResources(KernelOp kernel, StringRef chip,
                                               int64_t sharedLimit);

} // namespace mlir::tile

#endif // TILE_CONVERSION_RESOURCES_H
