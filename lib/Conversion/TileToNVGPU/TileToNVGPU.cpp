//===- TileToNVGPU.cpp - The convert-tile-to-nvgpu pass -----------------===//
//
// Outlines every tile.kernel into a gpu.func with the kernel ABI of
// docs/KernelABI.md and lowers its body for sm_90a; the per-op lowerings are
// in their own files (Pipelined.cpp, Branch.cpp, GemmSM90.cpp, Fragments.cpp).
//
//===----------------------------------------------------------------------===//

#include "ByteToFloat.h"
#include "KernelEmitter.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileParams.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILETONVGPU
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

Value KernelEmitter::index(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc(), v);
}

Value KernelEmitter::isLeader() {
  return arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, threadId,
                               index(0));
}

Value KernelEmitter::i64(int64_t v) {
  return arith::ConstantIntOp::create(b, loc(), v, 64);
}

Value KernelEmitter::i32(int64_t v) {
  return arith::ConstantIntOp::create(b, loc(), v, 32);
}

void KernelEmitter::emitIf(Value cond, llvm::function_ref<void()> body) {
  auto op = scf::IfOp::create(b, loc(), cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op.thenYield());
  body();
}

void KernelEmitter::emitFor(Value lb, Value ub,
                            llvm::function_ref<void(Value)> body) {
  auto op = scf::ForOp::create(b, loc(), lb, ub, index(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op.getBody()->getTerminator());
  body(op.getInductionVar());
}

Value KernelEmitter::sharedPanelView(Value tile, Value stage, int64_t panel,
                                     int64_t rank, int64_t rows,
                                     Value firstRow) {
  const SharedTilePlan &p = plan.sharedTiles.lookup(tile);
  Value offset = arith::AddIOp::create(
      b, loc(), arith::MulIOp::create(b, loc(), stage, index(p.stageBytes())),
      index(p.offset + panel * p.panelBytes()));
  if (firstRow)
    offset = arith::AddIOp::create(
        b, loc(), offset,
        arith::MulIOp::create(b, loc(), firstRow,
                              index(p.panelCols() * p.eltBytes())));
  Type elt = cast<SharedType>(tile.getType()).getElementType();
  SmallVector<int64_t> shape(rank - 2, 1);
  shape.append({rows ? rows : p.rows(), p.panelCols()});
  auto type = MemRefType::get(
      shape, elt, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  return memref::ViewOp::create(b, loc(), type, sharedBase, offset,
                                ValueRange{});
}

void KernelEmitter::emitTmaCopy(CopyOp copy, Value bars, Value barIndex,
                                Value stage, ArrayRef<Value> offsets) {
  const SharedTilePlan &p = plan.sharedTiles.lookup(copy.getDest());
  unsigned tma = plan.copyTensorMap.lookup(copy);
  const TensorMapPlan &t = plan.tensorMaps[tma];
  // A multicast load (Multicast.cpp): this block's share of the rows, into
  // every block of the cluster.
  int64_t parts = multicastParts(copy);
  Value firstRow, mask;
  if (parts > 1) {
    firstRow = arith::MulIOp::create(b, loc(), clusterRank(), index(t.boxRows));
    mask = arith::ConstantOp::create(
        b, loc(), b.getI16IntegerAttr(static_cast<int16_t>((1 << parts) - 1)));
  }
  for (int64_t panel = 0; panel < p.cols() / p.panelCols(); ++panel) {
    Value view = sharedPanelView(copy.getDest(), stage, panel, t.rank,
                                 t.boxRows, firstRow);
    // TMA coordinates are innermost first.
    SmallVector<Value> coords{arith::AddIOp::create(
        b, loc(), offsets.back(), index(panel * p.panelCols()))};
    for (int64_t d = t.rank - 2; d >= 0; --d)
      coords.push_back(offsets[d]);
    if (firstRow)
      coords[1] = arith::AddIOp::create(b, loc(), coords[1], firstRow);
    nvgpu::TmaAsyncLoadOp::create(b, loc(), view, bars, tensorMapArgs[tma],
                                  coords, barIndex, mask, Value());
  }
}

Value KernelEmitter::sharedTileAddress(Value tile) {
  const SharedTilePlan &p = plan.sharedTiles.lookup(tile);
  // Only tiles filled by the enclosing pipelined loop rotate through stages.
  Value stage = currentStage && p.stages > 1 ? currentStage : index(0);
  Value off = arith::MulIOp::create(b, loc(), stage, index(p.stageBytes()));
  off = arith::AddIOp::create(b, loc(), off, index(p.offset));
  off = arith::IndexCastOp::create(b, loc(), b.getI64Type(), off);
  return arith::AddIOp::create(b, loc(), sharedAddr, off);
}

LogicalResult KernelEmitter::lowerBlockId(BlockIdOp op) {
  map.map(op.getResult(),
          gpu::BlockIdOp::create(b, loc(), (gpu::Dimension)op.getDim()));
  return success();
}

/// How one tile op is emitted: adding an op to the lowering is one entry
/// in emitterOf's table (planRegions refuses the tile ops without one).
struct KernelEmitter::OpEmitter {
  TypeID op;
  LogicalResult (*emit)(KernelEmitter &, Operation *);
};

template <typename OpT, LogicalResult (KernelEmitter::*Lower)(OpT)>
KernelEmitter::OpEmitter KernelEmitter::entry() {
  return {TypeID::get<OpT>(), [](KernelEmitter &k, Operation *op) {
            return (k.*Lower)(cast<OpT>(op));
          }};
}

const KernelEmitter::OpEmitter *KernelEmitter::emitterOf(Operation *op) {
  static const OpEmitter emitters[] = {
      entry<BlockIdOp, &KernelEmitter::lowerBlockId>(),
      entry<PipelinedOp, &KernelEmitter::lowerPipelined>(),
      entry<GemmOp, &KernelEmitter::lowerGemm>(),
      entry<MmaWaitOp, &KernelEmitter::lowerMmaWait>(),
      entry<CopyWaitOp, &KernelEmitter::lowerCopyWait>(),
      entry<FillOp, &KernelEmitter::lowerFill>(),
      entry<CopyOp, &KernelEmitter::lowerCopy>(),
      entry<AtomicOp, &KernelEmitter::lowerAtomic>(),
      entry<ArriveOp, &KernelEmitter::lowerArrive>(),
      entry<ReduceOp, &KernelEmitter::lowerReduce>(),
      entry<ReductionOp, &KernelEmitter::lowerReduction>(),
      entry<ParallelOp, &KernelEmitter::lowerParallel>(),
      entry<PrintOp, &KernelEmitter::lowerPrint>(),
      entry<TurnOp, &KernelEmitter::lowerTurn>(),
  };
  TypeID id = op->getName().getTypeID();
  for (const OpEmitter &e : emitters)
    if (e.op == id)
      return &e;
  return nullptr;
}

bool KernelEmitter::hasEmitter(Operation *op) {
  return emitterOf(op) != nullptr;
}

bool tile::isEmitted(Operation *op) { return KernelEmitter::hasEmitter(op); }

LogicalResult KernelEmitter::lowerBlock(Block &block) {
  for (Operation &op : block) {
    LogicalResult result = success();
    if (isa<YieldOp, scf::YieldOp, AllocSharedOp, AllocFragmentOp>(op))
      continue;
    if (isa<gpu::BarrierOp>(op)) {
      emitBarrier(); // the computing threads, not a producer warpgroup
      continue;
    }
    if (const OpEmitter *e = emitterOf(&op)) {
      result = e->emit(*this, &op);
    } else if (isa_and_present<TileDialect>(op.getDialect())) {
      llvm_unreachable("planRegions refuses the tile ops with no lowering");
    } else if (auto branch = dyn_cast<scf::IfOp>(op);
               branch && holdsTileOps(branch)) {
      result = lowerIf(branch); // planRegions checked what it holds
    } else if (auto loop = dyn_cast<scf::ForOp>(op);
               loop && holdsTileOps(loop)) {
      result = lowerFor(loop); // and what this one holds
    } else {
      b.clone(op, map);
    }
    if (failed(result))
      return failure();
  }
  return success();
}

void KernelEmitter::createFunction(SmallVectorImpl<unsigned> &firstParam,
                                   SmallVectorImpl<int64_t> &tensorMapParams) {
  MLIRContext *ctx = b.getContext();
  auto global = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Global);
  SmallVector<Type> params;
  for (Type t : kernel.getFunctionType().getInputs()) {
    firstParam.push_back(params.size());
    auto m = dyn_cast<MemRefType>(t);
    if (!m) {
      params.push_back(t);
      continue;
    }
    params.push_back(MemRefType::get({1}, m.getElementType(),
                                     MemRefLayoutAttrInterface(), global));
    params.append(2 * m.getRank(), b.getI64Type());
  }
  for (size_t i = 0; i < plan.tensorMaps.size(); ++i) {
    tensorMapParams.push_back(params.size());
    params.push_back(LLVM::LLVMPointerType::get(ctx));
  }

  b.setInsertionPointToEnd(&gpuModule.getBodyRegion().front());
  func = gpu::GPUFuncOp::create(b, loc(), kernel.getSymName(),
                                b.getFunctionType(params, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({(int32_t)plan.blockThreads(), 1, 1}));
  if (!tensorMapParams.empty())
    func->setAttr(kTensorMapArgsAttr, b.getDenseI64ArrayAttr(tensorMapParams));
  // setmaxnreg needs ptxas to know the registers at entry, which a
  // minimum of blocks per SM gives.
  std::optional<int64_t> blocks = kernel.getMinBlocks();
  if (!blocks && plan.warpSpecialization.consumerRegisters)
    blocks = 1;
  if (blocks)
    func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  b.getI32IntegerAttr(*blocks));
  // `.reqnctapercluster`: the launch must give these cluster dimensions.
  if (kernel.getCluster()) {
    SmallVector<int32_t, 3> cluster;
    for (int64_t d : kernel.getClusterShape())
      cluster.push_back(static_cast<int32_t>(d));
    func->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                  b.getDenseI32ArrayAttr(cluster));
  }
}

