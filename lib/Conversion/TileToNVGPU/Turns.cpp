//===- Turns.cpp - Consumer warpgroups taking turns (tile.turn) ---------===//
//
// The consumer warpgroups of a warp-specialised loop whose body takes turns
// pass a token round, warpgroup 0 first, on one named barrier per
// warpgroup (ids from kFirstTurnBarrier; 1 is the consumers' own). Barrier
// w completes when warpgroup w waits on it (`bar.sync`, the take) and the
// warpgroup before it has arrived (`bar.arrive`, the pass): 256 threads.
//
//   before the loop (if it runs): the last warpgroup arrives on barrier 0,
//                                 so warpgroup 0 holds the first turn
//   take: bar.sync   first + w
//   pass: bar.arrive first + (w + 1) % W    (skipped at the first iteration
//                                            when the pass precedes the take)
//   after the loop: pass the turn still held (pass before take), then
//                   warpgroup 0 waits on barrier 0 once more: the last
//                   warpgroup's final pass, so every barrier ends in the
//                   phase it started in and a later loop may take turns.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "KernelPlanner.h"

#include "tile/Dialect/Tile/IR/TileHardware.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;

/// The named barrier of consumer warpgroup 0's turns (0 is the block's, 1
/// the consumers', WarpSpecialize.cpp).
static constexpr int64_t kFirstTurnBarrier = 2;

/// The take and the pass of a loop body, when its turns are taken.
static std::pair<TurnOp, TurnOp> turnsOf(PipelinedOp loop) {
  TurnOp take, pass;
  for (auto turn : loop.getBody().front().getOps<TurnOp>())
    if (turn.isEnabled())
      (turn.getKind() == TurnKind::take ? take : pass) = turn;
  return {take, pass};
}

/// Whether `op` (or an op in it) may make every consumer thread wait for
/// the others: a barrier, a wait with one, a reduction across threads, or
/// a copy through shared memory other than the loop's own loads.
static bool synchronisesConsumers(Operation *op, const KernelPlan &plan) {
  WalkResult walk = op->walk([&](Operation *nested) {
    bool waits = isa<gpu::BarrierOp, ReduceOp, ReductionOp>(nested);
    if (auto wait = dyn_cast<CopyWaitOp>(nested))
      waits = wait.getBarrier();
    if (auto copy = dyn_cast<CopyOp>(nested)) {
      CopyPath path = plan.copyPaths.lookup(copy);
      waits = path == CopyPath::AsyncRows || path == CopyPath::TmaStore ||
              path == CopyPath::FragmentToShared;
    }
    return waits ? WalkResult::interrupt() : WalkResult::advance();
  });
  return walk.wasInterrupted();
}

