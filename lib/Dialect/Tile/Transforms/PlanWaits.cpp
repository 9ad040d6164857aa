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
/// A tensor-core group that may still be in flight: the accumulator it
/// writes, the fragment it reads as A (if any), and whether the loop
/// iteration being planned issued it.
struct Group {
  Value acc;
  Value registerA;
  bool current;
};

/// The waits of one kernel, placed in program order.
class MmaWaitPlanner {
public:
  explicit MmaWaitPlanner(MLIRContext *ctx) : b(ctx) {}
  void planBlock(Block &block);

private:
  /// A wait for all but the `pending` youngest groups at `b`'s insertion
  /// point, placed because of the op at `loc`; the groups it completes
  /// leave `groups`.
  void wait(Location loc, int64_t pending, ArrayRef<Value> accumulators);
  /// Waits for every group still in flight, if any.
  void drain(Location loc);
  /// The accumulators of the groups in flight that `op` (or an op in it)
  /// must wait for: it reads or writes their accumulator, or writes their
  /// register A operand.
  llvm::SmallPtrSet<Value, 4> touchedAccumulators(Operation *op) const;
  /// Before `op`, which is no gemm: waits for the groups of the
  /// accumulators it touches, and every older one.
  void waitForUses(Operation *op);
  void planGemm(GemmOp op);
  bool touchedAgainAfter(Operation *op);
  void planBranch(scf::IfOp op);
  void planSerialLoop(scf::ForOp op);
  void planPipelined(PipelinedOp op);
  /// Plans one iteration of `op`'s body from `groups`.
  void planIteration(PipelinedOp op);
  /// The accumulators of the groups in flight, each once.
  SmallVector<Value> pendingAccumulators() const;
  /// What a wait after `gemm` lists, each once: its accumulator, those of
  /// its loop body's gemms (whose older groups the wait completes too),
  /// then those of every group in flight.
  SmallVector<Value> accumulatorsAfter(GemmOp gemm) const;

  OpBuilder b;
  /// The groups that may be in flight here, oldest first.
  SmallVector<Group> groups;
  /// Plans without inserting waits (the first pass over a loop body).
  bool dryRun = false;
  /// Whether a wait was placed since the last gemm was planned.
  bool waitedSinceGemm = false;
};
} // namespace

SmallVector<Value> MmaWaitPlanner::pendingAccumulators() const {
  SmallVector<Value> accs;
  for (const Group &g : groups)
    if (!llvm::is_contained(accs, g.acc))
      accs.push_back(g.acc);
  return accs;
}

SmallVector<Value> MmaWaitPlanner::accumulatorsAfter(GemmOp gemm) const {
  SmallVector<Value> accs{gemm.getC()};
  auto add = [&](Value v) {
    if (!llvm::is_contained(accs, v))
      accs.push_back(v);
  };
  if (auto loop = dyn_cast<PipelinedOp>(gemm->getParentOp()))
    loop.getBody().walk([&](GemmOp g) { add(g.getC()); });
  for (Value v : pendingAccumulators())
    add(v);
  return accs;
}

void MmaWaitPlanner::wait(Location loc, int64_t count,
                          ArrayRef<Value> accumulators) {
  if (!dryRun)
    MmaWaitOp::create(b, loc, count, accumulators);
  groups.erase(groups.begin(),
               groups.end() - std::min<int64_t>(count, groups.size()));
  waitedSinceGemm = true;
}

void MmaWaitPlanner::drain(Location loc) {
  if (groups.empty())
    return;
  wait(loc, 0, pendingAccumulators());
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
    else
      waitForUses(&op);
  }
}

/// An op that reads or writes an accumulator (an element-wise op, a copy)
/// needs the youngest group writing it complete; the wait completes the
/// older groups too, and leaves the younger ones in flight. So does an op
/// that writes a fragment a group reads as A: the tensor cores read those
/// registers until the group completes.
llvm::SmallPtrSet<Value, 4>
MmaWaitPlanner::touchedAccumulators(Operation *op) const {
  llvm::SmallPtrSet<Value, 4> accs;
  op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      for (const Group &g : groups)
        if (g.acc == operand ||
            (g.registerA == operand && mayWrite(nested, operand)))
          accs.insert(g.acc);
  });
  return accs;
}

void MmaWaitPlanner::waitForUses(Operation *op) {
  if (groups.empty() || isa<MmaWaitOp>(op))
    return;
  llvm::SmallPtrSet<Value, 4> touched = touchedAccumulators(op);
  int64_t youngest = -1;
  for (auto [i, g] : llvm::enumerate(groups))
    if (touched.contains(g.acc))
      youngest = i;
  if (youngest < 0)
    return;
  b.setInsertionPoint(op);
  wait(op->getLoc(), groups.size() - 1 - youngest, pendingAccumulators());
}

/// An in_flight gemm (gemm_c5) leaves its group running: the ops that use
/// its accumulator wait for it (waitForUses), and the end of its loop's
/// iteration for the groups of the one before (planIteration). Another
/// gemm completes its group, and every older one, at once; the wait lists
/// the accumulators of the body's other gemms and of every group in
/// flight, so that no access to them moves above it.
void MmaWaitPlanner::planGemm(GemmOp op) {
  if (op.getInFlight()) {
    Value registerA =
        isa<FragmentType>(op.getA().getType()) ? op.getA() : Value();
    groups.push_back({op.getC(), registerA, true});
    waitedSinceGemm = false;
    return;
  }
  b.setInsertionPointAfter(op);
  wait(op.getLoc(), 0, accumulatorsAfter(op));
  groups.clear();
}