void KernelEmitter::bindArguments(ArrayRef<unsigned> firstParam,
                                  ArrayRef<int64_t> tensorMapParams) {
  MLIRContext *ctx = b.getContext();
  auto global = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Global);
  Block &entry = func.getBody().front();
  for (auto [i, t] : llvm::enumerate(kernel.getFunctionType().getInputs())) {
    Value kernelArg = kernel.getBodyBlock().getArgument(i);
    BlockArgument first = entry.getArgument(firstParam[i]);
    auto m = dyn_cast<MemRefType>(t);
    if (!m) {
      map.map(kernelArg, first);
      continue;
    }
    func.setArgAttr(firstParam[i], "llvm.align", b.getI64IntegerAttr(16));
    int64_t rank = m.getRank();
    SmallVector<OpFoldResult> sizes, strides;
    SmallVector<int64_t> staticStrides(rank, ShapedType::kDynamic);
    staticStrides.back() = 1;
    for (int64_t d = 0; d < rank; ++d) {
      Value size = entry.getArgument(firstParam[i] + 1 + d);
      sizes.push_back(
          arith::IndexCastOp::create(b, loc(), b.getIndexType(), size)
              .getResult());
      if (d + 1 < rank) {
        Value stride = entry.getArgument(firstParam[i] + 1 + rank + d);
        strides.push_back(
            arith::IndexCastOp::create(b, loc(), b.getIndexType(), stride)
                .getResult());
      } else {
        strides.push_back(b.getIndexAttr(1));
      }
    }
    auto viewType = MemRefType::get(
        SmallVector<int64_t>(rank, ShapedType::kDynamic), m.getElementType(),
        StridedLayoutAttr::get(ctx, 0, staticStrides), global);
    Value view = memref::ReinterpretCastOp::create(
        b, loc(), viewType, first, b.getIndexAttr(0), sizes, strides);
    map.map(kernelArg, view);
  }
  for (auto [t, p] : llvm::zip(plan.tensorMaps, tensorMapParams))
    tensorMapArgs.push_back(
        UnrealizedConversionCastOp::create(b, loc(), TypeRange{t.type},
                                           ValueRange{entry.getArgument(p)})
            .getResult(0));
}

