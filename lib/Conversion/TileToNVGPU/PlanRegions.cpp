//===- PlanRegions.cpp - Where tile operations may sit -------------------===//
//
// Planning's checks of the regions around tile operations: a branch or a
// serial loop may enclose them when every thread of the block takes the
// same path the same number of times (barriers inside are reached by all
// or none), a tile.atomic combines values and at offsets the same in every
// thread, tiles have the static sizes tile-specialize folded, and no view
// of a memref argument is taken. Each refusal is a diagnostic at the op.
//
//===----------------------------------------------------------------------===//

#include "KernelPlanner.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;

/// The op of `cond`'s backward slice that makes it differ between the threads
/// of a block, if any.
static Operation *threadDependence(Value cond) {
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.inclusive = true;
  (void)getBackwardSlice(cond, &slice, options);
  for (Operation *op : slice)
    if (isa<gpu::ThreadIdOp, gpu::GlobalIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp,
            gpu::ShuffleOp, LLVM::InlineAsmOp>(op) ||
        isa_and_present<NVVM::NVVMDialect>(op->getDialect()))
      return op;
  return nullptr;
}

/// An scf.if may branch over tile operations when its condition is the same
/// in every thread of the block, so that the barriers inside are reached by
/// all threads or by none: tile operations give no value that depends on the
/// thread outside element-wise bodies, and a condition computed from one
/// that does (gpu.thread_id, ...) is refused. What a branch may not hold:
/// results (fragments are not SSA values), TMA loads and pipelined loops,
/// whose barriers and stages are planned for the whole kernel. A tile
/// operation with no lowering is refused here, so that emission meets only
/// those it lowers.
LogicalResult KernelPlanner::planRegions() {
  WalkResult walk =
      kernel->walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
        if (isa<ParallelOp>(op))
          return WalkResult::skip(); // its body is per element
        // No op of today's dialect gets here (tile.param cannot outlive
        // tile-specialize, tile.index lives in element-wise bodies); an op
        // added without a lowering does, and is refused, not crashed on.
        if (isa_and_present<TileDialect>(op->getDialect()) &&
            !isa<KernelOp, YieldOp, AllocSharedOp, AllocFragmentOp>(op) &&
            !isEmitted(op)) {
          op->emitOpError("is not lowered on ") << target.getChip();
          return WalkResult::interrupt();
        }
        // The lowering moves the memref arguments into the global address
        // space; a view of one (memref.subview, memref.cast, ...) keeps
        // its old type and would be invalid.
        if (!isa_and_present<TileDialect>(op->getDialect()) &&
            llvm::any_of(op->getOperandTypes(), llvm::IsaPred<MemRefType>) &&
            llvm::any_of(op->getResultTypes(), llvm::IsaPred<MemRefType>)) {
          op->emitOpError("makes a view of a memref in a tile.kernel, which "
                          "is not lowered on ")
              << target.getChip()
              << "; give the tile ops the argument itself with offsets";
          return WalkResult::interrupt();
        }
        // Sizes are folded into the tile types by tile-specialize; a `?`
        // left would be planned as no storage at all.
        if (isa<AllocSharedOp, AllocFragmentOp>(op) &&
            !cast<ShapedType>(op->getResult(0).getType()).hasStaticShape()) {
          op->emitOpError("allocates ")
              << op->getResult(0).getType()
              << ", whose sizes are not constants; a tile's sizes are "
                 "integers or parameters, folded by tile-specialize";
          return WalkResult::interrupt();
        }
        if (auto atomic = dyn_cast<AtomicOp>(op))
          return planAtomic(atomic) ? WalkResult::advance()
                                    : WalkResult::interrupt();
        if (auto arrive = dyn_cast<ArriveOp>(op))
          return planArrive(arrive) ? WalkResult::advance()
                                    : WalkResult::interrupt();
        if (op == kernel.getOperation() || isa<PipelinedOp>(op) ||
            !holdsTileOps(op))
          return WalkResult::advance();
        if (auto loop = dyn_cast<scf::ForOp>(op))
          return planSerialLoop(loop) ? WalkResult::advance()
                                      : WalkResult::interrupt();
        auto branch = dyn_cast<scf::IfOp>(op);
        if (!branch) {
          op->emitOpError("holds tile operations; only tile.pipelined, "
                          "scf.for and scf.if may enclose them on ")
              << target.getChip();
          return WalkResult::interrupt();
        }
        if (Operation *source = threadDependence(branch.getCondition())) {
          branch.emitOpError("holds tile operations, and its condition "
                             "depends on the thread through '")
              << source->getName()
              << "': every thread of the block must take the same path";
          return WalkResult::interrupt();
        }
        if (branch.getNumResults()) {
          branch.emitOpError("holds tile operations and yields values; a "
                             "branch over tile operations has no results");
          return WalkResult::interrupt();
        }
        WalkResult inner = branch->walk([&](Operation *nested) {
          if (isa<PipelinedOp>(nested)) {
            nested->emitOpError("inside scf.if is not lowered on ")
                << target.getChip() << "; branch inside its body instead";
            return WalkResult::interrupt();
          }
          auto copy = dyn_cast<CopyOp>(nested);
          if (copy && isTmaLoad(copy)) {
            copy.emitOpError("a global-to-shared copy (a TMA load) cannot "
                             "be conditional on ")
                << target.getChip();
            return WalkResult::interrupt();
          }
          return WalkResult::advance();
        });
        return inner.wasInterrupted() ? WalkResult::interrupt()
                                      : WalkResult::advance();
      });
  return failure(walk.wasInterrupted());
}

