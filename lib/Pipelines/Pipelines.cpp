//===- Pipelines.cpp - Registered tile compilation pipelines ------------===//
//
// tile -> gpu.func (nvgpu/nvvm/scf/memref/vector) -> llvm+nvvm -> PTX/cubin.
// The upstream part is the pass list verified on MLIR 22 (docs/Design.md,
// "Data flow").
//
//===----------------------------------------------------------------------===//

#include "tile/Pipelines/Pipelines.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tile;

void tile::buildTileToBinaryPipeline(OpPassManager &pm,
                                     const TileToBinaryOptions &options,
                                     BinaryFormat format) {
  ConvertTileToNVGPUOptions tileOptions;
  tileOptions.chip = options.chip;
  tileOptions.features = options.features;
  buildTileResourcesPipeline(pm, options);
  pm.addPass(createConvertTileToNVGPU(tileOptions));
  std::string upstream = llvm::formatv(
      "nvvm-attach-target{{chip={0} features={1} O={2}},"
      "convert-nvgpu-to-nvvm,convert-vector-to-scf,convert-scf-to-cf,"
      "convert-nvvm-to-llvm,expand-strided-metadata,lower-affine,"
      "convert-arith-to-llvm,convert-index-to-llvm,canonicalize,cse,"
      "gpu.module(convert-gpu-to-nvvm{{use-bare-ptr-memref-call-conv=1},"
      "canonicalize,cse,reconcile-unrealized-casts)",
      options.chip.getValue(), options.features.getValue(),
      options.optLevel.getValue());
  if (failed(parsePassPipeline(upstream, pm)))
    llvm::report_fatal_error("tile: the upstream pass list does not parse");
  pm.addPass(createTileFinalizeKernelABI());
  if (format == BinaryFormat::None)
    return;
  // PTX only: the cubin is assembled by tile-assemble-cubin, whose failures
  // are diagnostics (the NVVM target's own ptxas step can end the process
  // when the PTX cannot be written).
  if (failed(parsePassPipeline("gpu-module-to-binary{format=isa}", pm)))
    llvm::report_fatal_error("tile: gpu-module-to-binary does not parse");
  if (format == BinaryFormat::Cubin)
    pm.addPass(createTileAssembleCubin());
}

void tile::buildTileResourcesPipeline(OpPassManager &pm,
                                      const TileToBinaryOptions &options) {
  TileSpecializeOptions specializeOptions;
  specializeOptions.kernels.assign(options.kernels.begin(),
                                   options.kernels.end());
  specializeOptions.bind.assign(options.bind.begin(), options.bind.end());
  pm.addPass(createTileSpecialize(specializeOptions));
  addTilePreparationPasses(pm);
  TileEstimateResourcesOptions estimateOptions;
  estimateOptions.chip = options.chip;
  pm.addPass(createTileEstimateResources(estimateOptions));
}

void tile::registerTilePipelines() {
  PassPipelineRegistration<TileToBinaryOptions>(
      "tile-resources",
      "Specialise the kernels and record what each needs of the GPU "
      "(tile.resources), without lowering them",
      buildTileResourcesPipeline);
  auto reg = [](const char *name, const char *summary, BinaryFormat format) {
    PassPipelineRegistration<TileToBinaryOptions>(
        name, summary,
        [format](OpPassManager &pm, const TileToBinaryOptions &options) {
          buildTileToBinaryPipeline(pm, options, format);
        });
  };
  reg("tile-to-llvm",
      "Lower tile kernels to LLVM/NVVM gpu.modules, stopping before PTX",
      BinaryFormat::None);
  reg("tile-to-ptx", "Compile tile kernels to a gpu.binary holding PTX",
      BinaryFormat::Ptx);
  reg("tile-to-cubin", "Compile tile kernels to a gpu.binary holding a cubin",
      BinaryFormat::Cubin);
}
