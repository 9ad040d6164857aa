//===- Space.cpp - The configurations a tuner tries ---------------------===//
//
// Enumerates a parametric kernel's tuning space and gives each configuration
// its verdict without compiling it: the `where` constraints, then the
// specialisation and the sm_90a plan (the same code the lowering runs), then
// the device's limits.
//
//===----------------------------------------------------------------------===//

#include "tile/Tune/Space.h"
#include "tile/Dialect/Tile/IR/TileAttrs.h"
#include "tile/Dialect/Tile/IR/TileParams.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

StringRef tile::stringifyCandidateStatus(CandidateStatus status) {
  switch (status) {
  case CandidateStatus::Viable:
    return "viable";
  case CandidateStatus::Constraint:
    return "constraint";
  case CandidateStatus::Contract:
    return "contract";
  case CandidateStatus::Refused:
    return "refused";
  case CandidateStatus::SharedMemory:
    return "shared-memory";
  case CandidateStatus::Threads:
    return "threads";
  }
  llvm_unreachable("unknown candidate status");
}

FailureOr<TuningSpace> TuningSpace::get(ModuleOp module, StringRef name,
                                        DictionaryAttr fixed,
                                        ArrayRef<TuningAxis> overrides,
                                        std::string &error) {
  MLIRContext *ctx = module.getContext();
  TuningSpace space;
  space.name = name.str();
  NamedAttrList bound;
  Operation *symbol = SymbolTable::lookupSymbolIn(module, name);
  if (auto instance = dyn_cast_or_null<InstanceOp>(symbol)) {
    space.generic = dyn_cast_or_null<KernelOp>(
        SymbolTable::lookupSymbolIn(module, instance.getKernel()));
    bound.append(instance.getBindings().getValue());
  } else {
    space.generic = dyn_cast_or_null<KernelOp>(symbol);
  }
  if (!space.generic) {
    error = ("no kernel or instance named '" + name + "'").str();
    return failure();
  }
  if (!space.generic.isParametric()) {
    error = ("kernel '" + name + "' has no parameters to tune").str();
    return failure();
  }
  KernelOp generic = space.generic;
  for (NamedAttribute b : fixed) {
    if (std::optional<std::string> why =
            checkBinding(generic, b.getName(), b.getValue())) {
      error = *why;
      return failure();
    }
    bound.set(b.getName(), b.getValue());
  }
  space.fixed = bound.getDictionary(ctx);

  // Why parameter `p` cannot be an axis, or nothing.
  DictionaryAttr params = *generic.getParams();
  auto notTunable = [&](StringRef p) -> std::optional<std::string> {
    Attribute decl = params.get(p);
    if (!decl)
      return ("kernel '" + generic.getSymName() + "' has no parameter '" + p +
              "'")
          .str();
    if (isa<TypeAttr>(decl))
      return ("parameter '" + p +
              "' is a type: the problem's element types decide it (bind it "
              "instead)")
          .str();
    if (Attribute v = space.fixed.get(p))
      return ("parameter '" + p + "' is bound by the instance or the caller")
          .str();
    return std::nullopt;
  };

  llvm::StringMap<const TuningAxis *> byName;
  for (const TuningAxis &o : overrides) {
    if (std::optional<std::string> why = notTunable(o.name)) {
      error = *why;
      return failure();
    }
    if (!byName.try_emplace(o.name, &o).second) {
      error = "parameter '" + o.name + "' is given two value lists";
      return failure();
    }
    if (o.values.empty()) {
      error = "parameter '" + o.name + "' is given no values";
      return failure();
    }
    for (Attribute v : o.values)
      if (std::optional<std::string> why = checkBinding(generic, o.name, v)) {
        error = *why;
        return failure();
      }
  }

  std::optional<DictionaryAttr> declared = generic.getSpace();
  for (NamedAttribute p : params) {
    StringRef n = p.getName().getValue();
    if (const TuningAxis *o = byName.lookup(n)) {
      space.axes.push_back(*o);
      continue;
    }
    auto candidates =
        declared ? dyn_cast_or_null<ArrayAttr>(declared->get(n)) : ArrayAttr();
    if (!candidates || notTunable(n))
      continue;
    space.axes.push_back(
        {n.str(), SmallVector<Attribute>(candidates.getValue())});
  }
  if (space.size() > kMaxTuningConfigs) {
    error = ("the space of '" + name + "' has more than " +
             Twine(kMaxTuningConfigs) + " configurations; narrow it")
                .str();
    return failure();
  }
  return space;
}

DictionaryAttr TuningSpace::getFixedOverDefaults() const {
  NamedAttrList all(*generic.getParams());
  for (NamedAttribute b : fixed)
    all.set(b.getName(), b.getValue());
  return all.getDictionary(generic.getContext());
}

