//===- KernelPlan.h - What the lowering decided about a kernel --*- C++ -*-===//
//
// The lowering of a tile.kernel first plans it on the tile IR, for a target:
// where each shared tile lives, which TMA descriptors the kernel takes, how
// each copy is lowered, the layout of each fragment, the reduction scratch,
// the warp-specialised schedule. planKernel() returns that plan as a value
// and issues every diagnostic; the emitter only reads it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETONVGPU_KERNELPLAN_H
#define TILE_LIB_CONVERSION_TILETONVGPU_KERNELPLAN_H

#include "ArgumentAccess.h"
#include "TileTarget.h"
#include "tile/Dialect/Tile/IR/RegisterLayout.h"
#include "tile/Dialect/Tile/IR/SwizzledPanels.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::tile {

/// Where a shared tile lives: `stages` copies of `stageBytes()` from `offset`
/// in the dynamic shared memory, each laid out as the target says: column
/// panels of swizzled rows (`panelCols()` elements wide).
struct SharedTilePlan {
  int64_t offset = 0;
  int64_t stages = 1;
  /// `after_loops`: the tile may share its bytes with tiles that are dead
  /// after the kernel's pipelined loops; writes into it wait for the
  /// threads that may still read those (KernelEmitter::lowerCopy).
  bool afterLoops = false;
  /// One stage's layout (TileTarget::getSharedTileLayout).
  SwizzledPanels layout;
  int64_t rows() const { return layout.rows; }
  int64_t cols() const { return layout.cols; }
  int64_t eltBytes() const { return layout.eltBytes; }
  int64_t panelCols() const { return layout.panelCols(); }
  int64_t panelBytes() const { return layout.panelBytes(); }
  int64_t stageBytes() const { return layout.bytes(); }
  int64_t endOffset() const { return offset + stages * stageBytes(); }
};

/// A TMA descriptor parameter of the kernel: over kernel argument `arg`, with
/// a 2-d box of `boxCols` (innermost) by `boxRows` elements.
struct TensorMapPlan {
  unsigned arg = 0;
  int64_t rank = 2; ///< the memref's; the box is 1 in the outer dimensions
  Type elementType;
  int64_t boxCols = 0, boxRows = 0;
  /// The swizzle of the shared tiles it copies, in bytes.
  int64_t swizzleBytes = 0;
  /// The box as a shape, outermost first.
  SmallVector<int64_t> boxShape() const {
    SmallVector<int64_t> shape(rank - 2, 1);
    shape.append({boxRows, boxCols});
    return shape;
  }
  nvgpu::TensorMapDescriptorType type;
};

/// How a tile.copy is lowered, chosen while planning.
enum class CopyPath {
  AsyncRows,          ///< global rows into a shared tile: cp.async
  TmaStore,           ///< shared tile to global memory
  TmaLoad,            ///< global memory to a shared tile (in a loop: issued
                      ///< by the pipelined loop)
  FragmentToShared,   ///< registers into a single-stage shared tile
  SharedToFragment,   ///< a single-stage shared tile into registers
  GlobalToFragment,   ///< predicated vector loads
  FragmentToGlobal,   ///< predicated vector stores
  FragmentToFragment, ///< register moves between equal layouts
};

/// The warp-specialised schedule of a kernel (planWarpSpecialization): a
/// producer warpgroup, after the kernel's `threads` consumers, issues the
/// TMA loads of the warp-specialised loops through rings of full and empty
/// barriers, and the consumers only compute.
struct WarpSpecializationPlan {
  /// The warp-specialised loops, in kernel order; none: not specialised.
  SmallVector<PipelinedOp> loops;
  /// setmaxnreg budgets per thread; 0 leaves the allocation to ptxas (one
  /// consumer warpgroup has all the registers it can address already).
  int64_t producerRegisters = 0, consumerRegisters = 0;
  bool enabled() const { return !loops.empty(); }
};

/// The multicast loads of a kernel launched in clusters (Multicast.cpp):
/// each block loads 1/blocks of such a tile's rows into every block of
/// its cluster.
struct MulticastPlan {
  /// The blocks of a cluster.
  int64_t blocks = 1;
  /// The warp-specialised loops that hold a multicast copy: their stages
  /// are freed in every block of the cluster.
  llvm::SmallPtrSet<Operation *, 2> loops;
  bool enabled() const { return !loops.empty(); }
};

