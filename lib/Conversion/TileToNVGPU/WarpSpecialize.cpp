//===- WarpSpecialize.cpp - Producer and consumer warpgroups ------------===//
//
// A kernel with `tile.pipelined ... warp_specialize 1` loops is launched with
// one more warpgroup than its `threads`. That producer warpgroup gives its
// registers to the consumers (setmaxnreg) and one of its threads issues the
// TMA loads of every warp-specialised loop, in kernel order:
//
//   thread 0: init full[s] (1 arrival) and empty[s] (`threads` arrivals)
//   barrier (the whole block; the last one it takes part in)
//   producer:  for j in [0, n):
//                if j >= S: wait on empty[j % S], parity (j / S + 1) & 1
//                arrive on full[j % S] expecting the stage's bytes
//                issue iteration j's loads into slot j % S
//   consumers: for it in [0, n):
//                wait on full[it % S], parity (it / S) & 1
//                the body
//                arrive on empty[(it - lag) % S]
//
// A consumer frees the slot of iteration it - 1 (lag 1) when the body leaves
// a wgmma group in flight across one iteration (tile-plan-waits marks the
// loop tile.mma_in_flight_at_end): its wait_group 1 has completed the group
// that read that slot. Where tile-plan-waits marked the body's first wait
// for every group (tile.frees_previous_stage), the slot is freed right after
// that wait instead of at the end of the iteration. With one stage, or no
// group in flight, it frees the slot it has just read (lag 0). The consumers
// synchronise among themselves on a named barrier (emitBarrier), which the
// producer never reaches, instead of the block barrier at every iteration.
//
// A loop with a multicast load (Multicast.cpp) frees each stage in every
// block of the cluster, and the rings are set up and left under the
// cluster's barrier.
//
// The producer computes the loops' bounds and copy offsets itself: they are
// recomputed from kernel arguments, block ids and constants
// (planWarpSpecialization checks that they can be).
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "KernelPlanner.h"
#include "PredicatedAccess.h"
#include "tile/Dialect/Tile/IR/TileHardware.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

/// The named barrier the consumers of a warp-specialised kernel share (0 is
/// the block's).
static constexpr int64_t kConsumerBarrier = 1;

int64_t mlir::tile::stageReleaseLag(PipelinedOp loop) {
  // The header explains the lag; tile-plan-waits says whether there is one.
  return loop.getStageCount() > 1 && loop->hasAttr(kMmaInFlightAtEndAttr) ? 1
                                                                          : 0;
}

MmaWaitOp mlir::tile::earlyStageRelease(PipelinedOp loop) {
  for (auto wait : loop.getBody().front().getOps<MmaWaitOp>())
    if (wait->hasAttr(kFreesPreviousStageAttr))
      return wait;
  return {};
}

int64_t KernelPlan::blockThreads() const {
  return threads + (warpSpecialization.enabled() ? kWarpgroupSize : 0);
}

void KernelEmitter::emitBarrier() {
  if (!plan.warpSpecialization.enabled()) {
    gpu::BarrierOp::create(b, loc());
    return;
  }
  NVVM::BarrierOp::create(b, loc(), Type(), i32(kConsumerBarrier), i32(threads),
                          NVVM::BarrierReductionAttr(), Value());
}

Value KernelEmitter::emitBarrierAny(Value pred) {
  Location l = loc();
  Value predicate = arith::ExtUIOp::create(b, l, b.getI32Type(), pred);
  Value any;
  if (!plan.warpSpecialization.enabled()) {
    auto orAttr = NVVM::BarrierReductionAttr::get(b.getContext(),
                                                  NVVM::BarrierReduction::OR);
    any = NVVM::BarrierOp::create(b, l, b.getI32Type(), Value(), Value(),
                                  orAttr, predicate)
              .getRes();
  } else {
    // nvvm.barrier reduces on barrier 0 only, which the producer
    // warpgroup never reaches: the consumers' named barrier, in PTX.
    any = inlinePtx(b, l, b.getI32Type(),
                    ValueRange{predicate, i32(kConsumerBarrier), i32(threads)},
                    "{\n\t.reg .pred p, q;\n\tsetp.ne.b32 p, $1, 0;\n\t"
                    "bar.red.or.pred q, $2, $3, p;\n\tselp.u32 $0, 1, 0, q;"
                    "\n\t}",
                    "=r,r,r,r");
  }
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, any, i32(0));
}

