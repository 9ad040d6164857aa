//===- Tune.cpp - C API: the configurations a tuner tries ---------------===//

#include "tile-c/Tune.h"
#include "tile/Dialect/Tile/IR/TileParams.h"
#include "tile/Tune/Space.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tile;

/// `128`, `true`: a value as a binding spells it.
static void printValue(raw_ostream &os, Attribute value) {
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    if (i.getType().isInteger(1))
      os << (i.getValue().getBoolValue() ? "true" : "false");
    else
      os << i.getInt();
    return;
  }
  os << cast<TypeAttr>(value).getValue();
}

/// `NAME=V1,V2,...` into an axis; on failure `error` says why.
static FailureOr<TuningAxis> parseAxis(StringRef text, MLIRContext *ctx,
                                       std::string &error) {
  auto [name, list] = text.split('=');
  if (!text.contains('=') || name.trim().empty() || list.trim().empty()) {
    error = ("an axis is NAME=V1,V2,..., got '" + text + "'").str();
    return failure();
  }
  TuningAxis axis{name.trim().str(), {}};
  SmallVector<StringRef> values;
  list.split(values, ',');
  for (StringRef v : values) {
    auto parsed =
        parseBindingText((axis.name + "=" + v.trim()).str(), ctx, error);
    if (failed(parsed))
      return failure();
    if (llvm::is_contained(axis.values, parsed->second)) {
      error = ("the axis '" + text + "' lists '" + v.trim() + "' twice").str();
      return failure();
    }
    axis.values.push_back(parsed->second);
  }
  return axis;
}

MlirLogicalResult mlirTileEnumerateCandidates(
    MlirModule cModule, MlirStringRef cKernel,
    const MlirTileCompileOptions *options, const char *const *axes,
    size_t numAxes, MlirStringRef cArgShapes,
    const MlirTileTuningLimits *cLimits, MlirStringCallback axesCallback,
    MlirTileCandidateCallback callback, void *userData) {
  ModuleOp module = unwrap(cModule);
  MLIRContext *ctx = module.getContext();
  auto fail = [&](const std::string &why) {
    module.emitError("tile tuning space: ") << why;
    return mlirLogicalResultFailure();
  };
  std::string error;
  NamedAttrList fixed;
  for (size_t i = 0; options && i < options->numBindings; ++i) {
    if (!options->bindings || !options->bindings[i])
      continue;
    auto parsed = parseBindingText(options->bindings[i], ctx, error);
    if (failed(parsed))
      return fail(error);
    fixed.set(parsed->first, parsed->second);
  }
  SmallVector<TuningAxis> overrides;
  for (size_t i = 0; i < numAxes; ++i) {
    if (!axes || !axes[i])
      continue;
    FailureOr<TuningAxis> axis = parseAxis(axes[i], ctx, error);
    if (failed(axis))
      return fail(error);
    overrides.push_back(std::move(*axis));
  }
  FailureOr<TuningSpace> space = TuningSpace::get(
      module, unwrap(cKernel), fixed.getDictionary(ctx), overrides, error);
  if (failed(space))
    return fail(error);

  if (axesCallback) {
    std::string lines;
    llvm::raw_string_ostream os(lines);
    llvm::StringSet<> tuned;
    for (const TuningAxis &a : space->getAxes()) {
      tuned.insert(a.name);
      os << "axis " << a.name << '=';
      llvm::interleave(
          a.values, os, [&](Attribute v) { printValue(os, v); }, ",");
      os << '\n';
    }
    DictionaryAttr all = space->getFixedOverDefaults();
    for (const TuningAxis &a : space->getAxes())
      if (Attribute value = all.get(a.name)) {
        os << "default " << a.name << '=';
        printValue(os, value);
        os << '\n';
      }
    for (NamedAttribute p : all)
      if (!tuned.contains(p.getName().getValue())) {
        os << "fixed " << p.getName().getValue() << '=';
        printValue(os, p.getValue());
        os << '\n';
      }
    axesCallback(wrap(StringRef(lines)), userData);
  }
  if (!callback)
    return mlirLogicalResultSuccess();
  SmallVector<SmallVector<int64_t>> argShapes;
  StringRef shapesText = unwrap(cArgShapes);
  if (!shapesText.empty()) {
    SmallVector<StringRef> args;
    shapesText.split(args, ';');
    for (StringRef arg : args) {
      SmallVector<int64_t> &shape = argShapes.emplace_back();
      SmallVector<StringRef> dims;
      if (!arg.trim().empty())
        arg.trim().split(dims, 'x');
      for (StringRef d : dims) {
        int64_t v;
        if (d.trim().getAsInteger(10, v) || v < 0)
          return fail(
              ("a problem shape is AxBx... of sizes, got '" + arg + "'").str());
        shape.push_back(v);
      }
    }
  }
  if (!argShapes.empty())
    if (std::string why = space->checkSignature(argShapes); !why.empty())
      return fail(why);
  TuningLimits limits{getMaxSharedBytes(kDefaultChip), 1024};
  if (cLimits && cLimits->sharedBytes > 0)
    limits.sharedBytes = cLimits->sharedBytes;
  if (cLimits && cLimits->threads > 0)
    limits.threads = cLimits->threads;
  space->enumerate(limits, argShapes, [&](const TuningCandidate &c) {
    std::string config;
    llvm::raw_string_ostream os(config);
    llvm::interleave(
        c.config, os,
        [&](NamedAttribute b) {
          os << b.getName().getValue() << '=';
          printValue(os, b.getValue());
        },
        " ");
    StringRef status = stringifyCandidateStatus(c.status);
    MlirTileCandidate out{wrap(StringRef(config)),
                          static_cast<MlirTileCandidateStatus>(c.status),
                          wrap(status),
                          wrap(StringRef(c.message)),
                          c.resources.sharedBytes,
                          c.resources.threads};
    callback(&out, userData);
  });
  return mlirLogicalResultSuccess();
}
