//===- EstimateResources.cpp - What a kernel needs, before lowering -----===//
//
// tile-estimate-resources: the sm_90a plan of each kernel (shared memory of
// every tile and stage, threads, the grid rule) without emitting code, so
// that a tuner can drop a configuration before compiling it.
//
//===----------------------------------------------------------------------===//

#include "KernelPlan.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "tile/Conversion/Passes.h"
#include "tile/Conversion/Resources.h"
#include "tile/Dialect/Tile/IR/TileParams.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEESTIMATERESOURCES
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

/// `[C[1] / 256, C[0] / 128]`, with the arguments' source names.
static std::string gridRule(KernelOp kernel) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << '[';
  for (unsigned i = 0, e = kernel.getNumGridDims(); i < e; ++i) {
    if (i)
      os << ", ";
    int64_t arg = kernel.getGridArgs()[i];
    if (arg >= 0) {
      StringRef name = kernel.getArgName(arg);
      if (name.empty())
        os << "arg" << arg;
      else
        os << name;
      os << '[' << kernel.getGridDims()[i] << "] / ";
    }
    os << kernel.getGridTile(i);
  }
  os << ']';
  return s;
}

FailureOr<KernelResources> tile::planKernelResources(KernelOp kernel,
                                                     StringRef chip,
                                                     int64_t sharedLimit) {
  const TileTarget *target = lookupTileTarget(chip);
  if (!target)
    return kernel.emitOpError("no target is registered for chip '")
           << chip << "'";
  // A tuner plans outside any pass, in whatever context its caller made:
  // the plan's TMA descriptors are NVGPU types over GPU address spaces.
  kernel.getContext()->getOrLoadDialect<gpu::GPUDialect>();
  kernel.getContext()->getOrLoadDialect<nvgpu::NVGPUDialect>();
  FailureOr<KernelPlan> plan = planKernel(kernel, *target, sharedLimit);
  if (failed(plan))
    return failure();
  KernelResources r;
  r.sharedBytes = plan->sharedBytes;
  for (const auto &[tile, p] : plan->sharedTiles) {
    if (p.stages < 2)
      continue;
    r.stages = std::max(r.stages, p.stages);
    r.stageBytes += p.stageBytes();
    r.pipelinedBytes += p.stages * p.stageBytes();
  }
  r.threads = plan->blockThreads();
  const WarpSpecializationPlan &ws = plan->warpSpecialization;
  r.producerWarpgroups = ws.enabled() ? 1 : 0;
  r.consumerRegisters = ws.consumerRegisters;
  r.producerRegisters = ws.producerRegisters;
  r.grid = gridRule(kernel);
  return r;
}

int64_t tile::getMaxSharedBytes(StringRef chip) {
  const TileTarget *target = lookupTileTarget(chip);
  return target ? target->getMaxSharedBytes() : 0;
}

namespace {
struct EstimateResourcesPass
    : tile::impl::TileEstimateResourcesBase<EstimateResourcesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (KernelOp kernel : module.getOps<KernelOp>()) {
      if (failed(kernel.requireSpecialised(getArgument())))
        return signalPassFailure();
      const TileTarget *target = lookupTileTarget(chip);
      if (!target) {
        kernel.emitOpError("tile-estimate-resources: chip '")
            << chip << "' is not supported (no target is registered for it)";
        return signalPassFailure();
      }
      BindingsNote note(kernel);
      FailureOr<KernelResources> r =
          planKernelResources(kernel, chip, target->getMaxSharedBytes());
      if (failed(r))
        return signalPassFailure();
      Builder b(&getContext());
      SmallVector<NamedAttribute> fields{
          b.getNamedAttr("shared_bytes", b.getI64IntegerAttr(r->sharedBytes)),
          b.getNamedAttr("stages", b.getI64IntegerAttr(r->stages)),
          b.getNamedAttr("stage_bytes", b.getI64IntegerAttr(r->stageBytes)),
          b.getNamedAttr("pipelined_bytes",
                         b.getI64IntegerAttr(r->pipelinedBytes)),
          b.getNamedAttr("threads", b.getI64IntegerAttr(r->threads)),
          b.getNamedAttr("grid", b.getStringAttr(r->grid))};
      // The warp-specialised schedule, when there is one.
      if (r->producerWarpgroups)
        fields.append(
            {b.getNamedAttr("producer_warpgroups",
                            b.getI64IntegerAttr(r->producerWarpgroups)),
             b.getNamedAttr("consumer_registers",
                            b.getI64IntegerAttr(r->consumerRegisters)),
             b.getNamedAttr("producer_registers",
                            b.getI64IntegerAttr(r->producerRegisters))});
      kernel->setAttr(kResourcesAttr, b.getDictionaryAttr(fields));
    }
  }
};
} // namespace