/// Whether an op after `op` in its block, before the next gemm, reads or
/// writes an accumulator of a group in flight that `op` touches too.
bool MmaWaitPlanner::touchedAgainAfter(Operation *op) {
  llvm::SmallPtrSet<Value, 4> mine = touchedAccumulators(op);
  if (mine.empty())
    return false;
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    if (isa<GemmOp>(next))
      return false;
    for (Value acc : touchedAccumulators(next))
      if (mine.contains(acc))
        return true;
  }
  return false;
}

/// Each branch starts from the groups in flight before the scf.if, and one
/// that touches an accumulator among them waits for them first; after the
/// scf.if, a group is in flight if it may be on either path. When the ops
/// after the branch wait for a group the branch touches anyway, the wait
/// comes before the branch, once, instead of on one path and again after.
void MmaWaitPlanner::planBranch(scf::IfOp op) {
  if (touchedAgainAfter(op))
    waitForUses(op);
  SmallVector<Group> before = groups;
  auto planRegion = [&](Region &region) {
    bool touches = llvm::any_of(groups, [&](const Group &g) {
      return llvm::any_of(g.acc.getUsers(), [&](Operation *user) {
        return region.isAncestor(user->getParentRegion());
      });
    });
    if (touches) {
      b.setInsertionPointToStart(&region.front());
      drain(op.getLoc());
    }
    planBlock(region.front());
  };
  // A branch's waits run on one path only: they do not count as waits
  // after the last gemm (planIteration).
  bool waited = waitedSinceGemm;
  planRegion(op.getThenRegion());
  SmallVector<Group> afterThen = groups;
  groups = before;
  if (!op.getElseRegion().empty())
    planRegion(op.getElseRegion());
  waitedSinceGemm = waited;
  // In-flight gemms sit directly in loop bodies (gemm_c5), so each path
  // left `before` or a prefix-free part of it: keep every group either
  // path may have left.
  if (afterThen.size() > groups.size())
    groups = afterThen;
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

/// Whether `op`'s body loads tiles from global memory (its stages are
/// refilled).
static bool loadsTiles(PipelinedOp op) {
  return llvm::any_of(op.getBody().front().getOps<CopyOp>(),
                      [](CopyOp copy) { return copy.isTileLoad(); });
}

/// The groups an iteration issues may run into the next one; those of the
/// iteration before must be complete at its end, where its stage is
/// refilled (Pipelined.cpp). So the end waits for all but the iteration's
/// own groups still in flight: right after its last gemm when nothing
/// waited since (the usual loop: the gemms' groups run while the next
/// stage is awaited), else before the terminator. With one stage, the
/// slot the next iteration waits on is this one, so the iteration waits
/// for all of them.
void MmaWaitPlanner::planIteration(PipelinedOp op) {
  Block &body = op.getBody().front();
  for (Group &g : groups)
    g.current = false;
  GemmOp last;
  waitedSinceGemm = true;
  planBlock(body);
  body.walk([&](GemmOp g) {
    if (g->getParentOp() == op)
      last = g;
  });
  bool older = llvm::any_of(groups, [](const Group &g) { return !g.current; });
  bool refillsAtOnce = op.getStageCount() == 1 && loadsTiles(op);
  if (groups.empty() || (!older && !refillsAtOnce))
    return;
  if (last && !waitedSinceGemm && !refillsAtOnce)
    b.setInsertionPointAfter(last);
  else
    b.setInsertionPoint(body.getTerminator());
  int64_t own =
      llvm::count_if(groups, [](const Group &g) { return g.current; });
  wait(op.getLoc(), refillsAtOnce ? 0 : own,
       last ? accumulatorsAfter(last) : pendingAccumulators());
}

/// A body is planned from the groups in flight at the start of an
/// iteration: those before the loop (the first iteration) and those an
/// iteration leaves running (the next ones), found by a first pass that
/// places nothing. A warp-specialised loop of several stages whose groups
/// run past the end of an iteration releases each stage an iteration
/// late: at the body's first wait for every group, if there is one (the
/// groups of the iteration before are complete from there), else at the
/// end. Nothing after the loop sees a group in flight.
void MmaWaitPlanner::planPipelined(PipelinedOp op) {
  SmallVector<Group> before = groups;
  bool wasDry = dryRun;
  dryRun = true;
  planIteration(op);
  SmallVector<Group> leftRunning = groups;
  dryRun = wasDry;
  groups = before;
  groups.append(leftRunning.begin(), leftRunning.end());
  planIteration(op);
  if (!dryRun && loadsTiles(op) && !groups.empty() && op.getStageCount() > 1 &&
      op.isWarpSpecialized()) {
    op->setAttr(kMmaInFlightAtEndAttr, b.getUnitAttr());
    for (auto wait : op.getBody().front().getOps<MmaWaitOp>())
      if (wait.getPending() == 0) {
        wait->setAttr(kFreesPreviousStageAttr, b.getUnitAttr());
        break;
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
