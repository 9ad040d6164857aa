//===- KernelEmitter.h - Emits one planned tile.kernel --------*- C++ -*-===//
//
// The sm_90a emission of a planned tile.kernel (KernelPlan.h): a walk over
// its body that builds the gpu.func, one file per concern (Pipelined.cpp,
// Branch.cpp, GemmSM90.cpp, Fragments.cpp, ...). Every diagnostic is the
// planner's, issued before any code exists.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETONVGPU_KERNELEMITTER_H
#define TILE_LIB_CONVERSION_TILETONVGPU_KERNELEMITTER_H

#include "KernelPlan.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <functional>
#include <string>

namespace mlir::tile {

/// A fragment as the emitter sees it: its planned layout and its registers,
/// a memref<N x T> per thread (an alloca promoted by SROA).
struct Fragment {
  const RegisterLayout &layout;
  Value regs;
};

/// The barriers of a warp-specialised loop, one of each per stage: `full`
/// completes when the stage's loads have landed (the producer arrives with
/// the byte count), `empty` when every consumer thread is done with it.
struct StageRing {
  Value full, empty;
};

/// Emits the gpu.func of one planned kernel into `gpuModule`. The plan is
/// read only; what exists once code does (the value mapping, descriptor
/// parameters, fragment registers, stage rings, what is in flight) is this
/// object's own state.
class KernelEmitter {
public:
  KernelEmitter(KernelOp kernel, const KernelPlan &plan,
                gpu::GPUModuleOp gpuModule)
      : kernel(kernel), plan(plan), gpuModule(gpuModule),
        b(kernel.getContext()), threads(plan.threads) {}

  /// Creates the gpu.func and its body.
  LogicalResult emit();
  /// The emitted function (after emit()).
  gpu::GPUFuncOp getFunc() const { return func; }
  /// Whether `op` is a tile op with an entry in the table of emitters.
  static bool hasEmitter(Operation *op);

private:
  /// How one tile op is emitted (TileToNVGPU.cpp's table).
  struct OpEmitter;
  template <typename OpT, LogicalResult (KernelEmitter::*Lower)(OpT)>
  static OpEmitter entry();
  static const OpEmitter *emitterOf(Operation *op);

  /// The gpu.func, with the parameters of docs/KernelABI.md: a scalar as
  /// itself, a memref as its base pointer, sizes and strides, then a pointer
  /// per TMA descriptor. Gives each argument's first parameter and the
  /// descriptors' parameters.
  void createFunction(SmallVectorImpl<unsigned> &firstParam,
                      SmallVectorImpl<int64_t> &tensorMapParams);
  /// Maps each kernel argument to its parameters (a memref to a strided
  /// view of them), and takes the TMA descriptors.
  void bindArguments(ArrayRef<unsigned> firstParam,
                     ArrayRef<int64_t> tensorMapParams);
  /// The thread id, the dynamic shared-memory window and each fragment's
  /// registers, at the function's entry.
  void emitKernelState();

