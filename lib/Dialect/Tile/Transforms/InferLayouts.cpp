//===- InferLayouts.cpp - Give every register fragment a layout ---------===//
//
// Layouts flow along the ops that relate fragments (see Passes.td) until a
// fixed point; a fragment that nothing constrains is then given a blocked
// layout, sources before derived fragments, and the flow resumes.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileHardware.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEINFERLAYOUTS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Bytes of one vectorised global access (ld.global.v4.b32).
constexpr int64_t kVectorBytes = 16;

/// The layouts of one kernel's fragments, and who set them.
class LayoutSolver {
public:
  explicit LayoutSolver(KernelOp kernel) : kernel(kernel) {}

  LogicalResult run();

private:
  /// Records `layout` for `frag`, or reports a conflict at `op`.
  LogicalResult require(Value frag, Attribute layout, Operation *op);
  /// One sweep over the kernel; sets `changed` when a layout was learnt.
  LogicalResult propagate(bool &changed);
  /// A blocked layout for `type` whose rows are spread over the warps.
  Attribute defaultLayout(FragmentType type, Type globalElement);
  bool isFragment(Value v) { return isa<FragmentType>(v.getType()); }

  KernelOp kernel;
  llvm::MapVector<Value, Attribute> layouts;
  DenseMap<Value, Operation *> setBy;
};
} // namespace

LogicalResult LayoutSolver::require(Value frag, Attribute layout,
                                    Operation *op) {
  auto [it, inserted] = layouts.insert({frag, layout});
  if (inserted) {
    setBy[frag] = op;
    return success();
  }
  if (it->second == layout)
    return success();
  InFlightDiagnostic d = op->emitOpError("layout conflict: this op needs ")
                         << layout << " for a fragment that has " << it->second;
  if (Operation *first = setBy.lookup(frag))
    d.attachNote(first->getLoc()) << "layout set here";
  return d;
}

