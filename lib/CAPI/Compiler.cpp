//===- Compiler.cpp - C API: compile tile IR to a GPU binary ------------===//

#include "tile-c/Compiler.h"
#include "tile/Dialect/Tile/IR/TileParams.h"
#include "tile/Pipelines/Pipelines.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

/// Name of the module attribute the tile lowering leaves the launch metadata
/// in.
static constexpr llvm::StringLiteral kKernelInfoAttr = "tile.kernel_info";

void mlirTileCompileOptionsInitDefault(MlirTileCompileOptions *options) {
  options->chip = nullptr;
  options->features = nullptr;
  options->optLevel = 3;
  options->format = MlirTileOutputCubin;
  options->bindings = nullptr;
  options->numBindings = 0;
  options->kernels = nullptr;
  options->numKernels = 0;
}

/// Sets the pipeline `options` from `cOptions` (NULL: the defaults).
static void setPipelineOptions(tile::TileToBinaryOptions &options,
                               const MlirTileCompileOptions *cOptions) {
  MlirTileCompileOptions defaults;
  mlirTileCompileOptionsInitDefault(&defaults);
  const MlirTileCompileOptions &opts = cOptions ? *cOptions : defaults;
  if (opts.chip)
    options.chip = std::string(opts.chip);
  if (opts.features)
    options.features = std::string(opts.features);
  options.optLevel = opts.optLevel;
  for (size_t i = 0; i < opts.numBindings; ++i)
    if (opts.bindings && opts.bindings[i])
      options.bind.push_back(opts.bindings[i]);
  for (size_t i = 0; i < opts.numKernels; ++i)
    if (opts.kernels && opts.kernels[i])
      options.kernels.push_back(opts.kernels[i]);
}

MlirLogicalResult mlirTileEstimateResources(MlirModule cModule,
                                            const MlirTileCompileOptions *opts,
                                            MlirStringCallback callback,
                                            void *userData) {
  ModuleOp module = unwrap(cModule);
  tile::TileToBinaryOptions options;
  setPipelineOptions(options, opts);
  PassManager pm(module.getContext());
  tile::buildTileResourcesPipeline(pm, options);
  if (failed(pm.run(module)))
    return mlirLogicalResultFailure();
  std::string text;
  llvm::raw_string_ostream os(text);
  for (auto kernel : module.getOps<tile::KernelOp>()) {
    auto resources = kernel->getAttrOfType<DictionaryAttr>(
        tile::kResourcesAttr);
    if (!resources)
      continue;
    os << "kernel " << kernel.getSymName() << " shared "
       << cast<IntegerAttr>(resources.get("shared_bytes")).getInt()
       << " threads " << cast<IntegerAttr>(resources.get("threads")).getInt()
       << " grid " << cast<StringAttr>(resources.get("grid")).getValue()
       << "\n";
  }
  if (callback)
    callback(wrap(StringRef(text)), userData);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult mlirTileCompile(MlirModule cModule,
                                  const MlirTileCompileOptions *cOptions,
                                  MlirStringCallback binaryCallback,
                                  MlirStringCallback metadataCallback,
                                  void *userData) {
  ModuleOp module = unwrap(cModule);
  tile::TileToBinaryOptions options;
  setPipelineOptions(options, cOptions);
  MlirTileOutputFormat format =
      cOptions ? cOptions->format : MlirTileOutputCubin;
  PassManager pm(module.getContext());
  tile::buildTileToBinaryPipeline(pm, options,
                                  format == MlirTileOutputPtx
                                      ? tile::BinaryFormat::Ptx
                                      : tile::BinaryFormat::Cubin);
  if (failed(pm.run(module)))
    return mlirLogicalResultFailure();

  SmallVector<gpu::BinaryOp> binaries(module.getOps<gpu::BinaryOp>());
  if (binaries.size() != 1) {
    module.emitError("tile: expected one gpu.binary after compilation, got ")
        << binaries.size();
    return mlirLogicalResultFailure();
  }
  ArrayRef<Attribute> objects = binaries.front().getObjects().getValue();
  if (objects.size() != 1) {
    binaries.front().emitError("tile: expected one object (one target), got ")
        << objects.size();
    return mlirLogicalResultFailure();
  }
  StringRef bytes = cast<gpu::ObjectAttr>(objects.front()).getObject();
  if (binaryCallback)
    binaryCallback(wrap(bytes), userData);
  auto info = module->getAttrOfType<StringAttr>(kKernelInfoAttr);
  if (metadataCallback && info)
    metadataCallback(wrap(info.getValue()), userData);
  return mlirLogicalResultSuccess();
}