/// Calls `use` on each value from outside the loop body `body` that the
/// body's computation of `v` reads (planPipelined checked that the
/// computation may be cloned).
static void forEachOutsideValue(Value v, Block &body,
                                llvm::function_ref<void(Value)> use) {
  Operation *def = v.getDefiningOp();
  if (v == body.getArgument(0))
    return;
  if (!def || def->getBlock() != &body) {
    use(v);
    return;
  }
  for (Value operand : def->getOperands())
    forEachOutsideValue(operand, body, use);
}

LogicalResult KernelPlanner::planWarpSpecialization() {
  WalkResult walk = kernel.walk([&](PipelinedOp loop) {
    if (!loop.isWarpSpecialized())
      return WalkResult::advance();
    auto fail = [&](const Twine &message) {
      loop.emitOpError(message);
      return WalkResult::interrupt();
    };
    if (loop->getParentOp() != kernel)
      return fail("a warp-specialised loop sits directly in the kernel "
                  "body: its producer runs apart from the consumers' "
                  "branches and loops");
    int64_t txBytes = 0;
    SmallVector<CopyOp> loads = plan.pipelinedLoads(loop, txBytes);
    if (loads.empty())
      return fail("warp_specialize needs a global-to-shared copy in the "
                  "loop: the producer warpgroup issues those only");
    SmallVector<Value> needed{loop.getLower(), loop.getUpper(), loop.getStep()};
    Block &body = loop.getBody().front();
    for (CopyOp copy : loads)
      for (Value offset : copy.getSourceOffsets())
        forEachOutsideValue(offset, body,
                            [&](Value v) { needed.push_back(v); });
    // The loop sits in the kernel body, so what it reads from before it is
    // computed there (block ids are recomputable too).
    for (Value v : needed)
      if (Operation *bad = unrecomputable(v, kernel.getBodyBlock())) {
        noteUnrecomputable(
            loop.emitOpError(
                "is warp-specialised, so its bounds and copy offsets must be "
                "computed from kernel arguments, block ids and constants"),
            bad);
        return WalkResult::interrupt();
      }
    plan.warpSpecialization.loops.push_back(loop);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (!plan.warpSpecialization.enabled())
    return success();
  PipelinedOp first = plan.warpSpecialization.loops.front();
  if (threads % kWarpgroupSize != 0)
    return first.emitOpError("warp specialisation adds a producer warpgroup "
                             "after whole consumer warpgroups: threads (")
           << threads << ") must be a multiple of " << kWarpgroupSize;
  if (plan.blockThreads() > kMaxBlockThreads)
    return first.emitOpError("warp specialisation adds a producer warpgroup: ")
           << threads << " + " << kWarpgroupSize
           << " threads exceed the block's " << kMaxBlockThreads;
  std::tie(plan.warpSpecialization.producerRegisters,
           plan.warpSpecialization.consumerRegisters) =
      target.getRegisterBudgets(threads, kernel.getMinBlocks().value_or(1));
  return success();
}

LogicalResult KernelEmitter::emitWarpSpecialized(
    llvm::function_ref<LogicalResult()> consumerBody) {
  Location l = loc();
  MLIRContext *ctx = b.getContext();
  Value leader = isLeader();
  for (PipelinedOp loop : plan.warpSpecialization.loops) {
    auto barType = nvgpu::MBarrierGroupType::get(
        ctx, gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup),
        loop.getStageCount());
    StageRing ring{nvgpu::MBarrierCreateOp::create(b, l, barType),
                   nvgpu::MBarrierCreateOp::create(b, l, barType)};
    rings[loop] = ring;
    emitIf(leader, [&] {
      for (int64_t s = 0; s < loop.getStageCount(); ++s) {
        nvgpu::MBarrierInitOp::create(b, l, ring.full, index(1), index(s),
                                      Value());
        nvgpu::MBarrierInitOp::create(
            b, l, ring.empty, index(stageReaders(loop)), index(s), Value());
      }
    });
  }
  if (plan.multicast.enabled()) {
    // The rings are ready in every block before any loads into another.
    NVVM::FenceMbarrierInitOp::create(b, l);
    emitClusterBarrier();
  } else {
    gpu::BarrierOp::create(b, l); // the whole block: the rings are ready
  }

  Value isProducer = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge,
                                           threadId, index(threads));
  auto roles = scf::IfOp::create(b, l, isProducer, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);

  // The producer: registers to the consumers, then one thread issues.
  b.setInsertionPoint(roles.thenBlock()->getTerminator());
  if (int64_t regs = plan.warpSpecialization.producerRegisters)
    NVVM::SetMaxRegisterOp::create(b, l, regs,
                                   NVVM::SetMaxRegisterAction::decrease);
  Value issuer = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, threadId,
                                       index(threads));
  // The producer computes what the loops need in its own mapping, from the
  // lowered kernel arguments.
  IRMapping producerMap = map;
  std::function<Value(Value)> producerValue = [&](Value v) -> Value {
    if (Value known = producerMap.lookupOrNull(v))
      return known;
    Operation *def = v.getDefiningOp();
    for (Value operand : def->getOperands())
      producerValue(operand);
    if (auto id = dyn_cast<BlockIdOp>(def))
      producerMap.map(id.getResult(),
                      gpu::BlockIdOp::create(b, l, (gpu::Dimension)id.getDim())
                          .getResult());
    else
      b.clone(*def, producerMap);
    return producerMap.lookup(v);
  };
  emitIf(issuer, [&] {
    for (Value descriptor : tensorMapArgs)
      nvgpu::TmaPrefetchOp::create(b, l, descriptor, Value());
    for (PipelinedOp loop : plan.warpSpecialization.loops) {
      const StageRing &ring = rings.lookup(loop);
      int64_t txBytes = 0;
      SmallVector<CopyOp> loads = plan.pipelinedLoads(loop, txBytes);
      // Computed once, before the loop: a value used in its body only would
      // not dominate the next loop's uses.
      for (CopyOp copy : loads)
        for (Value offset : copy.getSourceOffsets())
          forEachOutsideValue(offset, loop.getBody().front(),
                              [&](Value v) { producerValue(v); });
      Value lb = producerValue(loop.getLower());
      Value step = producerValue(loop.getStep());
      Value count = iterationCount(lb, producerValue(loop.getUpper()), step);
      Value stages = index(loop.getStageCount());
      emitFor(index(0), count, [&](Value j) {
        Value slot = arith::RemUIOp::create(b, l, j, stages);
        Value reuse =
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, j, stages);
        // The slot's previous round: the consumers freed it then.
        emitIf(reuse, [&] {
          Value round = arith::DivUIOp::create(b, l, j, stages);
          emitPhaseWait(ring.empty, slot,
                        arith::AddIOp::create(b, l, round, index(1)));
        });
        issueStageLoads(loop, loads, txBytes, ring.full, slot, j, lb, step,
                        producerValue);
      });
    }
  });

  // The consumers: the kernel body.
  b.setInsertionPoint(roles.elseBlock()->getTerminator());
  if (int64_t regs = plan.warpSpecialization.consumerRegisters)
    NVVM::SetMaxRegisterOp::create(b, l, regs,
                                   NVVM::SetMaxRegisterAction::increase);
  if (failed(consumerBody()))
    return failure();
  // No block leaves while another's multicast loads or stage releases may
  // still reach its shared memory.
  if (plan.multicast.enabled()) {
    b.setInsertionPointAfter(roles);
    emitClusterBarrier();
  }
  return success();
}