  // ---- Emission helpers, used by the per-op lowerings. ----
  Value index(int64_t v);
  Value i64(int64_t v);
  Value i32(int64_t v);
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
  /// `rank - 2` leading unit dimensions (the shape of a TMA box): all its
  /// rows, or `rows` of them from row `firstRow` (an index).
  Value sharedPanelView(Value tile, Value stage, int64_t panel,
                        int64_t rank = 2, int64_t rows = 0,
                        Value firstRow = Value());
  /// The planned layout and the registers of fragment `v`.
  Fragment fragment(Value v) const;
  /// Synchronises the computing threads: the whole block, or (warp
  /// specialised) the consumers only, on a named barrier the producer
  /// never reaches.
  void emitBarrier();
  /// emitBarrier that also reduces: true in every thread where `pred` (i1)
  /// is true in any of them (bar.red.or).
  Value emitBarrierAny(Value pred);
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
  /// This block's rank in its cluster (an index).
  Value clusterRank();
  /// The cluster's barrier: every thread of every block of the cluster
  /// arrives (release), then waits (acquire).
  void emitClusterBarrier();
  /// The arrivals that free a stage of warp-specialised loop `loop`: the
  /// consumer threads, or with a multicast load their warps in every block
  /// of the cluster.
  int64_t stageReaders(PipelinedOp loop) const;
  /// Frees ring slot `slot` of empty barriers `bars` in every block of the
  /// cluster: lane q of each warp arrives on block q's barrier.
  void releaseStageInCluster(Value bars, Value slot);
  /// emitPhaseWait in a kernel with multicast loads: polls without a
  /// suspend-time hint (`parity` an index, 0 or 1).
  void emitClusterPhaseWait(Value bars, Value slot, Value parity);
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
  LogicalResult lowerMmaWait(MmaWaitOp op);
  LogicalResult lowerCopyWait(CopyWaitOp op);
  LogicalResult lowerFill(FillOp op);
  LogicalResult lowerCopy(CopyOp op);
  LogicalResult lowerAtomic(AtomicOp op);
  LogicalResult lowerArrive(ArriveOp op);
  LogicalResult lowerReduce(ReduceOp op);
  LogicalResult lowerReduction(ReductionOp op);
  LogicalResult lowerParallel(ParallelOp op);
  LogicalResult lowerPrint(PrintOp op);
  /// tile.turn, and the set-up around a loop whose body takes turns
  /// (Turns.cpp): beginTurns before the consumers' loop of `count`
  /// iterations, setTurnIteration in each, endTurns after it.
  LogicalResult lowerTurn(TurnOp op);
  void beginTurns(PipelinedOp loop, Value count);
  void setTurnIteration(Value it);
  void endTurns();
  /// bar.sync / bar.arrive on the turn barrier of consumer `warpgroup`.
  void waitForTurn(Value warpgroup);
  void arriveOnTurn(Value warpgroup);
  /// The consumer warpgroup after this thread's, in turn order.
  Value nextWarpgroup();
  /// Copies between global memory and the fragment `frag` (at `offsets`
  /// of `memref`), either way, or with `atomic` combines the fragment into
  /// global memory. `bounds`, when given (one per memref dimension), clip
  /// the memref's extent (copy_c10).
  LogicalResult lowerGlobalAccess(Location l, Value frag, Value memref,
                                  ValueRange offsets, bool load,
                                  std::optional<AtomicKind> atomic = {},
                                  ValueRange bounds = {});
  /// Issues the TMA stores of `copy` (all panels) from one thread.
  void emitTmaStore(CopyOp copy);
  /// A global row into a row of a shared tile, with cp.async (copy_c6).
  LogicalResult lowerAsyncRowCopy(CopyOp op);
  /// Waits for all outstanding wgmma groups, threading the registers of the
  /// given accumulators through the wait so nothing reads them early.
  void emitWgmmaWait(int64_t pending, ArrayRef<Value> accumulators);
  /// A TMA copy outside any pipelined loop: its own barrier, issued by one
  /// thread, waited for by all.
  void emitOneShotTmaCopy(CopyOp op);
  /// Copies between a fragment and a single-stage shared tile, either way.
  LogicalResult copySharedFragment(CopyOp op, bool store);

  KernelOp kernel;
  const KernelPlan &plan;
  gpu::GPUModuleOp gpuModule;
  OpBuilder b;
  int64_t threads;
  IRMapping map;
  gpu::GPUFuncOp func;

  /// The TMA descriptor parameters, one per plan.tensorMaps entry.
  SmallVector<Value> tensorMapArgs;
  /// The registers of each fragment (see fragment()).
  DenseMap<Value, Value> fragmentRegs;
  /// The rings of the warp-specialised loops (emitWarpSpecialized).
  DenseMap<Operation *, StageRing> rings;
  /// The turns of the consumers' loop being lowered (Turns.cpp); no
  /// warpgroup value when it takes none.
  struct TurnState {
    Value warpgroup;        ///< this thread's consumer warpgroup (i32)
    bool passFirst = false; ///< the body's pass precedes its take
    Value runs;             ///< i1: the loop runs at least once
    Value iteration;        ///< the iteration being lowered (index)
  } turns;
  /// Frees the ring stage of the iteration before the one being lowered
  /// (WarpSpecialize.cpp), where a tile.mma_wait marked
  /// kFreesPreviousStageAttr completes its groups; empty elsewhere.
  std::function<void()> freePreviousStage;

  Value threadId;   ///< gpu.thread_id x
  Value sharedBase; ///< memref<?xi8, workgroup>: the dynamic shared memory
  Value sharedAddr; ///< i64 shared-window address of sharedBase
  Value
      currentStage; ///< the ring slot of the pipelined iteration being lowered
};

/// The spin bound of one mbarrier try_wait attempt (the wait loops until
/// the phase completes).
constexpr int64_t kMbarrierWaitTicks = 10000000;

/// Name of the gpu.module that holds every lowered kernel, and of the extern
/// dynamic shared-memory symbol in it.
constexpr llvm::StringLiteral kKernelModuleName = "tile_kernels";
constexpr llvm::StringLiteral kSharedMemorySymbol = "tile_smem";
/// Attribute names shared with the rest of the pipeline.
constexpr llvm::StringLiteral kKernelInfoAttr = "tile.kernel_info";
constexpr llvm::StringLiteral kTensorMapArgsAttr = "tile.tensormap_args";

/// The kernel's launch record (docs/KernelABI.md).
std::string kernelInfo(KernelOp kernel, const KernelPlan &plan);

/// The dtype spelling of docs/KernelABI.md (f16, bf16, f32, i32, ...).
std::string abiTypeName(Type t);

} // namespace mlir::tile

#endif // TILE_LIB_CONVERSION_TILETONVGPU_KERNELEMITTER_H
