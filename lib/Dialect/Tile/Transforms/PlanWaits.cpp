//===- PlanWaits.cpp - Place the waits for tensor-core groups -----------===//
//
// Where a tensor-core group is waited for is decided here, on the tile IR,
// and written as tile.mma_wait ops: the lowering emits the waits it finds
// and tracks nothing. The walk follows each kernel body in the order the
// code runs, with the accumulators whose group may still be in flight.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPLANWAITS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {
/// The waits of one kernel, placed in program order.
class MmaWaitPlanner {
public:
  explicit MmaWaitPlanner(MLIRContext *ctx) : b(ctx) {}
  void planBlock(Block &block);

private:
  /// A wait for all but `pending` groups at `b`'s insertion point, placed
  /// because of the op at `loc`.
  void wait(Location loc, int64_t pending, ArrayRef<Value> accumulators);
  /// Waits for every group still in flight, if any.
  void drain(Location loc);
  void planGemm(GemmOp op);
  void planBranch(scf::IfOp op);
  void planSerialLoop(scf::ForOp op);
  void planPipelined(PipelinedOp op);

  OpBuilder b;
  /// Accumulators whose last group may still be in flight here.
  SmallVector<Value> pending;
};
} // namespace

void MmaWaitPlanner::wait(Location loc, int64_t count,
                          ArrayRef<Value> accumulators) {
  MmaWaitOp::create(b, loc, count, accumulators);
}

void MmaWaitPlanner::drain(Location loc) {
  if (pending.empty())
    return;
  wait(loc, 0, pending);
  pending.clear();
}

void MmaWaitPlanner::planBlock(Block &block) {
  // The waits are inserted after the op being planned, or before it, so
  // the walk never meets one.
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto gemm = dyn_cast<GemmOp>(op))
      planGemm(gemm);
    else if (auto branch = dyn_cast<scf::IfOp>(op);
             branch && holdsTileOps(branch))
      planBranch(branch);
    else if (auto loop = dyn_cast<scf::ForOp>(op); loop && holdsTileOps(loop))
      planSerialLoop(loop);
    else if (auto pipelined = dyn_cast<PipelinedOp>(op))
      planPipelined(pipelined);
  }
}

/// An in_flight gemm (gemm_c5) leaves its own group running while the next
/// iteration's operands arrive; any other gemm completes it at once. The
/// wait completes every older group too: in a loop, those of the body's
/// other gemms in the previous iteration. Their accumulators go through it,
/// so that no access to them moves above it.
void MmaWaitPlanner::planGemm(GemmOp op) {
  SmallVector<Value> accumulators{op.getC()};
  auto add = [&](Value v) {
    if (!llvm::is_contained(accumulators, v))
      accumulators.push_back(v);
  };
  if (auto loop = dyn_cast<PipelinedOp>(op->getParentOp()))
    loop.getBody().walk([&](GemmOp g) { add(g.getC()); });
  for (Value v : pending)
    add(v);
  b.setInsertionPointAfter(op);
  if (op.getInFlight()) {
    wait(op.getLoc(), 1, accumulators);
    if (!llvm::is_contained(pending, op.getC()))
      pending.push_back(op.getC());
  } else {
    wait(op.getLoc(), 0, accumulators);
    pending.clear();
  }
}

/// Each branch starts from the groups in flight before the scf.if, and one
/// that touches an accumulator among them waits for them first; after the
/// scf.if, a group is in flight if it may be on either path.
void MmaWaitPlanner::planBranch(scf::IfOp op) {
  SmallVector<Value> before = pending;
  auto planRegion = [&](Region &region) {
    bool touches = llvm::any_of(pending, [&](Value acc) {
      return llvm::any_of(acc.getUsers(), [&](Operation *user) {
        return region.isAncestor(user->getParentRegion());
      });
    });
    if (touches) {
      b.setInsertionPointToStart(&region.front());
      drain(op.getLoc());
    }
    planBlock(region.front());
  };
  planRegion(op.getThenRegion());
  SmallVector<Value> afterThen = pending;
  pending = before;
  if (!op.getElseRegion().empty())
    planRegion(op.getElseRegion());
  for (Value acc : afterThen)
    if (!llvm::is_contained(pending, acc))
      pending.push_back(acc);
}

/// No group crosses a serial loop's back edge: each iteration starts with
/// none in flight, as the first does.
void MmaWaitPlanner::planSerialLoop(scf::ForOp op) {
  b.setInsertionPoint(op);
  drain(op.getLoc());
  planBlock(*op.getBody());
  b.setInsertionPoint(op.getBody()->getTerminator());
  drain(op.getLoc());
}

/// A group left in flight at the end of an iteration runs while the next
/// iteration's loads are awaited. With one stage, that slot is the one the
/// next iteration waits on, so the group is waited for at the end of the
/// iteration instead; a warp-specialised loop of several stages then
/// releases each stage an iteration late. Nothing after the loop sees a
/// group in flight.
void MmaWaitPlanner::planPipelined(PipelinedOp op) {
  Block &body = op.getBody().front();
  planBlock(body);
  bool loads = llvm::any_of(body.getOps<CopyOp>(),
                            [](CopyOp copy) { return copy.isTileLoad(); });
  if (loads && !pending.empty()) {
    if (op.getStageCount() == 1) {
      b.setInsertionPoint(body.getTerminator());
      drain(op.getLoc());
    } else if (op.isWarpSpecialized()) {
      op->setAttr(kMmaInFlightAtEndAttr, b.getUnitAttr());
    }
  }
  b.setInsertionPointAfter(op);
  drain(op.getLoc());
}

namespace {
struct PlanWaitsPass : tile::impl::TilePlanWaitsBase<PlanWaitsPass> {
  void runOnOperation() override {
    for (KernelOp kernel : getOperation().getOps<KernelOp>()) {
      bool planned = false;
      kernel.walk([&](MmaWaitOp) { planned = true; });
      if (!planned)
        MmaWaitPlanner(&getContext()).planBlock(kernel.getBodyBlock());
    }
  }
};
} // namespace
