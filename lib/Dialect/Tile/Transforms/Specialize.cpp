//===- Specialize.cpp - Bind the parameters of parametric kernels -------===//
//
// tile-specialize: every parametric tile.kernel and every tile.instance
// becomes a plain kernel, with `!tile.param` types, `#tile.param` sizes and
// tile.param values replaced by their bindings, the arithmetic on them
// folded and the `?` tile dimensions made static.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileParams.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILESPECIALIZE
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

/// Allocations sit in the kernel's body (alloc_c1) and their operands are
/// their `?` sizes: each takes its folded sizes, and with `eraseUnused`
/// tiles that only a folded-away variant used are removed.
static LogicalResult makeAllocationsStatic(KernelOp kernel, bool eraseUnused) {
  for (Operation &op : llvm::make_early_inc_range(kernel.getBodyBlock())) {
    if (!isa<AllocSharedOp, AllocFragmentOp>(op))
      continue;
    if (eraseUnused && op.use_empty()) {
      op.erase();
      continue;
    }
    auto type = cast<ShapedType>(op.getResult(0).getType());
    SmallVector<int64_t> shape(type.getShape());
    unsigned next = 0;
    for (int64_t &d : shape) {
      if (!ShapedType::isDynamic(d))
        continue;
      APInt v;
      if (!matchPattern(op.getOperand(next++), m_ConstantInt(&v)) ||
          v.getSExtValue() <= 0)
        return op.emitOpError("alloc_c3: size #")
               << next - 1 << " of " << type
               << " must fold to a positive constant once the parameters are "
                  "bound";
      d = v.getSExtValue();
    }
    op.getResult(0).setType(type.clone(shape));
    op.setOperands({});
  }
  return success();
}