void KernelEmitter::emitKernelState() {
  MLIRContext *ctx = b.getContext();
  threadId = gpu::ThreadIdOp::create(b, loc(), gpu::Dimension::x);
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto symbolType = MemRefType::get({0}, b.getI8Type(),
                                    MemRefLayoutAttrInterface(), workgroup);
  Value symbol =
      memref::GetGlobalOp::create(b, loc(), symbolType, kSharedMemorySymbol);
  sharedBase = memref::CastOp::create(
      b, loc(),
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroup),
      symbol);
  Value addr =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc(), sharedBase);
  sharedAddr = arith::IndexCastOp::create(b, loc(), b.getI64Type(), addr);
  for (const auto &[value, layout] : plan.fragments) {
    Type elt = cast<FragmentType>(value.getType()).getElementType();
    fragmentRegs[value] = memref::AllocaOp::create(
        b, loc(), MemRefType::get({layout.numRegs()}, elt));
  }
}

LogicalResult KernelEmitter::emit() {
  SmallVector<unsigned> firstParam;
  SmallVector<int64_t> tensorMapParams;
  createFunction(firstParam, tensorMapParams);
  b.setInsertionPointToStart(&func.getBody().front());
  bindArguments(firstParam, tensorMapParams);
  emitKernelState();

  auto body = [&] { return lowerBlock(kernel.getBodyBlock()); };
  if (failed(plan.warpSpecialization.enabled() ? emitWarpSpecialized(body)
                                               : body()))
    return failure();
  gpu::ReturnOp::create(b, loc());
  return success();
}

