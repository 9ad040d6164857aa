//===- Multicast.cpp - TMA loads shared by the blocks of a cluster ------===//
//
// `tile.copy %A[%m0, %k0] -> %a multicast` in a warp-specialised loop of a
// kernel launched in clusters of CS blocks: every block of the cluster
// reads the same tile (its offsets and the loop's bounds do not depend on
// the block ids that the cluster spans), so each block's producer loads
// rows [r * R / CS, (r + 1) * R / CS) of the tile's R rows, r its rank in
// the cluster, and the TMA unit writes them into the same place of every
// block's shared memory. L2 serves the tile once per cluster instead of
// once per block (a GEMM in clusters of 2 along N: A's tiles).
//
//   full[s]   expects the whole stage's bytes, as without multicast: its
//             slices come from the producers of all the blocks.
//   empty[s]  counts the consumer warps of every block of the cluster: a
//             block refills stage s of every block, so only once none of
//             them still reads it. Lane q of each consumer warp arrives on
//             the empty barrier of the block of rank q (mapa, then
//             mbarrier.arrive.shared::cluster), after the warp is
//             converged (bar.warp.sync). The arrival keeps the default
//             release at the block's scope: what it orders is the warp's
//             own reads of its own block's stage, finished by the wgmma
//             wait before it; a release at the cluster's scope is a
//             memory barrier per warp and stage that stalled the warps
//             a third of their cycles (0.64x the same tiles unclustered).
//   waits     poll their barrier without a suspend-time hint: a phase that
//             another block's arrival or multicast completes need not wake
//             a thread suspended on it before the hint runs out.
//   set-up    the barriers' initialisation is released to the cluster
//             (fence.mbarrier_init) and the cluster's barrier taken before
//             any block issues a load into another; the cluster's barrier
//             again at the kernel's end, so that no block leaves while a
//             multicast or an arrival may still reach its shared memory.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "KernelPlanner.h"
#include "PredicatedAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::tile;

int64_t mlir::tile::clusterBlocks(KernelOp kernel) {
  int64_t blocks = 1;
  for (int64_t d : kernel.getClusterShape())
    blocks *= d;
  return blocks;
}

int64_t mlir::tile::multicastParts(CopyOp copy) {
  auto kernel = copy->getParentOfType<KernelOp>();
  return copy.getMulticast() && kernel ? clusterBlocks(kernel) : 1;
}

/// The first block id in the computation of `v` (through any ops) along a
/// dimension that `cluster` spans, or null.
static BlockIdOp clusteredBlockId(Value v, ArrayRef<int64_t> cluster) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return {};
  if (auto id = dyn_cast<BlockIdOp>(def))
    return cluster[static_cast<unsigned>(id.getDim())] > 1 ? id : BlockIdOp();
  for (Value operand : def->getOperands())
    if (BlockIdOp id = clusteredBlockId(operand, cluster))
      return id;
  return {};
}

LogicalResult KernelPlanner::planMulticast() {
  SmallVector<int64_t, 3> cluster = kernel.getClusterShape();
  WalkResult walk = kernel.walk([&](CopyOp copy) {
    if (!copy.getMulticast())
      return WalkResult::advance();
    auto fail = [&](const Twine &message) {
      copy.emitOpError(message);
      return WalkResult::interrupt();
    };
    int64_t blocks = multicastParts(copy);
    if (blocks < 2)
      return fail("is multicast to the blocks of a cluster, but the kernel is "
                  "not launched in clusters of several blocks (cluster [X, "
                  "Y, Z] after its threads)");
    auto loop = dyn_cast<PipelinedOp>(copy->getParentOp());
    if (!loop || !loop.isWarpSpecialized() ||
        plan.copyPaths.lookup(copy) != CopyPath::TmaLoad)
      return fail("is multicast: the producer warpgroup of a "
                  "warp-specialised loop issues it (tile.pipelined ... "
                  "warp_specialize 1), where every block of the cluster "
                  "frees a stage before any refills it");
    const SharedTilePlan &p = plan.sharedTiles.lookup(copy.getDest());
    // A slice starts a whole number of swizzle periods (8 rows) into the
    // tile, so it is laid out in shared memory as the tile's own rows.
    if (p.rows() % (blocks * 8) != 0) {
      copy.emitOpError("is multicast to ")
          << blocks << " blocks, each loading " << p.rows() << " / " << blocks
          << " rows of the tile: its rows must be a multiple of " << blocks * 8;
      return WalkResult::interrupt();
    }
    SmallVector<Value> same(copy.getSourceOffsets());
    same.append({loop.getLower(), loop.getUpper(), loop.getStep()});
    for (Value v : same)
      if (BlockIdOp id = clusteredBlockId(v, cluster)) {
        InFlightDiagnostic diag = copy.emitOpError(
            "is multicast, so its offsets and its loop's bounds must be the "
            "same in every block of a cluster; they depend on a block id "
            "along a dimension that the cluster spans");
        diag.attachNote(id.getLoc()) << "this block id";
        return WalkResult::interrupt();
      }
    plan.multicast.blocks = blocks;
    plan.multicast.loops.insert(loop);
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

Value KernelEmitter::clusterRank() {
  Value rank = NVVM::ClusterId::create(b, loc(), b.getI32Type());
  return arith::IndexCastUIOp::create(b, loc(), b.getIndexType(), rank);
}

void KernelEmitter::emitClusterBarrier() {
  NVVM::ClusterArriveOp::create(b, loc(), b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, loc(), b.getUnitAttr());
}

int64_t KernelEmitter::stageReaders(PipelinedOp loop) const {
  if (!plan.multicast.loops.contains(loop))
    return threads;
  return threads / kWarpSize * plan.multicast.blocks;
}

void KernelEmitter::releaseStageInCluster(Value bars, Value slot) {
  Location l = loc();
  NVVM::SyncWarpOp::create(b, l, i32(-1));
  Value lane = arith::RemUIOp::create(b, l, threadId, index(kWarpSize));
  Value signals = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, lane,
                                        index(plan.multicast.blocks));
  emitIf(signals, [&] {
    Value local =
        nvgpu::MBarrierGetOp::create(b, l, b.getI32Type(), bars, slot);
    Value rank = arith::IndexCastUIOp::create(b, l, b.getI32Type(), lane);
    inlinePtx(b, l, Type(), ValueRange{local, rank},
              "{\n\t.reg .b32 r;\n\tmapa.shared::cluster.u32 r, $0, $1;\n\t"
              "mbarrier.arrive.shared::cluster.b64 _, [r];"
              "\n\t}",
              "r,r");
  });
}

void KernelEmitter::emitClusterPhaseWait(Value bars, Value slot, Value parity) {
  Location l = loc();
  Value address =
      nvgpu::MBarrierGetOp::create(b, l, b.getI32Type(), bars, slot);
  Value phase = arith::IndexCastUIOp::create(b, l, b.getI32Type(), parity);
  inlinePtx(b, l, Type(), ValueRange{address, phase},
            "{\n\t.reg .pred p;\n\tLAB_WAIT:\n\t"
            "mbarrier.try_wait.parity.shared::cta.b64 p, [$0], $1;\n\t"
            "@!p bra LAB_WAIT;\n\t}",
            "r,r");
}
