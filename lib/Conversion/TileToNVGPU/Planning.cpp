//===- Planning.cpp - Resource planning for the sm_90a lowering ---------===//
//
// Decides, before any code is emitted, where each shared tile lives, which
// TMA descriptors the kernel takes and the layout of each fragment, and
// rejects what the sm_90a path cannot lower with a diagnostic at the op.
//
//===----------------------------------------------------------------------===//

#include "KernelPlanner.h"
#include "tile/Dialect/Tile/IR/TileHardware.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

static int64_t bytesOf(Type t) { return t.getIntOrFloatBitWidth() / 8; }

/// Sizes are planned in bytes: an element narrower than a byte (i1, i4,
/// f4) has none, and would divide by zero.
static LogicalResult checkElementBytes(KernelOp kernel, StringRef chip) {
  auto wholeBytes = [](Type t) {
    return t.isIndex() ||
           (t.isIntOrFloat() && t.getIntOrFloatBitWidth() % 8 == 0);
  };
  for (auto [i, arg] : llvm::enumerate(kernel.getBodyBlock().getArguments()))
    if (auto m = dyn_cast<MemRefType>(arg.getType());
        m && !wholeBytes(m.getElementType()))
      return kernel.emitOpError("argument #")
             << i << ": " << chip
             << " lowers memrefs of whole-byte elements, got "
             << m.getElementType();
  WalkResult walk = kernel.walk([&](Operation *op) {
    if (!isa<AllocSharedOp, AllocFragmentOp>(op))
      return WalkResult::advance();
    Type element =
        cast<ShapedType>(op->getResult(0).getType()).getElementType();
    if (wholeBytes(element))
      return WalkResult::advance();
    op->emitOpError() << chip << " lowers tiles of whole-byte elements, got "
                      << element;
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

/// The scalars NVPTX computes with: f16, bf16, f32 and f64, and integers of
/// up to 64 bits. Others (f80, f128, i128, the 8-bit floats) crash or abort
/// LLVM's instruction selection, or give PTX that ptxas refuses.
static bool isLoweredScalar(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth() <= 64;
  if (isa<FloatType>(t))
    return t.isF16() || t.isBF16() || t.isF32() || t.isF64();
  return true; // not a scalar: its elements are checked on their own
}

/// Whether `op` may define or use a scalar 8-bit float: they are stored and
/// converted, never computed with. A parallel body's arguments and yield
/// carry them, arith.truncf makes them and arith.extf reads them (the
/// target converts, lowerEightBitFloatConversions).
static bool movesEightBitFloats(Operation *op) {
  return isa<ParallelOp, YieldOp, arith::TruncFOp, arith::ExtFOp>(op);
}

/// Every scalar type in the kernel, alone or as the element of a memref, a
/// tile or a vector, is one the target computes with; but memrefs, shared
/// tiles and fragments may hold 8-bit floats, which only copies, tensor
/// cores (gemm_c6) and conversions touch.
static LogicalResult checkScalarTypes(KernelOp kernel, StringRef chip) {
  auto eightBitOnly = [&](Operation *op, Type type) -> LogicalResult {
    return op->emitOpError("has type ")
           << type << "; " << chip << " stores and converts 8-bit floats but "
           << "does not compute with them: convert with arith.extf to f16, "
           << "bf16 or f32 first, and back with arith.truncf";
  };
  auto check = [&](Operation *op, Type type) -> LogicalResult {
    if (isa<MemRefType, SharedType, FragmentType>(type) &&
        isEightBitFloat(cast<ShapedType>(type).getElementType()))
      return success();
    if (isEightBitFloat(type))
      return movesEightBitFloats(op) ? success() : eightBitOnly(op, type);
    WalkResult walk = type.walk([](Type inner) {
      return isLoweredScalar(inner) ? WalkResult::advance()
                                    : WalkResult::interrupt();
    });
    if (!walk.wasInterrupted())
      return success();
    return op->emitOpError("has type ")
           << type << "; " << chip << " computes with f16, bf16, f32, f64 and "
           << "integers of up to 64 bits";
  };
  if (failed(checkValueTypes(kernel, check)))
    return failure();
  // An op may read an 8-bit float it does not define (arith.cmpf).
  WalkResult walk = kernel.walk([&](Operation *op) {
    if (movesEightBitFloats(op))
      return WalkResult::advance();
    for (Value operand : op->getOperands())
      if (isEightBitFloat(operand.getType())) {
        (void)eightBitOnly(op, operand.getType());
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

FailureOr<KernelPlan> tile::planKernel(KernelOp kernel,
                                       const TileTarget &target,
                                       std::optional<int64_t> sharedLimit) {
  KernelPlanner planner(kernel, target,
                        sharedLimit.value_or(target.getMaxSharedBytes()));
  if (failed(planner.run()))
    return failure();
  return std::move(planner.plan);
}

/// The source language's shorthands (isSourceShorthand) are expanded by
/// tile-specialize before any lowering; one left would be lowered as
/// something else.
static LogicalResult checkNoShorthands(KernelOp kernel) {
  WalkResult walk = kernel.walk([](Operation *op) {
    if (!isSourceShorthand(op))
      return WalkResult::advance();
    op->emitOpError("is a shorthand of the source language; run "
                    "tile-specialize (or tile-expand-shorthands) before "
                    "lowering it");
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult KernelPlanner::run() {
  // The emitter decides no wait: they are all in the IR.
  if (!kernel->hasAttr(kWaitsPlannedAttr))
    return kernel.emitOpError("has no planned waits; run tile-plan-waits "
                              "before lowering it");
  plan.argumentAccess = getArgumentAccess(kernel);
  if (failed(checkNoShorthands(kernel)) ||
      failed(checkScalarTypes(kernel, target.getChip())) ||
      failed(checkElementBytes(kernel, target.getChip())) ||
      failed(planRegions()) || failed(planSharedTiles()) ||
      failed(planGemms()) || failed(planFragments()) ||
      failed(planParallels()) || failed(planReduces()) ||
      failed(planCopies()) || failed(planPipelined()) ||
      failed(planWarpSpecialization()) || failed(planMulticast()) ||
      failed(planTurns()))
    return failure();
  return success();
}

bool tile::isRecomputable(Operation *op) {
  return isMemoryEffectFree(op) && op->getNumRegions() == 0;
}

Operation *tile::unrecomputable(Value v, Block &body) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != &body)
    return nullptr;
  if (!isRecomputable(def))
    return def;
  for (Value operand : def->getOperands())
    if (Operation *bad = unrecomputable(operand, body))
      return bad;
  return nullptr;
}

void tile::noteUnrecomputable(InFlightDiagnostic &&diag, Operation *bad) {
  diag.attachNote(bad->getLoc())
      << "'" << bad->getName() << "' "
      << (bad->getNumRegions() ? "holds a region" : "reads or writes memory");
}

/// A pipelined loop issues the TMA loads of later iterations ahead of
/// them: each load's offsets must be recomputable for any iteration.
LogicalResult KernelPlanner::planPipelined() {
  WalkResult walk = kernel.walk([&](PipelinedOp loop) {
    Block &body = loop.getBody().front();
    for (auto copy : body.getOps<CopyOp>()) {
      if (plan.copyPaths.lookup(copy) != CopyPath::TmaLoad)
        continue;
      for (Value offset : copy.getSourceOffsets())
        if (Operation *bad = unrecomputable(offset, body)) {
          noteUnrecomputable(
              copy.emitOpError("the offsets of a pipelined copy must be pure "
                               "functions of the iteration"),
              bad);
          return WalkResult::interrupt();
        }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

bool tile::isTmaLoad(CopyOp copy) { return copy.isTileLoad(); }

bool tile::isTmaStore(CopyOp copy) { return copy.isTileStore(); }

/// The stage count of each shared tile is that of the pipelined loop whose
/// copies fill it; each such copy reads a kernel argument through TMA.
/// Global-to-shared copies become TMA loads: those of the kernel body, and
/// those of pipelined loops, whose tiles get one copy per stage. Collects
/// them and the TMA stores into `tmaCopies`, each loaded tile's stage count
/// into `stagesOf`, and the tiles of row copies and TMA stores.
LogicalResult
KernelPlanner::collectBulkCopies(SmallVectorImpl<CopyOp> &tmaCopies,
                                 DenseMap<Value, int64_t> &stagesOf) {
  Block &body = kernel.getBodyBlock();
  WalkResult walk = kernel.walk([&](CopyOp copy) {
    if (isAsyncRowCopy(copy)) {
      rowCopyTiles.insert(copy.getDest());
      return WalkResult::advance();
    }
    if (isTmaStore(copy)) {
      // Shared-to-global copies become TMA stores of the whole tile.
      auto arg = dyn_cast<BlockArgument>(copy.getDest());
      if (!arg || arg.getOwner() != &body) {
        copy.emitOpError("a shared-to-global copy writes a tile.kernel "
                         "argument directly (it becomes a TMA store)");
        return WalkResult::interrupt();
      }
      Type from = cast<SharedType>(copy.getSource().getType()).getElementType();
      Type to = cast<MemRefType>(copy.getDest().getType()).getElementType();
      if (from != to) {
        copy.emitOpError("a shared-to-global copy (a TMA store) does not "
                         "convert: the tile holds ")
            << from << ", the memref " << to
            << "; convert when filling the tile";
        return WalkResult::interrupt();
      }
      tmaCopies.push_back(copy);
      tmaStoreSources.insert(copy.getSource());
      return WalkResult::advance();
    }
    if (!isTmaLoad(copy))
      return WalkResult::advance();
    auto arg = dyn_cast<BlockArgument>(copy.getSource());
    if (!arg || arg.getOwner() != &body) {
      copy.emitOpError("a global-to-shared copy reads a tile.kernel "
                       "argument directly (it becomes a TMA load)");
      return WalkResult::interrupt();
    }
    tmaCopies.push_back(copy);
    auto loop = dyn_cast<PipelinedOp>(copy->getParentOp());
    int64_t want = loop ? loop.getStageCount() : 1;
    int64_t &stages = stagesOf[copy.getDest()];
    if (stages && stages != want) {
      copy.emitOpError("the shared tile is filled by copies with different "
                       "numbers of stages");
      return WalkResult::interrupt();
    }
    stages = want;
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult
KernelPlanner::planSharedTile(AllocSharedOp alloc,
                              const DenseMap<Value, int64_t> &stagesOf) {
  SharedType type = alloc.getType();
  if (type.getShape().size() != 2)
    return alloc.emitOpError()
           << target.getChip() << " lowers 2-d shared tiles, got rank "
           << type.getShape().size();
  int64_t rows = type.getShape()[0], cols = type.getShape()[1];
  std::string why = target.checkSharedTile(rows, cols, type.getElementType());
  if (!why.empty())
    return alloc.emitOpError(why);
  SharedTilePlan p;
  p.layout =
      target.getSharedTileLayout(rows, cols, bytesOf(type.getElementType()));
  p.stages = stagesOf.lookup(alloc.getResult());
  if (p.stages == 0)
    p.stages = 1;
  p.afterLoops = alloc.getAfterLoops();
  plan.sharedTiles[alloc.getResult()] = p;
  return success();
}

/// The positions in `body` of the first and the last op that uses `tile`
/// (or holds a use).
static std::pair<int64_t, int64_t>
liveRange(Value tile, Block &body, const DenseMap<Operation *, int64_t> &at) {
  int64_t first = INT64_MAX, last = -1;
  for (Operation *user : tile.getUsers())
    if (Operation *top = body.findAncestorOpInBlock(*user)) {
      first = std::min(first, at.lookup(top));
      last = std::max(last, at.lookup(top));
    }
  return {first, last};
}

void KernelPlanner::placeAfterLoops(ArrayRef<AllocSharedOp> tiles) {
  if (tiles.empty())
    return;
  Block &body = kernel.getBodyBlock();
  DenseMap<Operation *, int64_t> at;
  for (auto [i, op] : llvm::enumerate(body))
    at[&op] = static_cast<int64_t>(i);
  // Each tile takes the lowest aligned offset (0, or the end of a placed
  // tile) where it overlaps no placed tile whose uses interleave with its
  // own: its uses all follow the loops (alloc_c4), so their stages are
  // free.
  SmallVector<Value> placed;
  for (auto &[tile, p] : plan.sharedTiles)
    if (!p.afterLoops)
      placed.push_back(tile);
  int64_t align = target.getSharedTileAlignment();
  for (AllocSharedOp alloc : tiles) {
    Value tile = alloc.getResult();
    SharedTilePlan &p = plan.sharedTiles[tile];
    auto [first, last] = liveRange(tile, body, at);
    SmallVector<Value> conflicts;
    for (Value other : placed) {
      auto [otherFirst, otherLast] = liveRange(other, body, at);
      if (otherFirst <= last && first <= otherLast)
        conflicts.push_back(other);
    }
    SmallVector<int64_t> candidates{0};
    for (Value other : placed)
      candidates.push_back(
          llvm::alignTo(plan.sharedTiles[other].endOffset(), align));
    llvm::sort(candidates);
    int64_t bytes = p.stages * p.stageBytes();
    for (int64_t offset : candidates) {
      bool free = llvm::none_of(conflicts, [&](Value other) {
        const SharedTilePlan &o = plan.sharedTiles[other];
        return offset < o.endOffset() && o.offset < offset + bytes;
      });
      if (free) {
        p.offset = offset;
        break;
      }
    }
    plan.sharedBytes = std::max(plan.sharedBytes, p.endOffset());
    placed.push_back(tile);
  }
}

LogicalResult KernelPlanner::planSharedTiles() {
  Block &body = kernel.getBodyBlock();
  SmallVector<CopyOp> tmaCopies;
  DenseMap<Value, int64_t> stagesOf;
  if (failed(collectBulkCopies(tmaCopies, stagesOf)))
    return failure();
  SmallVector<AllocSharedOp> afterLoops;
  for (auto alloc : body.getOps<AllocSharedOp>()) {
    if (failed(planSharedTile(alloc, stagesOf)))
      return failure();
    if (alloc.getAfterLoops()) {
      afterLoops.push_back(alloc);
      continue;
    }
    SharedTilePlan &p = plan.sharedTiles[alloc.getResult()];
    p.offset = llvm::alignTo(plan.sharedBytes, target.getSharedTileAlignment());
    plan.sharedBytes = p.endOffset();
  }
  placeAfterLoops(afterLoops);
  // A tile that row copies fill is read by tile.copy only: wgmma and TMA
  // stores read through the async proxy, which would need a proxy fence
  // after the copies' wait; and TMA loads would race them.
  for (Value tile : rowCopyTiles)
    for (Operation *user : tile.getUsers()) {
      auto copy = dyn_cast<CopyOp>(user);
      if (copy && (isAsyncRowCopy(copy) ||
                   isa<FragmentType>(copy.getSource().getType()) ||
                   isa<FragmentType>(copy.getDest().getType())))
        continue;
      return user->emitOpError(
          "uses a shared tile that row copies from global memory fill "
          "(copy_c6); such a tile is read and written only by tile.copy "
          "between it and fragments");
    }
  for (Value tile : tmaStoreSources)
    if (plan.sharedTiles.lookup(tile).stages != 1)
      return tile.getDefiningOp()->emitOpError(
          "is filled by a pipelined loop and copied to global memory; a TMA "
          "store reads a single-stage tile");
  if (plan.sharedBytes > sharedLimit)
    return kernel.emitOpError("needs ")
           << plan.sharedBytes << " bytes of shared memory for its tiles and "
           << "pipeline stages; " << target.getChip() << " allows "
           << sharedLimit << " (reduce num_stages or the tile sizes)";
  planTensorMaps(tmaCopies);
  return success();
}

/// The TMA swizzle of a shared-tile layout that swizzles `bytes`-byte rows.
static nvgpu::TensorMapSwizzleKind swizzleKind(int64_t bytes) {
  switch (bytes) {
  case 32:
    return nvgpu::TensorMapSwizzleKind::SWIZZLE_32B;
  case 64:
    return nvgpu::TensorMapSwizzleKind::SWIZZLE_64B;
  case 128:
    return nvgpu::TensorMapSwizzleKind::SWIZZLE_128B;
  default:
    return nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE;
  }
}

/// One TMA descriptor per (argument, box): panels of a tile share it.
void KernelPlanner::planTensorMaps(ArrayRef<CopyOp> tmaCopies) {
  for (CopyOp copy : tmaCopies) {
    bool store = isTmaStore(copy);
    Value tile = store ? copy.getSource() : copy.getDest();
    Value global = store ? copy.getDest() : copy.getSource();
    const SharedTilePlan &p = plan.sharedTiles.lookup(tile);
    unsigned arg = cast<BlockArgument>(global).getArgNumber();
    int64_t rank = cast<MemRefType>(global.getType()).getRank();
    // A multicast load's box is its block's share of the rows
    // (planMulticast checks that they divide).
    int64_t rows = p.rows() / multicastParts(copy);
    auto found = llvm::find_if(plan.tensorMaps, [&](const TensorMapPlan &t) {
      return t.arg == arg && t.boxCols == p.panelCols() && t.boxRows == rows;
    });
    if (found == plan.tensorMaps.end()) {
      TensorMapPlan t;
      t.arg = arg;
      t.rank = rank;
      t.elementType = cast<SharedType>(tile.getType()).getElementType();
      t.boxCols = p.panelCols();
      t.boxRows = rows;
      t.swizzleBytes = p.layout.swizzleBytes;
      auto box = MemRefType::get(
          t.boxShape(), t.elementType, MemRefLayoutAttrInterface(),
          gpu::AddressSpaceAttr::get(kernel.getContext(),
                                     gpu::AddressSpace::Workgroup));
      t.type = nvgpu::TensorMapDescriptorType::get(
          kernel.getContext(), box, swizzleKind(t.swizzleBytes),
          nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
          nvgpu::TensorMapOOBKind::OOB_ZERO,
          nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
      plan.tensorMaps.push_back(t);
      found = std::prev(plan.tensorMaps.end());
    }
    plan.copyTensorMap[copy] = found - plan.tensorMaps.begin();
  }
}

int64_t KernelPlanner::reserveShared(int64_t bytes) {
  int64_t offset = llvm::alignTo(plan.sharedBytes, 16);
  plan.sharedBytes = offset + bytes;
  return offset;
}

/// Every fragment's layout (set by tile-infer-layouts) applied to its shape;
/// cross-warp reductions get shared scratch.
LogicalResult KernelPlanner::planFragments() {
  for (auto alloc : kernel.getBodyBlock().getOps<AllocFragmentOp>()) {
    Attribute attr = alloc.getLayout() ? *alloc.getLayout() : Attribute();
    FailureOr<RegisterLayout> layout = target.getFragmentLayout(
        attr, alloc.getType().getShape(), threads, alloc);
    if (failed(layout))
      return failure();
    // A fragment lives in registers: one that cannot fit them never
    // compiles (and unrolling it costs minutes of LLVM and ptxas time).
    int64_t bits = alloc.getType().getElementTypeBitWidth();
    int64_t registers = llvm::divideCeil(layout->numRegs() * bits, 32);
    if (registers > target.getMaxRegistersPerThread())
      return alloc.emitOpError("needs ")
             << registers << " registers per thread ("
             << alloc.getType().getNumElements() << " elements over " << threads
             << " threads); a thread has at most "
             << target.getMaxRegistersPerThread()
             << " (use more threads or a smaller tile)";
    plan.fragments[alloc.getResult()] = *layout;
  }
  WalkResult walk = kernel.walk([&](ReduceOp reduce) {
    auto src = plan.fragments.find(reduce.getSource());
    if (src == plan.fragments.end())
      return WalkResult::advance();
    int64_t positions = 1 << src->second.warpBitsAlong(reduce.getDim()).size();
    if (positions == 1)
      return WalkResult::advance();
    int64_t kept = reduce.getDest().getType().getNumElements();
    int64_t bytes = positions * kept *
                    reduce.getDest().getType().getElementTypeBitWidth() / 8;
    plan.reduceScratch[reduce] = reserveShared(bytes);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // A whole-fragment reduction combines one value per warp in shared memory.
  int64_t warps = kernel.getThreadCount() / kWarpSize;
  // The producer warpgroup of a warp-specialised kernel never reaches the
  // cluster's barrier.
  bool specialised = kernel
                         ->walk([](PipelinedOp loop) {
                           return loop.isWarpSpecialized()
                                      ? WalkResult::interrupt()
                                      : WalkResult::advance();
                         })
                         .wasInterrupted();
  WalkResult clusterWalk = kernel.walk([&](ReductionOp reduction) {
    if (warps > 1)
      plan.reduceScratch[reduction] = reserveShared(
          warps * reduction.getType().getIntOrFloatBitWidth() / 8);
    if (!reduction.getAcrossCluster())
      return WalkResult::advance();
    if (specialised) {
      reduction.emitOpError("across the cluster in a warp-specialised "
                            "kernel is not lowered on ")
          << target.getChip()
          << ": its producer warpgroup does not reach the cluster's barrier";
      return WalkResult::interrupt();
    }
    plan.clusterScratch[reduction] =
        reserveShared(reduction.getType().getIntOrFloatBitWidth() / 8);
    return WalkResult::advance();
  });
  if (clusterWalk.wasInterrupted())
    return failure();
  if (plan.sharedBytes > sharedLimit)
    return kernel.emitOpError("needs ")
           << plan.sharedBytes << " bytes of shared memory for its tiles, "
           << "pipeline stages and reduction scratch; " << target.getChip()
           << " allows " << sharedLimit;
  return success();
}

/// Checks what the element-wise lowering needs of each tile.parallel:
/// fragment outputs of one layout, and fragment inputs indexed by the
/// identity or a broadcast, each in the layout its map needs.
LogicalResult KernelPlanner::planParallels() {
  WalkResult walk = kernel.walk([&](ParallelOp op) {
    auto fail = [&](const Twine &message) {
      op.emitOpError(message);
      return WalkResult::interrupt();
    };
    const RegisterLayout *layout = nullptr;
    for (Value v : op.getOutputs()) {
      auto it = plan.fragments.find(v);
      if (it == plan.fragments.end())
        return fail("outputs must be fragments on " + target.getChip() +
                    " so far");
      if (layout && !layout->sameMapping(it->second))
        return fail("all outputs must have the same layout");
      layout = &it->second;
    }
    for (auto [i, v] : llvm::enumerate(op.getInputs())) {
      auto it = plan.fragments.find(v);
      if (it == plan.fragments.end())
        return fail("input #" + Twine(i) + " must be a fragment on " +
                    target.getChip() + " so far");
      FailureOr<int64_t> broadcast = op.getBroadcastDim(i);
      if (failed(broadcast))
        return fail("input #" + Twine(i) + " must be indexed by the " +
                    "identity or a broadcast");
      RegisterLayout want =
          *broadcast < 0 ? *layout : layout->slice(*broadcast);
      if (!want.sameMapping(it->second))
        return fail("input #" + Twine(i) +
                    " does not have the layout its indexing map needs; run " +
                    "tile-infer-layouts");
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Chooses how each tile.copy is lowered (copyPaths), and checks what that
/// lowering needs; a fill is lowered into registers only.
LogicalResult KernelPlanner::planCopies() {
  WalkResult walk = kernel.walk([&](Operation *op) {
    if (auto fill = dyn_cast<FillOp>(op)) {
      if (plan.fragments.count(fill.getDest()))
        return WalkResult::advance();
      fill.emitOpError("filling a shared tile is not lowered on ")
          << target.getChip() << " yet";
      return WalkResult::interrupt();
    }
    auto copy = dyn_cast<CopyOp>(op);
    if (!copy)
      return WalkResult::advance();
    Value src = copy.getSource(), dst = copy.getDest();
    bool srcFrag = plan.fragments.count(src),
         dstFrag = plan.fragments.count(dst);
    bool srcGlobal = isa<MemRefType>(src.getType());
    bool dstGlobal = isa<MemRefType>(dst.getType());
    auto fail = [&](const Twine &message) {
      copy.emitOpError(message);
      return WalkResult::interrupt();
    };
    CopyPath path;
    if (isAsyncRowCopy(copy)) {
      path = CopyPath::AsyncRows;
    } else if (isTmaStore(copy)) {
      path = CopyPath::TmaStore;
    } else if (plan.copyTensorMap.count(copy)) {
      path = CopyPath::TmaLoad;
    } else if ((srcFrag && plan.sharedTiles.count(dst)) ||
               (plan.sharedTiles.count(src) && dstFrag)) {
      const RegisterLayout &f =
          plan.fragments.find(srcFrag ? src : dst)->second;
      // A 1-d fragment is read from a row of the tile (copy_c11).
      if (f.rank() != 2 && !(f.rank() == 1 && dstFrag))
        return fail("copies 2-d fragments to and from shared tiles, and "
                    "1-d fragments from a row of one, only");
      Value tile = srcFrag ? dst : src;
      if (plan.sharedTiles.lookup(tile).stages != 1) {
        // A pipelined tile is read in the loop that fills it, from the
        // stage of the iteration (the loop waited for its loads); the
        // copy engine alone writes it.
        if (srcFrag)
          return fail("writes a pipelined shared tile from registers; "
                      "only the loop's copies from global memory fill it");
        if (!fillingLoop(copy, tile))
          return fail("reads a pipelined shared tile outside the "
                      "tile.pipelined loop that fills it, where no stage "
                      "is current");
      }
      path = srcFrag ? CopyPath::FragmentToShared : CopyPath::SharedToFragment;
    } else if ((dstFrag && srcGlobal) || (srcFrag && dstGlobal)) {
      // Floats convert on the way (f16 <-> f32, ...); integers, of one
      // type on both sides (copy_c8), move as they are.
      path = dstFrag ? CopyPath::GlobalToFragment : CopyPath::FragmentToGlobal;
    } else if (srcFrag && dstFrag) {
      if (!plan.fragments.find(src)->second.sameMapping(
              plan.fragments.find(dst)->second))
        return fail("copies between fragments of different layouts are not "
                    "lowered yet");
      path = CopyPath::FragmentToFragment;
    } else {
      copy.emitOpError("copying ")
          << src.getType() << " to " << dst.getType() << " is not lowered on "
          << target.getChip() << " yet";
      return WalkResult::interrupt();
    }
    plan.copyPaths[copy] = path;
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

PipelinedOp tile::fillingLoop(Operation *op, Value tile) {
  auto loop = op->getParentOfType<PipelinedOp>();
  if (!loop)
    return nullptr;
  for (auto copy : loop.getBody().getOps<CopyOp>())
    if (copy.getDest() == tile && isa<MemRefType>(copy.getSource().getType()))
      return loop;
  return nullptr;
}

/// Checks what the reduction lowering needs of each tile.reduce: float
/// elements, and a destination laid out as the source sliced along `dim`.
LogicalResult KernelPlanner::planReduces() {
  WalkResult walk = kernel.walk([&](ReduceOp op) {
    RegisterLayout src = plan.fragments.lookup(op.getSource());
    RegisterLayout dst = plan.fragments.lookup(op.getDest());
    if (!src.slice(op.getDim()).sameMapping(dst)) {
      op.emitOpError("the destination's layout must be the source's "
                     "sliced along dim ")
          << op.getDim();
      return WalkResult::interrupt();
    }
    // The warp shuffles that combine lanes move 32-bit values.
    Type t = op.getDest().getType().getElementType();
    if (!t.isF32()) {
      op.emitOpError("reduces f32 fragments only (its warp shuffles move "
                     "32-bit floats), got ")
          << t << "; copy the fragment into an f32 one first";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Checks what the target's MMA instruction needs of each tile.gemm, and
/// that its shared operands are tiles of the kernel.
LogicalResult KernelPlanner::planGemms() {
  WalkResult walk = kernel.walk([&](GemmOp gemm) {
    if (failed(target.checkMma(gemm, threads)))
      return WalkResult::interrupt();
    if (!plan.sharedTiles.count(gemm.getB())) {
      gemm.emitOpError("B must be a tile.alloc_shared tile");
      return WalkResult::interrupt();
    }
    if (!isa<FragmentType>(gemm.getA().getType()) &&
        !plan.sharedTiles.count(gemm.getA())) {
      gemm.emitOpError("A must be a tile.alloc_shared tile or a fragment");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}