/// Replaces every parameter of `kernel` (a fresh copy of a parametric
/// kernel) by its binding and makes the allocations static.
static LogicalResult substitute(KernelOp kernel, DictionaryAttr bound) {
  MLIRContext *ctx = kernel.getContext();
  expandShorthands(kernel);
  kernel->removeAttr(kernel.getParamsAttrName());
  kernel->removeAttr(kernel.getSpaceAttrName());
  kernel->removeAttr(kernel.getConstraintsAttrName());

  AttrTypeReplacer replacer;
  replacer.addReplacement([&](ParamType p) -> std::optional<Type> {
    return cast<TypeAttr>(bound.get(p.getName())).getValue();
  });
  replacer.addReplacement([&](ParamRefAttr r) -> std::optional<Attribute> {
    // A boolean (a flag such as warp_specialize) becomes 1 or 0.
    auto value = cast<IntegerAttr>(bound.get(r.getName()));
    int64_t v = value.getType().isInteger(1) ? value.getValue().getZExtValue()
                                             : value.getInt();
    return IntegerAttr::get(IntegerType::get(ctx, 64), v);
  });
  replacer.recursivelyReplaceElementsIn(kernel, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
  // The bound parameters of the contracts become integers of their sides.
  if (std::optional<ArrayAttr> contracts = kernel.getContracts()) {
    SmallVector<Attribute> folded;
    for (Attribute a : *contracts) {
      std::string why;
      ContractAttr contract = cast<ContractAttr>(a).foldIntegerOperands(why);
      if (!contract)
        return kernel.emitOpError("contract ")
               << folded.size() << " cannot be checked: " << why;
      folded.push_back(contract);
    }
    kernel.setContractsAttr(ArrayAttr::get(ctx, folded));
  }

  OpBuilder b(ctx);
  kernel.walk([&](ParamOp param) {
    auto value = cast<IntegerAttr>(bound.get(param.getName()));
    b.setInsertionPoint(param);
    Type type = param.getType();
    Attribute attr =
        type.isIndex() || type.isInteger(1)
            ? IntegerAttr::get(type, value.getValue().getSExtValue())
            : IntegerAttr::get(type, value.getInt());
    param.replaceAllUsesWith(
        arith::ConstantOp::create(b, param.getLoc(), cast<TypedAttr>(attr))
            .getResult());
    param.erase();
  });

  // Fold the sizes and flags: arithmetic, and branches on constants (a
  // variant's code disappears with its flag).
  RewritePatternSet patterns(ctx);
  Dialect *arith = ctx->getLoadedDialect<arith::ArithDialect>();
  arith->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    if (&op.getDialect() == arith)
      op.getCanonicalizationPatterns(patterns, ctx);
  scf::IfOp::getCanonicalizationPatterns(patterns, ctx);
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  if (failed(
          applyPatternsGreedily(kernel.getBody(), std::move(patterns), config)))
    return kernel.emitOpError("the folding of its parameters did not "
                              "converge");

  if (failed(makeAllocationsStatic(kernel, /*eraseUnused=*/true)))
    return failure();
  kernel->setAttr(kBindingsAttr, bound);
  return success();
}

/// Checks one type that specialisation produced, and the types inside it,
/// with the rules the parser applies to them.
static LogicalResult verifyType(Operation *op, Type type) {
  WalkResult walk = type.walk([&](Type inner) {
    auto emitError = [&] {
      return op->emitOpError("has type ") << type << ", which is invalid: ";
    };
    LogicalResult ok = success();
    if (auto s = dyn_cast<SharedType>(inner))
      ok = SharedType::verify(emitError, s.getShape(), s.getElementType());
    else if (auto f = dyn_cast<FragmentType>(inner))
      ok = FragmentType::verify(emitError, f.getShape(), f.getElementType());
    else if (auto m = dyn_cast<MemRefType>(inner))
      ok = MemRefType::verify(emitError, m.getShape(), m.getElementType(),
                              m.getLayout(), m.getMemorySpace());
    else if (auto v = dyn_cast<VectorType>(inner))
      ok = VectorType::verify(emitError, v.getShape(), v.getElementType(),
                              v.getScalableDims());
    return failed(ok) ? WalkResult::interrupt() : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Specialisation builds its types without running their verifiers
/// (AttrTypeReplacer, ShapedType::clone): a type parameter bound to `index`
/// or a size bound to 65536 gives a tile type that the parser would refuse,
/// and the passes after it assume the rules hold. So every type of the
/// produced kernel is checked here, at the op that holds it.
static LogicalResult verifyTypes(KernelOp kernel) {
  if (failed(checkValueTypes(kernel, verifyType)))
    return failure();
  WalkResult walk = kernel->walk([&](Operation *op) {
    return op->getAttrDictionary().walk([&](TypeAttr t) {
      return failed(verifyType(op, t.getValue())) ? WalkResult::interrupt()
                                                  : WalkResult::advance();
    });
  });
  return failure(walk.wasInterrupted());
}

FailureOr<KernelOp> tile::specializeKernel(KernelOp generic,
                                           DictionaryAttr bindings,
                                           StringRef name, Operation *origin) {
  OpBuilder b(origin);
  auto copy = cast<KernelOp>(b.clone(*generic));
  copy.setSymName(name);
  // Every error about the copy says which bindings produced it.
  BindingsNote note(generic.getContext(), origin->getLoc(), name, bindings);
  if (failed(substitute(copy, bindings)) || failed(verifyTypes(copy)) ||
      failed(verify(copy)))
    return failure();
  return copy;
}

namespace {
/// A kernel to produce: `generic` bound with `overrides`, named `name`;
/// diagnostics go to `origin` (the kernel or the instance).
struct Request {
  KernelOp generic;
  StringAttr name;
  DictionaryAttr overrides;
  Operation *origin;
};

struct SpecializePass : tile::impl::TileSpecializeBase<SpecializePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    expandShorthands(module);
    NamedAttrList binds;
    for (const std::string &text : bind) {
      std::string error;
      auto parsed = parseBindingText(text, ctx, error);
      if (failed(parsed)) {
        module.emitError("tile-specialize: ") << error;
        return signalPassFailure();
      }
      binds.set(parsed->first, parsed->second);
    }

    // A parametric kernel with instances is a template: its instances are
    // produced. One without is produced with its defaults, as is one that
    // `kernels` names.
    SmallVector<Request> requests;
    SmallVector<Operation *> toErase;
    SymbolTable symbols(module);
    llvm::SmallPtrSet<Operation *, 4> instantiated;
    for (auto instance : module.getOps<InstanceOp>())
      instantiated.insert(symbols.lookup(instance.getKernel()));
    for (Operation &op : *module.getBody()) {
      if (auto instance = dyn_cast<InstanceOp>(op)) {
        requests.push_back({symbols.lookup<KernelOp>(instance.getKernel()),
                            instance.getSymNameAttr(), instance.getBindings(),
                            instance});
        toErase.push_back(instance);
      } else if (auto kernel = dyn_cast<KernelOp>(op);
                 kernel && kernel.isParametric()) {
        if (!instantiated.contains(kernel) ||
            llvm::is_contained(kernels, kernel.getSymName()))
          requests.push_back({kernel, kernel.getSymNameAttr(),
                              DictionaryAttr::get(ctx), kernel});
        toErase.push_back(kernel);
      }
    }

    // The selection: requests and plain kernels by name.
    llvm::StringSet<> keep;
    for (const std::string &name : kernels)
      keep.insert(name);
    if (!keep.empty()) {
      for (const std::string &name : kernels)
        if (!llvm::any_of(requests,
                          [&](Request &r) { return r.name == name; }) &&
            !symbols.lookup<KernelOp>(name)) {
          module.emitError("tile-specialize: no kernel or instance named '")
              << name << "'";
          return signalPassFailure();
        }
      for (auto kernel : module.getOps<KernelOp>())
        if (!kernel.isParametric() && !keep.contains(kernel.getSymName()))
          toErase.push_back(kernel);
      llvm::erase_if(requests, [&](Request &r) {
        return !keep.contains(r.name.getValue());
      });
    }
    if (!binds.empty() && requests.empty()) {
      module.emitError("tile-specialize: bindings given, but no parametric "
                       "kernel or instance is kept");
      return signalPassFailure();
    }

    for (Request &r : requests) {
      if (!r.generic || !r.generic.isParametric()) {
        r.origin->emitOpError("instance_c1: '")
            << cast<InstanceOp>(r.origin).getKernel()
            << "' is not a parametric tile.kernel";
        return signalPassFailure();
      }
      NamedAttrList overrides(r.overrides);
      for (NamedAttribute b : binds)
        overrides.set(b.getName(), b.getValue());
      std::string error;
      FailureOr<DictionaryAttr> bound =
          resolveBindings(r.generic, overrides.getDictionary(ctx), error);
      if (failed(bound)) {
        r.origin->emitOpError("cannot be specialised as '")
            << r.name.getValue() << "': " << error;
        return signalPassFailure();
      }
      if (failed(
              specializeKernel(r.generic, *bound, r.name.getValue(), r.origin)))
        return signalPassFailure();
    }
    for (Operation *op : toErase)
      op->erase();
    // A plain kernel's tile sizes may be constants too: they become its
    // types' sizes, as a parametric kernel's do.
    for (auto kernel : module.getOps<KernelOp>())
      if (!kernel->hasAttr(kBindingsAttr) &&
          (failed(makeAllocationsStatic(kernel, /*eraseUnused=*/false)) ||
           failed(verify(kernel))))
        return signalPassFailure();
  }
};
} // namespace
