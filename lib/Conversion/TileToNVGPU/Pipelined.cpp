//===- Pipelined.cpp - tile.pipelined as a TMA + mbarrier ring ----------===//
//
// A pipelined loop of S stages becomes:
//
//   leader thread: init S mbarriers; prefetch the TMA descriptors
//   barrier
//   leader: for s < min(S, n): issue the TMA loads of iteration s into slot s
//   for it in [0, n):
//     wait on mbarrier[it % S] with phase (it / S) & 1
//     the body (its pipelined copies are already in flight)
//     barrier                      // every thread is done with slot (it-1) % S
//     leader: if it >= 1 and it-1+S < n: load iteration it-1+S into that slot
//   wait for the last wgmma group
//
// The slot of iteration it-1 is refilled only after iteration it, because a
// tile.gemm leaves its last wgmma group in flight across one iteration. With
// S = 1 that slot is the one iteration it+1 waits on, so a one-stage loop
// waits for the group at the end of each iteration and refills the slot
// with iteration it+1 at once.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;

/// Recomputes `v`, defined in the loop body `body`, for the iteration whose
/// induction variable `local` maps the body's argument to, by cloning the
/// ops it depends on. planPipelined checked that they can be (tile::
/// unrecomputable); `outside` gives the values from before the loop.
static Value materializeAt(OpBuilder &b, Value v, Block &body, IRMapping &local,
                           llvm::function_ref<Value(Value)> outside) {
  if (Value known = local.lookupOrNull(v))
    return known;
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != &body) {
    Value lowered = outside(v);
    local.map(v, lowered);
    return lowered;
  }
  assert(isRecomputable(def) && "planPipelined checks the copy offsets");
  for (Value operand : def->getOperands())
    materializeAt(b, operand, body, local, outside);
  b.clone(*def, local);
  return local.lookup(v);
}

SmallVector<CopyOp> KernelPlan::pipelinedLoads(PipelinedOp op,
                                               int64_t &txBytes) const {
  SmallVector<CopyOp> loads;
  txBytes = 0;
  for (auto copy : op.getBody().front().getOps<CopyOp>()) {
    if (copyPaths.lookup(copy) != CopyPath::TmaLoad)
      continue;
    loads.push_back(copy);
    txBytes += sharedTiles.lookup(copy.getDest()).stageBytes();
  }
  return loads;
}

Value KernelEmitter::iterationCount(Value lb, Value ub, Value step) {
  Location l = loc();
  Value span = arith::MaxSIOp::create(b, l, arith::SubIOp::create(b, l, ub, lb),
                                      index(0));
  return arith::CeilDivSIOp::create(b, l, span, step);
}

void KernelEmitter::issueStageLoads(PipelinedOp op, ArrayRef<CopyOp> loads,
                                    int64_t txBytes, Value bars, Value slot,
                                    Value iter, Value lb, Value step,
                                    llvm::function_ref<Value(Value)> outside) {
  Location l = op.getLoc();
  Block &body = op.getBody().front();
  Value iv =
      arith::AddIOp::create(b, l, lb, arith::MulIOp::create(b, l, iter, step));
  nvgpu::MBarrierArriveExpectTxOp::create(b, l, bars, index(txBytes), slot,
                                          Value());
  for (CopyOp copy : loads) {
    IRMapping local;
    local.map(body.getArgument(0), iv);
    SmallVector<Value> offsets;
    for (Value offset : copy.getSourceOffsets())
      offsets.push_back(materializeAt(b, offset, body, local, outside));
    emitTmaCopy(copy, bars, slot, slot, offsets);
  }
}

void KernelEmitter::emitPhaseWait(Value bars, Value slot, Value round) {
  Location l = loc();
  if (plan.multicast.enabled()) {
    emitClusterPhaseWait(bars, slot,
                         arith::RemUIOp::create(b, l, round, index(2)));
    return;
  }
  Value parity = arith::IndexCastOp::create(
      b, l, b.getI1Type(), arith::RemUIOp::create(b, l, round, index(2)));
  nvgpu::MBarrierTryWaitParityOp::create(b, l, bars, parity,
                                         index(kMbarrierWaitTicks), slot);
}