/// A tile.atomic is issued once per element by the thread that owns it, or
/// for a scalar once per block: its offsets, and a scalar value, must be
/// the same in every thread, or the other threads' values would be lost.
bool KernelPlanner::planAtomic(AtomicOp atomic) {
  SmallVector<Value> uniform(atomic.getOffsets());
  if (!isa<FragmentType>(atomic.getValue().getType()))
    uniform.push_back(atomic.getValue());
  for (Value v : uniform)
    if (Operation *source = threadDependence(v)) {
      atomic.emitOpError("combines ")
          << (v == atomic.getValue() ? "a scalar that depends"
                                     : "at offsets that depend")
          << " on the thread through '" << source->getName()
          << "'; a scalar or the offsets of tile.atomic must be the same in "
             "every thread (reduce the values into a fragment or with "
             "tile.reduction first)";
      return false;
    }
  return true;
}

/// A tile.arrive is one atomic per block: its counter, offsets and count
/// must be the same in every thread. Its release covers the block's own
/// stores and atomics, not the writes of a TMA store (the async proxy,
/// completed by no wait of the block's threads), so a TMA store that may
/// run before it, earlier in the kernel or in a serial loop around both,
/// is refused.
bool KernelPlanner::planArrive(ArriveOp arrive) {
  SmallVector<Value> uniform(arrive.getOffsets());
  uniform.push_back(arrive.getCount());
  uniform.push_back(arrive.getCounter());
  for (Value v : uniform)
    if (Operation *source = threadDependence(v)) {
      arrive.emitOpError("counts at a counter that depends on the thread "
                         "through '")
          << source->getName()
          << "'; its offsets and count must be the same in every thread";
      return false;
    }
  // The launch rounds the grid up to whole clusters: the blocks past the
  // grid of the shapes would arrive too, at counters of other tiles.
  if (kernel.getCluster()) {
    arrive.emitOpError("in a kernel launched in clusters is not lowered on ")
        << target.getChip()
        << ": the blocks that round the grid up to whole clusters would "
           "arrive too";
    return false;
  }
  bool seenArrive = false;
  WalkResult walk = kernel->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == arrive.getOperation())
      seenArrive = true;
    auto copy = dyn_cast<CopyOp>(op);
    if (!copy || !isTmaStore(copy))
      return WalkResult::advance();
    bool sharesLoop = false;
    for (auto loop = copy->getParentOfType<scf::ForOp>(); loop && !sharesLoop;
         loop = loop->getParentOfType<scf::ForOp>())
      sharesLoop = loop->isProperAncestor(arrive);
    if (seenArrive && !sharesLoop)
      return WalkResult::advance();
    InFlightDiagnostic diag =
        arrive.emitOpError("follows a copy from a shared tile to global "
                           "memory (a TMA store), whose writes its arrival "
                           "does not release on ")
        << target.getChip()
        << "; store the fragment directly (tile.copy %frag -> %memref) "
           "before tile.arrive";
    diag.attachNote(copy.getLoc()) << "the TMA store";
    return WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

/// An scf.for may run tile operations serially when its bounds are the same
/// in every thread, so that each barrier inside is reached by all threads
/// the same number of times, and it carries no values (fragments are not
/// SSA values). A TMA load inside must belong to a pipelined loop in it:
/// the barrier of a lone one is initialised where it is issued, and could
/// be initialised again while a thread still waits on it.
bool KernelPlanner::planSerialLoop(scf::ForOp loop) {
  for (Value bound :
       {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
    if (Operation *source = threadDependence(bound)) {
      loop.emitOpError("holds tile operations, and its bounds depend on the "
                       "thread through '")
          << source->getName()
          << "': every thread of the block must run the same iterations";
      return false;
    }
  if (loop.getNumResults()) {
    loop.emitOpError("holds tile operations and carries values; a loop over "
                     "tile operations has no iter_args");
    return false;
  }
  // A step that is not positive never ends the loop: refused when it is
  // known here, trapped at run time (lowerFor) when it is not.
  APInt step;
  if (matchPattern(loop.getStep(), m_ConstantInt(&step)) &&
      !step.isStrictlyPositive()) {
    loop.emitOpError("holds tile operations and its step (")
        << step.getSExtValue() << ") is not positive: the loop would not end";
    return false;
  }
  WalkResult inner = loop.getBody()->walk([&](CopyOp copy) {
    if (!isTmaLoad(copy) || copy->getParentOfType<PipelinedOp>())
      return WalkResult::advance();
    copy.emitOpError("a global-to-shared copy (a TMA load) inside scf.for "
                     "must be in a tile.pipelined loop on ")
        << target.getChip();
    return WalkResult::interrupt();
  });
  return !inner.wasInterrupted();
}
