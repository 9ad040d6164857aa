//===- KeepGemmsInFlight.cpp - Overlap a loop's gemm with its loads -----===//
//
// Which tensor-core groups stay in flight is decided here and recorded on
// the gemm (in_flight), so that the lowering emits the waits it is told.
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

namespace {
struct KeepGemmsInFlightPass
    : tile::impl::TileKeepGemmsInFlightBase<KeepGemmsInFlightPass> {
  void runOnOperation() override {
    getOperation().walk([&](PipelinedOp loop) {
      SmallVector<GemmOp> gemms;
      loop.getBody().walk([&](GemmOp g) { gemms.push_back(g); });
      if (gemms.size() == 1 && gemms.front()->getParentOp() == loop &&
          gemms.front().whyNotInFlight().empty())
        gemms.front().setInFlight(true);
    });
  }
};
} // namespace