LogicalResult KernelEmitter::lowerIteration(PipelinedOp op, Value it, Value lb,
                                            Value step, Value slot) {
  Location l = op.getLoc();
  Block &body = op.getBody().front();
  map.map(
      body.getArgument(0),
      arith::AddIOp::create(b, l, lb, arith::MulIOp::create(b, l, it, step)));
  currentStage = slot;
  LogicalResult result = lowerBlock(body);
  currentStage = Value();
  return result;
}

LogicalResult KernelEmitter::lowerPipelined(PipelinedOp op) {
  Location l = op.getLoc();
  MLIRContext *ctx = b.getContext();
  int64_t stages = op.getStageCount();
  Block &body = op.getBody().front();

  int64_t txBytes = 0;
  SmallVector<CopyOp> loads = plan.pipelinedLoads(op, txBytes);
  // planPipelined checked that every load's offsets can be recomputed for
  // a later iteration.
  Value lb = map.lookup(op.getLower()), ub = map.lookup(op.getUpper());
  Value step = map.lookup(op.getStep());
  if (op.isWarpSpecialized())
    return lowerConsumerLoop(op); // planned with loads, at the kernel's top
  if (loads.empty()) {
    // Nothing to overlap: a plain serial loop.
    auto loop = scf::ForOp::create(b, l, lb, ub, step);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      map.map(body.getArgument(0), loop.getInductionVar());
      if (failed(lowerBlock(body)))
        return failure();
    }
    return success();
  }
  Value numIters = iterationCount(lb, ub, step);
  Value cStages = index(stages);

  auto barType = nvgpu::MBarrierGroupType::get(
      ctx, gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup),
      stages);
  Value bars = nvgpu::MBarrierCreateOp::create(b, l, barType);
  Value leader = isLeader();
  SmallVector<unsigned> usedMaps;
  for (CopyOp copy : loads)
    if (!llvm::is_contained(usedMaps, plan.copyTensorMap.lookup(copy)))
      usedMaps.push_back(plan.copyTensorMap.lookup(copy));
  emitIf(leader, [&] {
    for (int64_t s = 0; s < stages; ++s)
      nvgpu::MBarrierInitOp::create(b, l, bars, index(1), index(s), Value());
    for (unsigned t : usedMaps)
      nvgpu::TmaPrefetchOp::create(b, l, tensorMapArgs[t], Value());
  });
  emitBarrier();

  // Issues the loads of iteration `iter` into ring slot `slot` (leader only).
  auto issue = [&](Value slot, Value iter) {
    issueStageLoads(op, loads, txBytes, bars, slot, iter, lb, step,
                    [&](Value v) { return map.lookup(v); });
  };

  // Prologue: the first min(S, n) iterations.
  emitIf(leader, [&] {
    emitFor(index(0), cStages, [&](Value s) {
      Value live =
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, s, numIters);
      emitIf(live, [&] { issue(s, s); });
    });
  });

  // Steady state.
  auto loop = scf::ForOp::create(b, l, index(0), numIters, index(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value it = loop.getInductionVar();
  Value slot = arith::RemUIOp::create(b, l, it, cStages);
  emitPhaseWait(bars, slot, arith::DivUIOp::create(b, l, it, cStages));
  if (failed(lowerIteration(op, it, lb, step, slot)))
    return failure();
  // With one stage there is no other slot to read while this one refills:
  // the body ends by waiting for its wgmma groups (tile-plan-waits), and
  // the slot is refilled with the next iteration at once (lag 0). Waiting a
  // round for it, as with more stages, would wait on a load not yet issued.
  int64_t lag = stages == 1 ? 0 : 1;
  emitBarrier();
  Value prev = arith::SubIOp::create(b, l, it, index(lag));
  Value next = arith::AddIOp::create(b, l, prev, cStages);
  Value refill = arith::AndIOp::create(
      b, l, leader,
      arith::AndIOp::create(
          b, l,
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, it,
                                index(lag)),
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, next,
                                numIters)));
  emitIf(refill,
         [&] { issue(arith::RemUIOp::create(b, l, prev, cStages), next); });

  return success();
}