/// The plan of one tile.kernel (planKernel). It refers to the kernel's ops
/// and values, and holds nothing emitted.
struct KernelPlan {
  /// The computing threads (the kernel's thread count).
  int64_t threads = 0;
  /// The dynamic shared memory used: tiles with all their pipeline stages
  /// and reduction scratch (the mbarriers are static).
  int64_t sharedBytes = 0;
  llvm::MapVector<Value, SharedTilePlan> sharedTiles;
  /// The kernel's TMA descriptor parameters, in parameter order.
  SmallVector<TensorMapPlan> tensorMaps;
  /// The TMA descriptor (index into tensorMaps) of each bulk copy.
  DenseMap<Operation *, unsigned> copyTensorMap;
  /// How each tile.copy is lowered.
  DenseMap<Operation *, CopyPath> copyPaths;
  /// The register layout of each fragment.
  llvm::MapVector<Value, RegisterLayout> fragments;
  /// Shared scratch (byte offset) of reductions that combine across warps.
  DenseMap<Operation *, int64_t> reduceScratch;
  /// The shared word (byte offset) through which a reduction across the
  /// cluster gives this block's value to the others.
  DenseMap<Operation *, int64_t> clusterScratch;
  WarpSpecializationPlan warpSpecialization;
  MulticastPlan multicast;
  /// What the body does to each argument, for the kernel info's `access`
  /// lines.
  SmallVector<ArgumentAccess> argumentAccess;

  /// The threads of the launched block: `threads`, and the producer
  /// warpgroup when the kernel is warp-specialised.
  int64_t blockThreads() const;
  /// The global-to-shared copies that pipelined loop `op` issues ahead (TMA
  /// loads), and the bytes one stage of them brings.
  SmallVector<CopyOp> pipelinedLoads(PipelinedOp op, int64_t &txBytes) const;
};

/// Checks `kernel` and plans its lowering for `target`, with at most
/// `sharedLimit` bytes of dynamic shared memory (the target's limit by
/// default); on failure, the diagnostics are at the ops.
FailureOr<KernelPlan> planKernel(KernelOp kernel, const TileTarget &target,
                                 std::optional<int64_t> sharedLimit = {});

/// Whether `op` is a tile op with an entry in the table of emitters.
bool isEmitted(Operation *op);

/// A shared-to-global copy: a TMA store.
bool isTmaStore(CopyOp copy);
/// A global-to-shared copy other than a row copy: a TMA load.
bool isTmaLoad(CopyOp copy);
/// The innermost tile.pipelined loop around `op` whose body copies from
/// global memory into the shared tile `tile` (the loop whose current stage
/// `op` reads), or null.
PipelinedOp fillingLoop(Operation *op, Value tile);
/// The blocks of one of `kernel`'s thread-block clusters (1 without).
int64_t clusterBlocks(KernelOp kernel);
/// The blocks among which a `multicast` copy shares its tile (each loads
/// that part of its rows): the kernel's cluster; 1 for any other copy.
int64_t multicastParts(CopyOp copy);
/// A copy of a global row into a row of a shared tile (copy_c6): cp.async.
bool isAsyncRowCopy(CopyOp copy);

/// Whether the loop-body op `op` may be cloned to compute a later
/// iteration's copy offsets: it neither reads nor writes memory and holds
/// no region. It need not be speculatable (a `divui` by a value that is
/// never zero in the body is not, to MLIR): its clone only computes an
/// iteration that runs.
bool isRecomputable(Operation *op);

/// The first op of the loop body `body` in the backward slice of `v` that
/// cannot be recomputed for another iteration, or null.
Operation *unrecomputable(Value v, Block &body);

/// Adds to `diag` the note at `bad` (unrecomputable's answer) saying why it
/// cannot be recomputed.
void noteUnrecomputable(InFlightDiagnostic &&diag, Operation *bad);

} // namespace mlir::tile

#endif // TILE_LIB_CONVERSION_TILETONVGPU_KERNELPLAN_H
