//===- PlanWaits.cpp - Place the waits for tensor-core groups -----------===//
//
// Every wait of a kernel is decided here, on the tile IR: for tensor-core
// groups (tile.mma_wait), for row copies and for the shared-tile reads of
// TMA stores (tile.copy_wait), and the barrier before a row copy overwrites
// a tile that threads may still read (gpu.barrier). The lowering emits the
// waits it finds and tracks nothing. Each walk follows a kernel body in the
// order the code runs, with what may still be in flight.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
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

/// The in_flight gemms (gemm_c5) of `op`'s block from the last one that is
/// not in flight (or the block's start) to `op`, `op` included, if the next
/// gemm of the block, if any, is not in flight and no branch or loop
/// holding tile ops comes before it; otherwise 0: `op`'s group stays in
/// flight with those of the in_flight gemms that follow it.
static int64_t groupsLeftInFlight(GemmOp op) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    if (auto gemm = dyn_cast<GemmOp>(next)) {
      if (gemm.getInFlight())
        return 0;
      break;
    }
    if (isa<scf::IfOp, scf::ForOp, PipelinedOp>(next) && holdsTileOps(next))
      break;
  }
  int64_t groups = 1;
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    auto gemm = dyn_cast<GemmOp>(prev);
    if (gemm && !gemm.getInFlight())
      break;
    groups += gemm ? 1 : 0;
  }
  return groups;
}

/// An in_flight gemm (gemm_c5) leaves its own group running while the next
/// iteration's operands arrive; any other gemm completes it at once. Several
/// in_flight gemms in a row stay in flight together: the last waits for all
/// but their groups. A wait completes every older group too: in a loop,
/// those of the body's gemms in the previous iteration. Their accumulators
/// go through it, so that no access to them moves above it.
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
    if (int64_t groups = groupsLeftInFlight(op))
      wait(op.getLoc(), groups, accumulators);
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
/// The waits for row copies and for TMA stores' reads of their tiles, and
/// the barriers before a row copy overwrites a tile being read.
class CopyWaitPlanner {
public:
  explicit CopyWaitPlanner(KernelOp kernel);
  void planKernel();

private:
  void planBlock(Block &block);
  void planBranch(scf::IfOp op);
  void planRowCopy(CopyOp op);
  /// A copy between a fragment and `tile`, in place: `store` writes it.
  void planTileAccess(CopyOp op, Value tile, bool store);
  void planPipelined(PipelinedOp op);
  /// Before `op`, which reads or writes `tile` in place: waits for the row
  /// copies if some into `tile` may be in flight, and synchronises.
  void waitForRows(Value tile, Operation *op);
  /// Whether a TMA store issued before `write` (earlier in the kernel, or
  /// later in a loop around it) may still be reading `tile`.
  bool storeMayRead(Value tile, Operation *write);
  /// Whether a reader of `tile` may run before `write`: one planned
  /// already, or one in a loop around `write`.
  bool mayBeRead(Value tile, Operation *write);
  void wait(Location loc, CopyWaitKind kind, bool barrier);

  KernelOp kernel;
  OpBuilder b;
  /// Shared tiles that a TMA store reads.
  llvm::SetVector<Value> storeSources;
  /// Shared tiles with a TMA store before this point.
  DenseSet<Value> stored;
  /// Shared tiles whose row copies may still be in flight.
  llvm::SetVector<Value> inFlight;
  /// Shared tiles read or written in place before this point.
  DenseSet<Value> accessed;
};
} // namespace

/// Whether `user` is a row copy into `tile`.
static bool rowCopiesInto(Operation *user, Value tile) {
  auto copy = dyn_cast<CopyOp>(user);
  return copy && copy.isRowLoad() && copy.getDest() == tile;
}

CopyWaitPlanner::CopyWaitPlanner(KernelOp kernel)
    : kernel(kernel), b(kernel.getContext()) {
  kernel.walk([&](CopyOp copy) {
    if (copy.isTileStore())
      storeSources.insert(copy.getSource());
  });
}

void CopyWaitPlanner::wait(Location loc, CopyWaitKind kind, bool barrier) {
  CopyWaitOp::create(b, loc, kind, barrier);
}

/// Shared memory must outlive the TMA stores that read it, and the row
/// copies that write it (a copy nothing read yet would otherwise land in the
/// shared memory of the block that runs next).
void CopyWaitPlanner::planKernel() {
  Block &body = kernel.getBodyBlock();
  planBlock(body);
  b.setInsertionPoint(body.getTerminator());
  if (!storeSources.empty())
    wait(kernel.getLoc(), CopyWaitKind::store_reads, /*barrier=*/false);
  if (!inFlight.empty())
    wait(kernel.getLoc(), CopyWaitKind::rows, /*barrier=*/false);
}