LogicalResult KernelPlanner::planTurns() {
  WalkResult walk = kernel.walk([&](TurnOp turn) {
    auto loop = cast<PipelinedOp>(turn->getParentOp());
    if (!turn.isEnabled() || turn.getKind() != TurnKind::take)
      return WalkResult::advance();
    if (!loop.isWarpSpecialized()) {
      turn.emitOpError(
          "takes a turn in a loop that is not warp-specialised: the block's "
          "barrier at each iteration would wait for a warpgroup that waits "
          "for its turn (set the loop's `warp_specialize`, or the turn's "
          "flag with it)");
      return WalkResult::interrupt();
    }
    // One consumer warpgroup always holds the turn (nothing is emitted).
    if (threads / kWarpgroupSize < 2)
      return WalkResult::advance();
    // The turn's ops: from the take to the pass, across the end of the
    // iteration when the pass comes first. A barrier among them would wait
    // for warpgroups that wait for the turn.
    auto [take, pass] = turnsOf(loop);
    Block &body = loop.getBody().front();
    bool passFirst = pass->isBeforeInBlock(take);
    for (Operation &op : body) {
      bool inTurn =
          passFirst ? (take->isBeforeInBlock(&op) || op.isBeforeInBlock(pass))
                    : (take->isBeforeInBlock(&op) && op.isBeforeInBlock(pass));
      if (!inTurn || !synchronisesConsumers(&op, plan))
        continue;
      op.emitOpError("synchronises the consumer warpgroups inside a turn, "
                     "where the others wait for the turn: move it between "
                     "the pass and the next take")
              .attachNote(take.getLoc())
          << "the turn is taken here";
      return WalkResult::interrupt();
    }
    // A turn held across the end of the iteration waits for the next
    // stage, which the producer refills once every consumer has freed it;
    // the warpgroups waiting for the turn have freed the stages of their
    // iterations before the one they wait in, less the release lag (none
    // when they free the stage before at a wait before the take).
    MmaWaitOp freeing = earlyStageRelease(loop);
    bool freedBeforeTake = freeing && freeing->isBeforeInBlock(take);
    int64_t needed = 2 + (freedBeforeTake ? 0 : stageReleaseLag(loop));
    if (passFirst && loop.getStageCount() < needed) {
      InFlightDiagnostic diag =
          turn.emitOpError("holds its turn across the end of the iteration, "
                           "where it waits for the next stage, which the "
                           "warpgroups waiting for the turn have not freed "
                           "yet (it would hang): the loop needs at least ")
          << needed << " stages";
      diag.attachNote(loop.getLoc())
          << "the loop, with " << loop.getStageCount() << " stages"
          << (needed > 2 ? " and a group left in flight past an "
                           "iteration's end (its stages are freed an "
                           "iteration late)"
                         : "");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

void KernelEmitter::beginTurns(PipelinedOp loop, Value count) {
  turns = TurnState();
  auto [take, pass] = turnsOf(loop);
  int64_t warpgroups = threads / kWarpgroupSize;
  if (!take || warpgroups < 2)
    return; // one warpgroup always holds the turn
  Location l = loc();
  turns.warpgroup = arith::IndexCastOp::create(
      b, l, b.getI32Type(),
      arith::DivUIOp::create(b, l, threadId, index(kWarpgroupSize)));
  turns.passFirst = pass->isBeforeInBlock(take);
  turns.runs =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, count, index(0));
  Value last = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                     turns.warpgroup, i32(warpgroups - 1));
  emitIf(arith::AndIOp::create(b, l, turns.runs, last),
         [&] { arriveOnTurn(i32(0)); });
}

void KernelEmitter::endTurns() {
  if (!turns.warpgroup)
    return;
  Location l = loc();
  emitIf(turns.runs, [&] {
    if (turns.passFirst)
      arriveOnTurn(nextWarpgroup());
    Value first = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                        turns.warpgroup, i32(0));
    emitIf(first, [&] { waitForTurn(i32(0)); });
  });
  turns = TurnState();
}

void KernelEmitter::setTurnIteration(Value it) { turns.iteration = it; }

Value KernelEmitter::nextWarpgroup() {
  Location l = loc();
  Value next = arith::AddIOp::create(b, l, turns.warpgroup, i32(1));
  return arith::RemUIOp::create(b, l, next, i32(threads / kWarpgroupSize));
}

void KernelEmitter::waitForTurn(Value warpgroup) {
  Location l = loc();
  Value id = arith::AddIOp::create(b, l, warpgroup, i32(kFirstTurnBarrier));
  NVVM::BarrierOp::create(b, l, Type(), id, i32(2 * kWarpgroupSize),
                          NVVM::BarrierReductionAttr(), Value());
}

void KernelEmitter::arriveOnTurn(Value warpgroup) {
  Location l = loc();
  Value id = arith::AddIOp::create(b, l, warpgroup, i32(kFirstTurnBarrier));
  NVVM::BarrierArriveOp::create(b, l, id, i32(2 * kWarpgroupSize));
}

LogicalResult KernelEmitter::lowerTurn(TurnOp op) {
  if (!op.isEnabled() || !turns.warpgroup)
    return success();
  if (op.getKind() == TurnKind::take) {
    waitForTurn(turns.warpgroup);
    return success();
  }
  if (!turns.passFirst) {
    arriveOnTurn(nextWarpgroup());
    return success();
  }
  // The first iteration's pass ends no turn.
  Value later = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::uge,
                                      turns.iteration, index(1));
  emitIf(later, [&] { arriveOnTurn(nextWarpgroup()); });
  return success();
}