/// The function emitted for `kernel` verifies before the kernel goes away,
/// in every build: an inconsistency of the lowering (a value it left
/// unmapped, say) is a diagnostic at the kernel, never a crash later on.
static LogicalResult verifyLowered(KernelOp kernel, gpu::GPUFuncOp func) {
  if (succeeded(verify(func)))
    return success();
  return kernel.emitOpError("was lowered to invalid IR (the error above); "
                            "this is a bug of convert-tile-to-nvgpu");
}

/// The conversions into and out of 8-bit floats that the emitted function
/// holds (parallel bodies' arith.truncf and arith.extf, converting copies)
/// become the target's instructions: NVPTX has none for them.
static LogicalResult lowerEightBitFloatConversions(gpu::GPUFuncOp func,
                                                   const TileTarget &target) {
  SmallVector<Operation *> conversions;
  func.walk([&](Operation *op) {
    if (isa<arith::TruncFOp, arith::ExtFOp>(op) &&
        (isEightBitFloat(op->getOperand(0).getType()) ||
         isEightBitFloat(op->getResult(0).getType())))
      conversions.push_back(op);
  });
  for (Operation *op : conversions) {
    OpBuilder b(op);
    auto to = cast<FloatType>(op->getResult(0).getType());
    Value v =
        target.convertEightBitFloat(b, op->getLoc(), op->getOperand(0), to);
    if (!v)
      return op->emitError("converts ")
             << op->getOperand(0).getType() << " into " << to << "; "
             << target.getChip() << " has no instruction for it";
    op->getResult(0).replaceAllUsesWith(v);
    op->erase();
  }
  return success();
}

namespace {
struct ConvertTileToNVGPUPass
    : tile::impl::ConvertTileToNVGPUBase<ConvertTileToNVGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
    if (kernels.empty())
      return;
    for (KernelOp kernel : kernels)
      if (failed(kernel.requireSpecialised(getArgument())))
        return signalPassFailure();
    const TileTarget *target = lookupTileTarget(chip);
    if (!target) {
      kernels.front().emitOpError("convert-tile-to-nvgpu: chip '")
          << chip << "' is not supported (no target is registered for it)";
      return signalPassFailure();
    }
    if (std::string why = target->checkFeatures(features); !why.empty()) {
      kernels.front().emitOpError("convert-tile-to-nvgpu: features '")
          << features << "': " << why;
      return signalPassFailure();
    }
    OpBuilder b(module.getContext());
    b.setInsertionPointToEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(b, module.getLoc(), kKernelModuleName);
    b.setInsertionPointToStart(&gpuModule.getBodyRegion().front());
    auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                                gpu::AddressSpace::Workgroup);
    memref::GlobalOp::create(
        b, module.getLoc(), kSharedMemorySymbol, b.getStringAttr("public"),
        MemRefType::get({0}, b.getI8Type(), MemRefLayoutAttrInterface(),
                        workgroup),
        Attribute(), /*constant=*/false,
        b.getI64IntegerAttr(target->getSharedTileAlignment()));
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());

    // The module's location names each kernel's: what the assembler says
    // of a function (gpu.binary keeps this location) points at its source.
    SmallVector<Location> kernelLocs;
    for (KernelOp kernel : kernels)
      kernelLocs.push_back(
          NameLoc::get(kernel.getSymNameAttr(), kernel.getLoc()));
    gpuModule->setLoc(FusedLoc::get(b.getContext(), kernelLocs));

    std::string info = "tile-kernel-info 1\n";
    for (KernelOp kernel : kernels) {
      // A rule of the target that a specialised kernel breaks (shared
      // memory, wgmma shapes) names the bindings that produced it.
      BindingsNote note(kernel);
      FailureOr<KernelPlan> plan = planKernel(kernel, *target);
      if (failed(plan))
        return signalPassFailure();
      KernelEmitter emitter(kernel, *plan, gpuModule);
      if (failed(emitter.emit()) ||
          failed(lowerEightBitFloatConversions(emitter.getFunc(), *target)))
        return signalPassFailure();
      lowerByteToFloatConversions(emitter.getFunc());
      if (failed(verifyLowered(kernel, emitter.getFunc())))
        return signalPassFailure();
      info += kernelInfo(kernel, *plan);
      kernel.erase();
    }
    module->setAttr(kKernelInfoAttr, b.getStringAttr(info));
  }
};
} // namespace
