//===- KeepGemmsInFlight.cpp - Overlap a loop's gemms with its loads ----===//
//
// Which tensor-core groups stay in flight is decided here and recorded on
// the gemm (in_flight), so that the lowering emits the waits it is told.
// The gemms of a pipelined body are kept when each of them may be
// (gemm_c5), nothing in the body touches its accumulator but a branch
// after it, and nothing writes its register A: several (a gated MLP's gate
// and up products) stay in flight together, and tile-plan-waits waits for
// their groups once, after the last. A kernel may mark more itself (a gemm
// whose result the body uses later, to overlap it with the next product); the
// waits follow the uses.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEKEEPGEMMSINFLIGHT
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// Whether the loop body around `gemm` writes the fragment it reads as A:
/// in flight, that write would wait for the group (tile-plan-waits), which
/// is the kernel's choice to make (attention's P . V), not this pass's.
static bool writesRegisterA(GemmOp gemm) {
  Value a = gemm.getA();
  return isa<FragmentType>(a.getType()) && gemm.operandWriterInBody(a);
}

namespace {
struct KeepGemmsInFlightPass
    : tile::impl::TileKeepGemmsInFlightBase<KeepGemmsInFlightPass> {
  void runOnOperation() override {
    getOperation().walk([&](PipelinedOp loop) {
      // All of the body's gemms or none: one that completes at once (in a
      // branch, or with its accumulator read in the body) has other
      // instructions write accumulators while the others' groups run,
      // which makes ptxas serialise every wgmma of the kernel (C7515).
      SmallVector<GemmOp> gemms;
      loop.getBody().walk([&](GemmOp g) { gemms.push_back(g); });
      if (llvm::all_of(gemms, [](GemmOp g) {
            return g.whyNotInFlight().empty() && !g.accumulatorUseInBody() &&
                   !writesRegisterA(g);
          }))
        for (GemmOp g : gemms)
          g.setInFlight(true);
    });
  }
};
} // namespace
