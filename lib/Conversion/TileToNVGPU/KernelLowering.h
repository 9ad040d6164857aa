//===- KernelLowering.h - State of lowering one tile.kernel -----*- C++ -*-===//
//
// The sm_90a lowering of a tile.kernel is a walk over its body that emits the
// gpu.func's body: planning (shared-memory offsets, TMA descriptors, fragment
// layouts) happens first, on the tile IR, so that every diagnostic is issued
// before any code is generated; emission follows, one file per concern.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETONVGPU_KERNELLOWERING_H
#define TILE_LIB_CONVERSION_TILETONVGPU_KERNELLOWERING_H

#include "ArgumentAccess.h"
#include "RegisterLayout.h"
#include "SM90.h"
#include "tile/Dialect/Tile/IR/SwizzledPanels.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <string>

namespace mlir::tile {

/// Where a shared tile lives: `stages` copies of `stageBytes()` from `offset`
/// in the dynamic shared memory. Each copy is stored as column panels of 128
/// bytes per row (`panelCols()` elements), panel p at p * rows * 128 bytes,
/// 128-byte swizzled.
struct SharedTilePlan {
  int64_t offset = 0;
  int64_t rows = 0, cols = 0;
  int64_t stages = 1;
  int64_t eltBytes = 0;
  /// One stage's layout: panels of 128-byte swizzled rows.
  SwizzledPanels layout() const {
    return {rows, cols, eltBytes, sm90::kSwizzleBytes, sm90::kSwizzleAtomRows};
  }
  int64_t panelCols() const { return layout().panelCols(); }
  int64_t panelBytes() const { return layout().panelBytes(); }
  int64_t stageBytes() const { return layout().bytes(); }
};

/// A TMA descriptor parameter of the kernel: over kernel argument `arg`, with
/// a 2-d box of `boxCols` (innermost) by `boxRows` elements.
struct TensorMapPlan {
  unsigned arg = 0;
  int64_t rank = 2; ///< the memref's; the box is 1 in the outer dimensions
  Type elementType;
  int64_t boxCols = 0, boxRows = 0;
  /// The box as a shape, outermost first.
  SmallVector<int64_t> boxShape() const {
    SmallVector<int64_t> shape(rank - 2, 1);
    shape.append({boxRows, boxCols});
    return shape;
  }
  nvgpu::TensorMapDescriptorType type;
  Value descriptor; ///< the kernel parameter, once the gpu.func exists
};

struct FragmentStorage {
  RegisterLayout layout;
  Value
      regs; ///< memref<N x T> per-thread registers (an alloca promoted by SROA)
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

/// The barriers of a warp-specialised loop, one of each per stage: `full`
/// completes when the stage's loads have landed (the producer arrives with
/// the byte count), `empty` when every consumer thread is done with it.
struct StageRing {
  Value full, empty;
};

/// Emission state for one kernel.
class KernelLowering {
public:
  KernelLowering(KernelOp kernel, gpu::GPUModuleOp gpuModule)
      : kernel(kernel), gpuModule(gpuModule), b(kernel.getContext()),
        threads(kernel.getThreadCount()) {}

  /// Checks the kernel and plans its resources, with at most `sharedLimit`
  /// bytes of dynamic shared memory. Emits diagnostics on failure.
  LogicalResult plan(int64_t sharedLimit = sm90::kMaxDynamicSharedBytes);
  /// Creates the gpu.func and its body.
  LogicalResult emit();
  /// The kernel's launch record (docs/KernelABI.md).
  std::string kernelInfo();
  /// The dynamic shared memory the plan uses: tiles with all their pipeline
  /// stages, barriers and reduction scratch (valid after plan()).
  int64_t getSharedBytes() const { return sharedBytes; }
  /// The shared tiles' plans (valid after plan()).
  const llvm::MapVector<Value, SharedTilePlan> &getSharedTiles() const {
    return sharedTiles;
  }