LogicalResult KernelEmitter::lowerConsumerLoop(PipelinedOp op) {
  Location l = op.getLoc();
  const StageRing &ring = rings.lookup(op);
  int64_t stages = op.getStageCount();
  Value lb = map.lookup(op.getLower()), ub = map.lookup(op.getUpper());
  Value step = map.lookup(op.getStep());
  Value cStages = index(stages);
  Value count = iterationCount(lb, ub, step);
  beginTurns(op, count);
  auto loop = scf::ForOp::create(b, l, index(0), count, index(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value it = loop.getInductionVar();
  setTurnIteration(it);
  Value slot = arith::RemUIOp::create(b, l, it, cStages);
  emitPhaseWait(ring.full, slot, arith::DivUIOp::create(b, l, it, cStages));
  bool multicast = plan.multicast.loops.contains(op);
  auto release = [&](Value freed) {
    if (multicast)
      releaseStageInCluster(ring.empty, freed);
    else
      nvgpu::MBarrierArriveOp::create(b, l, ring.empty, freed);
  };
  auto releasePrevious = [&] {
    Value hasPrev =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, it, index(1));
    emitIf(hasPrev, [&] {
      release(arith::RemUIOp::create(
          b, l, arith::SubIOp::create(b, l, it, index(1)), cStages));
    });
  };
  bool lagged = stageReleaseLag(op) == 1;
  bool early = lagged && earlyStageRelease(op);
  if (early)
    freePreviousStage = releasePrevious;
  LogicalResult lowered = lowerIteration(op, it, lb, step, slot);
  freePreviousStage = nullptr;
  if (failed(lowered))
    return failure();
  if (lagged && !early)
    releasePrevious();
  else if (!lagged)
    release(slot);
  b.setInsertionPointAfter(loop);
  endTurns();
  return success();
}