int64_t TuningSpace::size() const {
  int64_t n = 1;
  for (const TuningAxis &a : axes)
    if (llvm::MulOverflow(n, (int64_t)a.values.size(), n))
      return INT64_MAX;
  return n;
}

namespace {
/// Keeps the first error reported while alive, and stops it there.
class FirstError : public ScopedDiagnosticHandler {
public:
  explicit FirstError(MLIRContext *ctx) : ScopedDiagnosticHandler(ctx) {
    setHandler([this](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error && message.empty())
        message = d.str();
      return success();
    });
  }
  std::string message;
};
} // namespace

std::string
TuningSpace::checkSignature(ArrayRef<SmallVector<int64_t>> argShapes) const {
  ArrayRef<Type> types = generic.getFunctionType().getInputs();
  std::string s;
  llvm::raw_string_ostream os(s);
  auto printKernel = [&] {
    os << "kernel '" << name << "' takes (";
    for (auto [i, type] : llvm::enumerate(types)) {
      if (i)
        os << ", ";
      if (StringRef n = generic.getArgName(i); !n.empty())
        os << n << ": ";
      if (auto m = dyn_cast<MemRefType>(type)) {
        llvm::interleave(
            m.getShape(), os,
            [&](int64_t d) {
              if (ShapedType::isDynamic(d))
                os << '?';
              else
                os << d;
            },
            "x");
        if (m.getRank() == 0)
          os << "0-d memref";
      } else {
        os << "scalar";
      }
    }
    os << "); the problem gives (";
    llvm::interleave(
        argShapes, os,
        [&](const SmallVector<int64_t> &shape) {
          if (shape.empty())
            os << "scalar";
          else
            llvm::interleave(shape, os, "x");
        },
        ", ");
    os << ")";
  };
  if (argShapes.size() != types.size()) {
    os << "the problem gives " << argShapes.size() << " arguments for "
       << types.size() << ": ";
    printKernel();
    return s;
  }
  for (auto [i, type] : llvm::enumerate(types)) {
    auto m = dyn_cast<MemRefType>(type);
    int64_t rank = m ? m.getRank() : 0;
    bool scalarGiven = argShapes[i].empty();
    if (m ? (int64_t)argShapes[i].size() == rank : scalarGiven)
      continue;
    os << "argument " << i;
    if (StringRef n = generic.getArgName(i); !n.empty())
      os << " (" << n << ")";
    os << " is " << (m ? ("a " + Twine(rank) + "-d memref").str() : "a scalar")
       << ", given "
       << (scalarGiven ? "a scalar"
                       : ("a " + Twine(argShapes[i].size()) + "-d shape").str())
       << ": ";
    printKernel();
    return s;
  }
  return "";
}

std::string
TuningSpace::checkContracts(DictionaryAttr bindings,
                            ArrayRef<SmallVector<int64_t>> argShapes) const {
  std::optional<ArrayAttr> contracts = generic.getContracts();
  if (!contracts || argShapes.empty())
    return "";
  auto argName = [&](int64_t arg) {
    StringRef name = generic.getArgName(arg);
    return name.empty() ? ("argument " + Twine(arg)).str() : name.str();
  };
  auto dimOf = [&](int64_t arg, int64_t dim) -> std::optional<int64_t> {
    if (arg < 0 || arg >= (int64_t)argShapes.size() || dim < 0 ||
        dim >= (int64_t)argShapes[arg].size())
      return std::nullopt;
    return argShapes[arg][dim];
  };
  for (Attribute a : *contracts) {
    auto c = cast<ContractAttr>(a);
    std::string missing;
    auto value = [&](unsigned i) -> std::optional<int64_t> {
      if (auto ref = dyn_cast<ParamRefAttr>(c.getOperands()[i]))
        return getParamInteger(cast<IntegerAttr>(bindings.get(ref.getName())));
      std::pair<int64_t, int64_t> argDim = *c.getArgDim(i);
      std::optional<int64_t> v = dimOf(argDim.first, argDim.second);
      if (!v && missing.empty())
        missing = ("the problem gives " + argName(argDim.first) +
                   " no dimension " + Twine(argDim.second))
                      .str();
      return v;
    };
    std::optional<std::pair<int64_t, int64_t>> sides = c.evaluate(value);
    if (!missing.empty())
      return missing;
    if (sides &&
        relationHolds(c.getRelationKind(), sides->first, sides->second))
      continue;
    std::string s;
    llvm::raw_string_ostream os(s);
    auto printArg = [&](raw_ostream &os, int64_t arg) { os << argName(arg); };
    // `dimension 1 of X is 5000; it must be at most 4096 (COLS)` for one
    // dimension against one operand, else the contract and its values.
    AffineMap map = c.getSides();
    auto lhsSym = dyn_cast<AffineSymbolExpr>(map.getResult(0));
    auto rhsSym = dyn_cast<AffineSymbolExpr>(map.getResult(1));
    std::optional<std::pair<int64_t, int64_t>> lhsDim =
        lhsSym ? c.getArgDim(lhsSym.getPosition()) : std::nullopt;
    if (sides && lhsDim &&
        (rhsSym || isa<AffineConstantExpr>(map.getResult(1)))) {
      static const char *const words[] = {"equal to", "at most", "at least",
                                          "below", "above"};
      os << "dimension " << lhsDim->second << " of " << argName(lhsDim->first)
         << " is " << sides->first << "; it must be "
         << words[static_cast<int>(c.getRelationKind())] << ' '
         << sides->second;
      if (rhsSym) {
        Attribute bound = c.getOperands()[rhsSym.getPosition()];
        if (auto ref = dyn_cast<ParamRefAttr>(bound))
          os << " (" << ref.getName() << ")";
        else if (std::optional<std::pair<int64_t, int64_t>> dim =
                     c.getArgDim(rhsSym.getPosition()))
          os << " (dimension " << dim->second << " of " << argName(dim->first)
             << ")";
      }
      return s;
    }
    c.print(os, printArg);
    os << (sides ? " does not hold"
                 : " cannot be evaluated (a divisor is "
                   "not positive, or it overflows)")
       << " with ";
    llvm::ListSeparator sep;
    for (unsigned i = 0, e = c.getOperands().size(); i < e; ++i) {
      if (isa<IntegerAttr>(c.getOperands()[i]))
        continue;
      os << sep;
      c.printOperand(os, i, printArg);
      os << " = " << *value(i);
    }
    return s;
  }
  return "";
}

