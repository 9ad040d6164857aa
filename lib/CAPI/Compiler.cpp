//===- Compiler.cpp - C API: compile tile IR to a GPU binary ------------===//

#include "tile-c/Compiler.h"
#include "CompilePipeline.h"
#include "tile/Dialect/Tile/IR/TileParams.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Tune/Cache.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

/// Name of the module attribute the tile lowering leaves the launch metadata
/// in.
static constexpr llvm::StringLiteral kKernelInfoAttr = "tile.kernel_info";

void mlirTileCompileOptionsInitDefault(MlirTileCompileOptions *options) {
  options->chip = nullptr;
  options->features = nullptr;
  options->optLevel = mlir::tile::kDefaultOptLevel;
  options->format = MlirTileOutputCubin;
  options->bindings = nullptr;
  options->numBindings = 0;
  options->kernels = nullptr;
  options->numKernels = 0;
}

void tile::setPipelineOptions(tile::TileToBinaryOptions &options,
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

void tile::buildCompilePipeline(OpPassManager &pm,
                                const MlirTileCompileOptions *cOptions) {
  tile::TileToBinaryOptions options;
  tile::setPipelineOptions(options, cOptions);
  MlirTileOutputFormat format =
      cOptions ? cOptions->format : MlirTileOutputCubin;
  tile::buildTileToBinaryPipeline(pm, options,
                                  format == MlirTileOutputPtx
                                      ? tile::BinaryFormat::Ptx
                                      : tile::BinaryFormat::Cubin);
}

MlirLogicalResult mlirTileEstimateResources(MlirModule cModule,
                                            const MlirTileCompileOptions *opts,
                                            MlirStringCallback callback,
                                            void *userData) {
  ModuleOp module = unwrap(cModule);
  tile::TileToBinaryOptions options;
  tile::setPipelineOptions(options, opts);
  PassManager pm(module.getContext());
  tile::buildTileResourcesPipeline(pm, options);
  if (failed(pm.run(module)))
    return mlirLogicalResultFailure();
  std::string text;
  llvm::raw_string_ostream os(text);
  for (auto kernel : module.getOps<tile::KernelOp>()) {
    auto resources =
        kernel->getAttrOfType<DictionaryAttr>(tile::kResourcesAttr);
    if (!resources)
      continue;
    os << "kernel " << kernel.getSymName() << " shared "
       << cast<IntegerAttr>(resources.get("shared_bytes")).getInt()
       << " stages " << cast<IntegerAttr>(resources.get("stages")).getInt()
       << " stage_bytes "
       << cast<IntegerAttr>(resources.get("stage_bytes")).getInt()
       << " pipelined_bytes "
       << cast<IntegerAttr>(resources.get("pipelined_bytes")).getInt()
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
  PassManager pm(module.getContext());
  tile::buildCompilePipeline(pm, cOptions);
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

/// A list as a JSON array of strings: a key component that tells the
/// bindings {"BM=128 BN=128"} (one binding, refused) from {"BM=128",
/// "BN=128"}, which a join with spaces would not.
static std::string encodeList(ArrayRef<std::string> items) {
  llvm::json::Array array;
  for (const std::string &item : items)
    array.push_back(item);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(array));
  return text;
}

MlirLogicalResult mlirTileCompileCached(MlirModule cModule,
                                        const MlirTileCompileOptions *cOptions,
                                        const char *cacheDirectory,
                                        MlirStringCallback binaryCallback,
                                        MlirStringCallback metadataCallback,
                                        void *userData, bool *hit) {
  if (hit)
    *hit = false;
  std::string dir =
      cacheDirectory ? cacheDirectory : tile::cache::getDefaultDirectory();
  if (dir.empty())
    return mlirTileCompile(cModule, cOptions, binaryCallback, metadataCallback,
                           userData);
  ModuleOp module = unwrap(cModule);
  // The key holds the options as the pipeline takes them (defaults filled
  // in by setPipelineOptions, the one place that knows them).
  tile::TileToBinaryOptions options;
  tile::setPipelineOptions(options, cOptions);
  bool ptx = cOptions && cOptions->format == MlirTileOutputPtx;
  std::string source;
  llvm::raw_string_ostream os(source);
  module->print(os, OpPrintingFlags().printGenericOpForm().assumeVerified());
  std::string bindings = llvm::join(options.bind, " ");
  std::string kernels = llvm::join(options.kernels, " ");
  std::vector<tile::cache::Component> key = {
      {"source", source},
      {"chip", options.chip},
      {"features", options.features},
      {"opt-level", std::to_string(options.optLevel)},
      {"format", ptx ? "ptx" : "cubin"},
      {"bindings", encodeList(options.bind)},
      {"kernels", encodeList(options.kernels)},
      {"compiler", tile::cache::getCompilerBuildId()}};

  tile::cache::Entry entry;
  std::string message;
  switch (tile::cache::load(dir, "compile", key, entry, message)) {
  case tile::cache::LoadResult::Hit: {
    const tile::cache::Blob *binary = nullptr, *info = nullptr;
    for (const tile::cache::Blob &b : entry.blobs) {
      if (b.name == "binary")
        binary = &b;
      else if (b.name == "kinfo")
        info = &b;
    }
    if (binary && info) {
      if (binaryCallback)
        binaryCallback(wrap(StringRef(binary->data)), userData);
      if (metadataCallback)
        metadataCallback(wrap(StringRef(info->data)), userData);
      if (hit)
        *hit = true;
      return mlirLogicalResultSuccess();
    }
    module.emitWarning("tile compile cache: an entry lacks its binary or "
                       "kernel info; compiling again");
    break;
  }
  case tile::cache::LoadResult::Corrupt:
    module.emitWarning("tile compile cache: ") << message;
    break;
  case tile::cache::LoadResult::Miss:
    break;
  }

  struct Collected {
    std::string binary, info;
  } got;
  auto appendBinary = [](MlirStringRef s, void *u) {
    static_cast<Collected *>(u)->binary.append(s.data, s.length);
  };
  auto appendInfo = [](MlirStringRef s, void *u) {
    static_cast<Collected *>(u)->info.append(s.data, s.length);
  };
  if (mlirLogicalResultIsFailure(
          mlirTileCompile(cModule, cOptions, appendBinary, appendInfo, &got)))
    return mlirLogicalResultFailure();
  std::string error;
  llvm::json::Object record{
      {"summary", "compiled " + kernels + " " + bindings}};
  if (failed(tile::cache::store(dir, "compile", key, std::move(record),
                                {{"binary", got.binary}, {"kinfo", got.info}},
                                error)))
    module.emitWarning("tile compile cache: ") << error;
  if (binaryCallback)
    binaryCallback(wrap(StringRef(got.binary)), userData);
  if (metadataCallback)
    metadataCallback(wrap(StringRef(got.info)), userData);
  return mlirLogicalResultSuccess();
}