void CopyWaitPlanner::planBlock(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto copy = dyn_cast<CopyOp>(op)) {
      Value src = copy.getSource(), dst = copy.getDest();
      if (copy.isRowLoad())
        planRowCopy(copy);
      else if (copy.isTileStore())
        stored.insert(src);
      else if (isa<FragmentType>(src.getType()) &&
               isa<SharedType>(dst.getType()))
        planTileAccess(copy, dst, /*store=*/true);
      else if (isa<SharedType>(src.getType()) &&
               isa<FragmentType>(dst.getType()))
        planTileAccess(copy, src, /*store=*/false);
    } else if (auto branch = dyn_cast<scf::IfOp>(op);
               branch && holdsTileOps(branch)) {
      planBranch(branch);
    } else if (auto loop = dyn_cast<scf::ForOp>(op);
               loop && holdsTileOps(loop)) {
      planBlock(*loop.getBody());
    } else if (auto pipelined = dyn_cast<PipelinedOp>(op)) {
      planPipelined(pipelined);
    }
  }
}

/// Row copies may be in flight after the scf.if if they may be on either
/// path: a wait in one branch does not complete the other's.
void CopyWaitPlanner::planBranch(scf::IfOp op) {
  llvm::SetVector<Value> before = inFlight;
  planBlock(op.getThenRegion().front());
  llvm::SetVector<Value> afterThen = inFlight;
  inFlight = before;
  if (!op.getElseRegion().empty())
    planBlock(op.getElseRegion().front());
  inFlight.insert(afterThen.begin(), afterThen.end());
}

/// A row copy does not wait: its group lands later. Threads may still read
/// the row from before (in program order, or in an earlier iteration of an
/// enclosing loop), so it first synchronises them.
void CopyWaitPlanner::planRowCopy(CopyOp op) {
  if (mayBeRead(op.getDest(), op)) {
    b.setInsertionPoint(op);
    gpu::BarrierOp::create(b, op.getLoc());
  }
  inFlight.insert(op.getDest());
}

/// A write to a tile waits until the TMA stores issued before have read it;
/// any access waits for the row copies into it.
void CopyWaitPlanner::planTileAccess(CopyOp op, Value tile, bool store) {
  b.setInsertionPoint(op);
  if (store && storeMayRead(tile, op))
    wait(op.getLoc(), CopyWaitKind::store_reads, /*barrier=*/true);
  waitForRows(tile, op);
}

/// Row copies still in flight into a tile the body reads but does not copy
/// into again are waited for once, before the loop, instead of at the read
/// in every iteration (one wait completes every tile's copies).
void CopyWaitPlanner::planPipelined(PipelinedOp op) {
  const Value *readInLoop = llvm::find_if(inFlight, [&](Value tile) {
    bool copiedWithin = llvm::any_of(tile.getUsers(), [&](Operation *user) {
      return rowCopiesInto(user, tile) && op->isAncestor(user);
    });
    return !copiedWithin && usedWithin(tile, op);
  });
  if (readInLoop != inFlight.end()) {
    b.setInsertionPoint(op);
    waitForRows(*readInLoop, op);
  }
  planBlock(op.getBody().front());
}

void CopyWaitPlanner::waitForRows(Value tile, Operation *op) {
  accessed.insert(tile);
  bool pending = inFlight.contains(tile) ||
                 usedInLoopAround(tile, op, [&](Operation *user) {
                   return rowCopiesInto(user, tile);
                 });
  if (!pending)
    return;
  wait(op->getLoc(), CopyWaitKind::rows, /*barrier=*/true);
  inFlight.clear(); // every group is complete
}

bool CopyWaitPlanner::storeMayRead(Value tile, Operation *write) {
  if (!storeSources.contains(tile))
    return false;
  if (stored.contains(tile))
    return true;
  // In a loop, a store after the write reads the tile before the write's
  // next iteration.
  return usedInLoopAround(tile, write, [](Operation *user) {
    auto copy = dyn_cast<CopyOp>(user);
    return copy && copy.isTileStore();
  });
}

bool CopyWaitPlanner::mayBeRead(Value tile, Operation *write) {
  return accessed.contains(tile) ||
         usedInLoopAround(tile, write, [&](Operation *user) {
           auto copy = dyn_cast<CopyOp>(user);
           return user != write && (!copy || copy.getSource() == tile);
         });
}

namespace {
struct PlanWaitsPass : tile::impl::TilePlanWaitsBase<PlanWaitsPass> {
  void runOnOperation() override {
    for (KernelOp kernel : getOperation().getOps<KernelOp>()) {
      if (kernel->hasAttr(kWaitsPlannedAttr))
        continue;
      MmaWaitPlanner(&getContext()).planBlock(kernel.getBodyBlock());
      CopyWaitPlanner(kernel).planKernel();
      kernel->setAttr(kWaitsPlannedAttr, UnitAttr::get(&getContext()));
    }
  }
};
} // namespace