TuningCandidate
TuningSpace::evaluate(DictionaryAttr config, const TuningLimits &limits,
                      ArrayRef<SmallVector<int64_t>> argShapes) const {
  MLIRContext *ctx = generic.getContext();
  TuningCandidate c;
  c.config = config;
  NamedAttrList all(fixed);
  for (NamedAttribute b : config)
    all.set(b.getName(), b.getValue());
  std::string error;
  FailureOr<DictionaryAttr> bound =
      resolveBindings(generic, all.getDictionary(ctx), error);
  if (failed(bound)) {
    c.bindings = all.getDictionary(ctx);
    c.status = CandidateStatus::Constraint;
    c.message = error;
    return c;
  }
  c.bindings = *bound;
  if (std::string why = checkContracts(*bound, argShapes); !why.empty()) {
    c.status = CandidateStatus::Contract;
    c.message = why;
    return c;
  }

  // Specialise a copy in a module of its own, prepare it and plan it as the
  // lowering would.
  FirstError diagnostics(ctx);
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(generic.getLoc());
  OpBuilder b = OpBuilder::atBlockEnd(scratch->getBody());
  auto copy = cast<KernelOp>(b.clone(*generic));
  FailureOr<KernelOp> kernel = specializeKernel(copy, *bound, name, copy);
  copy.erase();
  PassManager pm(ctx);
  addTilePreparationPasses(pm);
  FailureOr<KernelResources> planned = failure();
  if (succeeded(kernel) && succeeded(pm.run(*scratch)))
    planned = planKernelResources(*kernel, kDefaultChip,
                                  /*sharedLimit=*/INT64_MAX);
  if (failed(planned)) {
    c.status = CandidateStatus::Refused;
    c.message =
        diagnostics.message.empty() ? "the plan failed" : diagnostics.message;
    return c;
  }
  c.resources = *planned;
  if (c.resources.threads > limits.threads) {
    c.status = CandidateStatus::Threads;
    c.message =
        ("needs " + Twine(c.resources.threads) +
         " threads per block, over the limit of " + Twine(limits.threads))
            .str();
  } else if (c.resources.sharedBytes > limits.sharedBytes) {
    c.status = CandidateStatus::SharedMemory;
    c.message = ("needs " + Twine(c.resources.sharedBytes) +
                 " bytes of shared memory, over the limit of " +
                 Twine(limits.sharedBytes))
                    .str();
  }
  return c;
}

void TuningSpace::enumerate(
    const TuningLimits &limits, ArrayRef<SmallVector<int64_t>> argShapes,
    function_ref<void(const TuningCandidate &)> fn) const {
  MLIRContext *ctx = generic.getContext();
  SmallVector<size_t> at(axes.size(), 0);
  for (int64_t i = 0, e = size(); i < e; ++i) {
    NamedAttrList config;
    for (auto [axis, k] : llvm::zip(axes, at))
      config.append(axis.name, axis.values[k]);
    fn(evaluate(config.getDictionary(ctx), limits, argShapes));
    // The next configuration: the last axis varies fastest.
    for (size_t d = axes.size(); d-- > 0;) {
      if (++at[d] < axes[d].values.size())
        break;
      at[d] = 0;
    }
  }
}