LogicalResult LayoutSolver::propagate(bool &changed) {
  size_t before = layouts.size();
  WalkResult result = kernel.walk([&](Operation *op) -> WalkResult {
    if (auto gemm = dyn_cast<GemmOp>(op)) {
      if (!isFragment(gemm.getC()))
        return WalkResult::advance();
      int64_t threads = kernel.getThreadCount();
      if (threads % kWarpgroupSize != 0) {
        gemm.emitOpError("warpgroup MMA needs whole warpgroups: threads (")
            << threads << ") must be a multiple of " << kWarpgroupSize;
        return WalkResult::interrupt();
      }
      auto mma = MmaLayoutAttr::get(op->getContext(), threads / kWarpgroupSize);
      if (failed(require(gemm.getC(), mma, op)))
        return WalkResult::interrupt();
      // A fragment A is read from registers as the accumulator lays them
      // out (gemm_c1), so it takes C's layout; so do, through the copies
      // and element-wise bodies that produce it, the fragments it comes
      // from (the converted weights of a dequantising loop).
      if (isFragment(gemm.getA()) && failed(require(gemm.getA(), mma, op)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    }
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      Attribute src = layouts.lookup(reduce.getSource());
      if (!src)
        return WalkResult::advance();
      auto slice = SliceLayoutAttr::get(op->getContext(), reduce.getDim(), src);
      return failed(require(reduce.getDest(), slice, op))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    }
    if (auto copy = dyn_cast<CopyOp>(op)) {
      if (!isFragment(copy.getSource()) || !isFragment(copy.getDest()))
        return WalkResult::advance();
      for (auto [from, to] : {std::pair(copy.getSource(), copy.getDest()),
                              std::pair(copy.getDest(), copy.getSource())})
        if (Attribute l = layouts.lookup(from))
          if (failed(require(to, l, op)))
            return WalkResult::interrupt();
      return WalkResult::advance();
    }
    auto parallel = dyn_cast<ParallelOp>(op);
    if (!parallel)
      return WalkResult::advance();
    SmallVector<AffineMap> maps;
    for (Attribute a : parallel.getIndexingMaps())
      maps.push_back(cast<AffineMapAttr>(a).getValue());
    Attribute out;
    for (Value v : parallel.getOutputs())
      if (!out)
        out = layouts.lookup(v);
    for (auto [i, v] : llvm::enumerate(parallel.getInputs()))
      if (!out && maps[i].isIdentity() && isFragment(v))
        out = layouts.lookup(v);
    if (!out)
      return WalkResult::advance();
    for (Value v : parallel.getOutputs())
      if (isFragment(v) && failed(require(v, out, op)))
        return WalkResult::interrupt();
    for (auto [i, v] : llvm::enumerate(parallel.getInputs())) {
      if (!isFragment(v))
        continue;
      // The identity map takes the outputs' layout, a broadcast its slice.
      FailureOr<int64_t> dim = parallel.getBroadcastDim(i);
      if (failed(dim)) {
        op->emitOpError("input #")
            << i << " is indexed by " << AffineMapAttr::get(maps[i])
            << "; a fragment input must be indexed by the identity or by "
               "the identity without one dimension (a broadcast)";
        return WalkResult::interrupt();
      }
      Attribute l =
          *dim < 0 ? out : SliceLayoutAttr::get(op->getContext(), *dim, out);
      if (failed(require(v, l, op)))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  changed = layouts.size() != before;
  return failure(result.wasInterrupted());
}

/// The layout a fragment gets by default: runs of `maxVector` (or shorter)
/// along the last dimension, the lanes filling the columns first and the
/// warps the rows; it may overhang a small fragment.
static BlockedLayoutAttr preferredLayout(MLIRContext *ctx,
                                         ArrayRef<int64_t> shape, int64_t warps,
                                         int64_t maxVector) {
  int64_t cols = shape.back();
  int64_t vector = maxVector;
  while (vector > 1 && cols % vector != 0)
    vector /= 2;
  int64_t laneCols = 1;
  while (laneCols < kWarpSize && laneCols * vector * 2 <= cols)
    laneCols *= 2;
  if (shape.size() == 1) {
    // Every thread of the block holds a run: a short fragment takes
    // shorter runs (256 elements over 128 threads: two each).
    while (vector > 1 && cols % (vector * kWarpSize * warps) != 0)
      vector /= 2;
    return BlockedLayoutAttr::get(ctx, vector, {kWarpSize}, {warps});
  }
  int64_t warpCols = 1;
  int64_t rows = shape[0];
  // Spread rows over the warps first; give leftover warps to the columns.
  int64_t laneRows = kWarpSize / laneCols;
  while (warpCols < warps && rows < laneRows * (warps / warpCols) &&
         laneCols * vector * warpCols * 2 <= cols)
    warpCols *= 2;
  // The columns' footprint must divide them: 7168 columns over 8 warps of
  // 32 lanes take runs of 4, not 8.
  while (vector > 1 && cols % (vector * laneCols * warpCols) != 0)
    vector /= 2;
  return BlockedLayoutAttr::get(ctx, vector, {laneRows, laneCols},
                                {warps / warpCols, warpCols});
}

/// Whether a blocked layout (`vector`, `lanes`, `warps`) tiles `shape`
/// exactly: each dimension a multiple of what the layout spreads along it.
static bool tiles(ArrayRef<int64_t> shape, int64_t vector,
                  ArrayRef<int64_t> lanes, ArrayRef<int64_t> warps) {
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t run = d + 1 == shape.size() ? vector : 1;
    if (shape[d] % (run * lanes[d] * warps[d]) != 0)
      return false;
  }
  return true;
}

Attribute LayoutSolver::defaultLayout(FragmentType type, Type globalElement) {
  MLIRContext *ctx = type.getContext();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t warps = std::max<int64_t>(kernel.getThreadCount() / kWarpSize, 1);
  int64_t eltBytes =
      std::max<int64_t>(globalElement.getIntOrFloatBitWidth() / 8, 1);
  int64_t maxVector = std::max<int64_t>(1, kVectorBytes / eltBytes);
  BlockedLayoutAttr preferred = preferredLayout(ctx, shape, warps, maxVector);
  if (shape.size() != 2 || tiles(shape, preferred.getVector(),
                                 preferred.getLanes(), preferred.getWarps()))
    return preferred;
  // A small fragment ([4, 128] over 128 threads) that the preferred
  // split overhangs: the widest runs, then the most lanes along the
  // columns (coalesced), then the most warps along the rows, that tile it.
  for (int64_t vector = maxVector; vector >= 1; vector /= 2)
    for (int64_t laneCols = kWarpSize; laneCols >= 1; laneCols /= 2)
      for (int64_t warpCols = 1; warpCols <= warps; warpCols *= 2) {
        SmallVector<int64_t> lanes{kWarpSize / laneCols, laneCols};
        SmallVector<int64_t> ws{warps / warpCols, warpCols};
        if (tiles(shape, vector, lanes, ws))
          return BlockedLayoutAttr::get(ctx, vector, lanes, ws);
      }
  // Too few elements for the block's threads: the lowering says so.
  return preferred;
}

LogicalResult LayoutSolver::run() {
  SmallVector<AllocFragmentOp> allocs(
      kernel.getBodyBlock().getOps<AllocFragmentOp>());
  for (AllocFragmentOp alloc : allocs)
    if (std::optional<Attribute> l = alloc.getLayout())
      layouts[alloc.getResult()] = *l, setBy[alloc.getResult()] = alloc;

  // A fragment is derived if some op gives it a layout from another one.
  DenseSet<Value> derived;
  kernel.walk([&](Operation *op) {
    if (auto reduce = dyn_cast<ReduceOp>(op))
      derived.insert(reduce.getDest());
    if (auto parallel = dyn_cast<ParallelOp>(op))
      for (auto [i, v] : llvm::enumerate(parallel.getInputs()))
        if (!cast<AffineMapAttr>(parallel.getIndexingMaps()[i])
                 .getValue()
                 .isIdentity())
          derived.insert(v);
  });
  // The element type a fragment meets in global memory sets its vector width.
  DenseMap<Value, Type> globalType;
  kernel.walk([&](CopyOp copy) {
    if (auto m = dyn_cast<MemRefType>(copy.getSource().getType()))
      globalType[copy.getDest()] = m.getElementType();
    if (auto m = dyn_cast<MemRefType>(copy.getDest().getType()))
      globalType[copy.getSource()] = m.getElementType();
  });
  kernel.walk([&](AtomicOp atomic) {
    globalType[atomic.getValue()] =
        cast<MemRefType>(atomic.getDest().getType()).getElementType();
  });

  while (true) {
    bool changed = true;
    while (changed)
      if (failed(propagate(changed)))
        return failure();
    AllocFragmentOp pick;
    for (bool allowDerived : {false, true}) {
      for (AllocFragmentOp alloc : allocs)
        if (!pick && !layouts.count(alloc.getResult()) &&
            (allowDerived || !derived.count(alloc.getResult())))
          pick = alloc;
      if (pick)
        break;
    }
    if (!pick)
      break;
    if (pick.getType().getShape().size() > 2)
      return pick.emitOpError("has no layout: nothing relates it to a "
                              "laid-out fragment, and default (blocked) "
                              "layouts are 1-d or 2-d");
    Type global = globalType.lookup(pick.getResult());
    layouts[pick.getResult()] = defaultLayout(
        pick.getType(), global ? global : pick.getType().getElementType());
    setBy[pick.getResult()] = pick;
  }
  for (AllocFragmentOp alloc : allocs)
    alloc.setLayoutAttr(layouts.lookup(alloc.getResult()));
  return success();
}

namespace {
struct InferLayoutsPass : tile::impl::TileInferLayoutsBase<InferLayoutsPass> {
  void runOnOperation() override {
    for (auto kernel : getOperation().getOps<KernelOp>())
      if (failed(kernel.requireSpecialised(getArgument())) ||
          failed(LayoutSolver(kernel).run()))
        return signalPassFailure();
  }
};
} // namespace