  // ---- Emission helpers, used by the per-op lowerings. ----
  Value index(int64_t v);
  Value i64(int64_t v);
  /// Whether this thread is thread 0, the one that issues bulk copies.
  Value isLeader();
  Location loc() { return kernel.getLoc(); }
  /// Emits `scf.if cond { body() }` / `scf.for %i = lb to ub { body(%i) }`
  /// with the builder inside while `body` runs.
  void emitIf(Value cond, llvm::function_ref<void()> body);
  void emitFor(Value lb, Value ub, llvm::function_ref<void(Value)> body);
  /// Lowers the ops of `block` in order (a kernel or pipelined body).
  LogicalResult lowerBlock(Block &block);
  /// Byte address (in the shared window) of `tile`'s current stage.
  Value sharedTileAddress(Value tile);
  /// A memref view of panel `panel` of stage `stage` of a shared tile, with
  /// `rank - 2` leading unit dimensions (the shape of a TMA box).
  Value sharedPanelView(Value tile, Value stage, int64_t panel,
                        int64_t rank = 2);
  /// The threads of the launched block: `threads`, and the producer
  /// warpgroup when the kernel is warp-specialised.
  int64_t blockThreads() const;
  /// Synchronises the computing threads: the whole block, or (warp
  /// specialised) the consumers only, on a named barrier the producer
  /// never reaches.
  void emitBarrier();
  /// The global-to-shared copies that pipelined loop `op` issues ahead (TMA
  /// loads), and the bytes one stage of them brings.
  SmallVector<CopyOp> pipelinedLoads(PipelinedOp op, int64_t &txBytes);
  /// The iteration count of `op`, from its lowered bounds.
  Value iterationCount(Value lb, Value ub, Value step);
  /// Issues the loads of iteration `iter` of `op` into ring slot `slot`,
  /// completing on barrier `slot` of `bars`; `outside` gives the lowered
  /// value of a value defined before the loop.
  void issueStageLoads(PipelinedOp op, ArrayRef<CopyOp> loads, int64_t txBytes,
                       Value bars, Value slot, Value iter, Value lb, Value step,
                       llvm::function_ref<Value(Value)> outside);
  /// Waits on barrier `slot` of `bars` for the completion of its phase
  /// `round` (the parity of round).
  void emitPhaseWait(Value bars, Value slot, Value round);
  /// Lowers the body of pipelined loop `op` for iteration `it` (from 0, of
  /// `step` from `lb`), reading its pipelined tiles from ring slot `slot`.
  LogicalResult lowerIteration(PipelinedOp op, Value it, Value lb, Value step,
                               Value slot);
  /// Issues the TMA loads of `copy` (all panels) into stage `stage`,
  /// completing on barrier `barIndex` of `bars`; `offsets` are the copy's
  /// source offsets, lowered.
  void emitTmaCopy(CopyOp copy, Value bars, Value barIndex, Value stage,
                   ArrayRef<Value> offsets);

  // ---- Per-op lowerings (one file each), listed in TileToNVGPU.cpp's
  // table of emitters. ----
  LogicalResult lowerBlockId(BlockIdOp op);
  LogicalResult lowerPipelined(PipelinedOp op);
  /// The consumers' side of a warp-specialised loop (WarpSpecialize.cpp).
  LogicalResult lowerConsumerLoop(PipelinedOp op);
  /// Creates and initialises the rings of the warp-specialised loops, then
  /// branches: the producer warpgroup issues their loads, the consumers
  /// run `consumers` (the kernel body).
  LogicalResult emitWarpSpecialized(llvm::function_ref<LogicalResult()> body);
  LogicalResult lowerIf(scf::IfOp op);
  LogicalResult lowerFor(scf::ForOp op);
  LogicalResult lowerGemm(GemmOp op);
  LogicalResult lowerFill(FillOp op);
  LogicalResult lowerCopy(CopyOp op);
  LogicalResult lowerAtomic(AtomicOp op);
  LogicalResult lowerReduce(ReduceOp op);
  LogicalResult lowerReduction(ReductionOp op);
  LogicalResult lowerParallel(ParallelOp op);
  LogicalResult lowerPrint(PrintOp op);
  /// Copies between global memory and the fragment `frag` (at `offsets`
  /// of `memref`), either way, or with `atomic` combines the fragment into
  /// global memory.
  LogicalResult lowerGlobalAccess(Location l, Value frag, Value memref,
                                  ValueRange offsets, bool load,
                                  std::optional<AtomicKind> atomic = {});
  /// Issues the TMA stores of `copy` (all panels) from one thread.
  void emitTmaStore(CopyOp copy);
  /// A global row into a row of a shared tile, with cp.async (copy_c6).
  LogicalResult lowerAsyncRowCopy(CopyOp op);
  /// Before `reader` reads (or writes) `tile` in place: if row copies into
  /// it may be in flight, waits for them all and synchronises the block.
  void waitAsyncCopies(Value tile, Operation *reader);
  /// Whether a loop around `op` (inside the kernel) holds a user of `v`
  /// that `match` accepts: one that runs again before `op`'s next run.
  bool usedInLoopAround(Value v, Operation *op,
                        llvm::function_ref<bool(Operation *)> match);
  /// Waits, in each thread, for its row copies (cp.async.wait_group 0).
  void emitAsyncCopyWait();
  /// Whether a row copy into `tile` sits inside `scope`.
  bool sharedTileRowCopiedWithin(Value tile, Operation *scope);
  /// Whether a read of `tile` may run before `write`: lowered already, or
  /// in a loop around `write`.
  bool sharedTileMayBeRead(Value tile, Operation *write);
  /// Whether a TMA store issued before `write` (earlier in the kernel, or
  /// in an earlier iteration of an enclosing loop) may still read `tile`.
  bool tmaStoreMayRead(Value tile, Operation *write);
  /// Waits, in one thread, until every TMA store issued so far has read its
  /// shared tile; with `sync`, the block then synchronises, so that any
  /// thread may write the tiles.
  void emitTmaStoreReadWait(bool sync);
  /// Waits for all outstanding wgmma groups, threading the registers of the
  /// given accumulators through the wait so nothing reads them early.
  void emitWgmmaWait(int64_t pending, ArrayRef<Value> accumulators);

