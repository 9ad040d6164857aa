//===- FoldAccumulatorFills.cpp - Zero fills into gemm zero_init --------===//
//
// The decision that a gemm starts its accumulator at zero is made here and
// recorded on the gemm (zero_init), so that the lowering reads it instead
// of looking at which op comes next.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEFOLDACCUMULATORFILLS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// Whether `op` or an op in its regions uses `value`.
static bool touches(Operation *op, Value value) {
  return llvm::any_of(value.getUsers(),
                      [&](Operation *user) { return op->isAncestor(user); });
}

/// The gemm whose zero_init can replace `fill`, if any: the next op of the
/// block that touches the filled fragment, when it is a gemm accumulating
/// into it without reading it as an operand.
static GemmOp foldTarget(FillOp fill) {
  Value dest = fill.getDest();
  if (!dest.getDefiningOp<AllocFragmentOp>() || !fill.isZeroFill())
    return {};
  for (Operation *op = fill->getNextNode(); op; op = op->getNextNode()) {
    if (!touches(op, dest))
      continue;
    auto gemm = dyn_cast<GemmOp>(op);
    if (gemm && gemm.getC() == dest && gemm.getA() != dest &&
        gemm.getB() != dest)
      return gemm;
    return {};
  }
  return {};
}

namespace {
struct FoldAccumulatorFillsPass
    : tile::impl::TileFoldAccumulatorFillsBase<FoldAccumulatorFillsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<FillOp, GemmOp>> folds;
    getOperation().walk([&](FillOp fill) {
      if (GemmOp gemm = foldTarget(fill))
        folds.emplace_back(fill, gemm);
    });
    for (auto [fill, gemm] : folds) {
      gemm.setZeroInit(true);
      fill.erase();
    }
  }
};
} // namespace
