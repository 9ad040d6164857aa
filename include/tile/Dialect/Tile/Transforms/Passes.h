//===- Passes.h - Tile transformations --------------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class OpPassManager;
namespace tile {
class KernelOp;

/// The passes every specialised kernel goes through before the lowering
/// plans it: tile-infer-layouts, tile-fold-accumulator-fills,
/// tile-keep-gemms-in-flight, tile-plan-waits.
void addTilePreparationPasses(OpPassManager &pm);

/// Produces kernel `name` from parametric kernel `generic` with `bindings`
/// (every parameter bound, as resolveBindings returns them): a copy inserted
/// before `origin`, with the parameters replaced by their values, the
/// arithmetic on them folded and the allocations static, then verified.
/// Errors carry a note at `origin` naming the bindings.
FailureOr<KernelOp> specializeKernel(KernelOp generic, DictionaryAttr bindings,
                                     StringRef name, Operation *origin);

/// Set by tile-plan-waits on each kernel whose waits it placed; the lowering
/// refuses a kernel without it.
inline constexpr llvm::StringLiteral kWaitsPlannedAttr = "tile.waits_planned";

/// Set by tile-plan-waits on a warp-specialised tile.pipelined loop of
/// several stages whose tensor-core groups are still running when an
/// iteration ends: each stage is released one iteration late, once the
/// group that reads it has completed.
inline constexpr llvm::StringLiteral kMmaInFlightAtEndAttr =
    "tile.mma_in_flight_at_end";

/// Set by tile-plan-waits, in such a loop, on the first tile.mma_wait of
/// the body (outside any branch) that completes every group: it completes
/// the groups of the iteration before, so their stage is released right
/// after it rather than at the end of the iteration.
inline constexpr llvm::StringLiteral kFreesPreviousStageAttr =
    "tile.frees_previous_stage";

/// Expands the shorthands of the source language under `root` (as
/// tile-expand-shorthands does): tile.let, tile.copy through a shared tile,
/// tile.index of an integer type.
void expandShorthands(Operation *root);

#define GEN_PASS_DECL
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_H