  // ---- Planning helpers. ----
  /// Checks where tile operations sit: the kernel body, tile.pipelined
  /// bodies and the branches of an scf.if (without results, TMA loads or
  /// pipelined loops inside).
  LogicalResult planRegions();
  /// Checks an scf.for that holds tile operations (planRegions).
  bool planSerialLoop(scf::ForOp loop);
  bool planAtomic(AtomicOp atomic);
  LogicalResult collectBulkCopies(SmallVectorImpl<CopyOp> &tmaCopies,
                                  DenseMap<Value, int64_t> &stagesOf);
  void planTensorMaps(ArrayRef<CopyOp> tmaCopies);
  LogicalResult planSharedTiles();
  LogicalResult planFragments();
  LogicalResult planGemms();
  LogicalResult planParallels();
  LogicalResult planCopies();
  LogicalResult planPipelined();
  LogicalResult planReduces();
  /// Checks the warp-specialised loops and chooses the register budgets.
  LogicalResult planWarpSpecialization();
  /// Reserves `bytes` of shared memory, 16-byte aligned; returns the offset.
  int64_t reserveShared(int64_t bytes);

  KernelOp kernel;
  gpu::GPUModuleOp gpuModule;
  OpBuilder b;
  int64_t threads;
  IRMapping map;
  gpu::GPUFuncOp func;

  llvm::MapVector<Value, SharedTilePlan> sharedTiles;
  /// What the body does to each argument (planned on the tile IR, before
  /// any lowering), for the kernel info's `access` lines.
  SmallVector<ArgumentAccess> argumentAccess;
  int64_t sharedLimit = sm90::kMaxDynamicSharedBytes; ///< plan()'s bound
  int64_t sharedBytes = 0;
  SmallVector<TensorMapPlan> tensorMaps;
  /// The TMA descriptor (index into tensorMaps) of each pipelined copy.
  DenseMap<Operation *, unsigned> copyTensorMap;
  /// How each tile.copy is lowered (planCopies).
  DenseMap<Operation *, CopyPath> copyPaths;
  llvm::MapVector<Value, FragmentStorage> fragments;
  /// Shared scratch (byte offset) of reductions that combine across warps.
  DenseMap<Operation *, int64_t> reduceScratch;
  WarpSpecializationPlan warpSpecialization;
  /// The rings of the warp-specialised loops (emitWarpSpecialized).
  DenseMap<Operation *, StageRing> rings;

  Value threadId;   ///< gpu.thread_id x
  Value sharedBase; ///< memref<?xi8, workgroup>: the dynamic shared memory
  Value sharedAddr; ///< i64 shared-window address of sharedBase
  Value
      currentStage; ///< the ring slot of the pipelined iteration being lowered
  /// Accumulators whose last wgmma group may still be in flight.
  SmallVector<Value> pendingAccumulators;
  /// Shared tiles that a TMA store reads: a write to one first waits until
  /// the stores issued before have read it, and so does the kernel's end.
  llvm::SetVector<Value> tmaStoreSources;
  /// Shared tiles that row copies from global memory fill (copy_c6).
  llvm::SetVector<Value> rowCopyTiles;
  /// Shared tiles whose TMA stores have been lowered so far.
  DenseSet<Value> storedTiles;
  /// Shared tiles with row copies (cp.async) that may still be in flight.
  llvm::SetVector<Value> asyncFilledTiles;
  /// Shared tiles read in place by the code lowered so far.
  DenseSet<Value> readTiles;
};

/// Name of the gpu.module that holds every lowered kernel, and of the extern
/// dynamic shared-memory symbol in it.
constexpr llvm::StringLiteral kKernelModuleName = "tile_kernels";
constexpr llvm::StringLiteral kSharedMemorySymbol = "tile_smem";
/// Attribute names shared with the rest of the pipeline.
constexpr llvm::StringLiteral kKernelInfoAttr = "tile.kernel_info";
constexpr llvm::StringLiteral kTensorMapArgsAttr = "tile.tensormap_args";

/// A shared-to-global copy: a TMA store.
bool isTmaStore(CopyOp copy);
/// A global-to-shared copy other than a row copy: a TMA load.
bool isTmaLoad(CopyOp copy);

/// A copy of a global row into a row of a shared tile (copy_c6): cp.async.
bool isAsyncRowCopy(CopyOp copy);

/// Whether a region of `op` holds a tile operation.
bool holdsTileOps(Operation *op);

/// Whether `op` is a tile op with an entry in the table of emitters.
bool isEmitted(Operation *op);

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

/// Whether an op nested in `scope` (or `scope` itself), other than `except`,
/// takes `v` as an operand.
bool usedWithin(Value v, Operation *scope, Operation *except = nullptr);

/// The dtype spelling of docs/KernelABI.md (f16, bf16, f32, i32, ...).
std::string abiTypeName(Type t);

} // namespace mlir::tile

#endif // TILE_LIB_CONVERSION_TILETONVGPU_KERNELLOWERING_H
