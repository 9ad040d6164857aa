//===- TileParams.cpp - Parameters of parametric kernels ----------------===//
//
// The constraint language of `where` (integer expressions over parameter
// names, stored as one-constraint IntegerSets), binding checks, and the
// verifiers of tile.param and tile.instance.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileParams.h"
#include "ParamSyntax.h"
#include "tile/Dialect/Tile/IR/IntExpr.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tile;

bool tile::isValidParamName(StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  if (isIntExprKeyword(name))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

SmallVector<StringRef> tile::getIntegerParams(KernelOp kernel) {
  SmallVector<StringRef> names;
  if (std::optional<DictionaryAttr> params = kernel.getParams())
    for (NamedAttribute p : *params)
      if (isa<IntegerAttr>(p.getValue()))
        names.push_back(p.getName().getValue());
  return names;
}

//===----------------------------------------------------------------------===//
// Sizes
//===----------------------------------------------------------------------===//

ParseResult tile::parseSize(AsmParser &parser, Attribute &size) {
  int64_t value;
  OptionalParseResult isInt = parser.parseOptionalInteger(value);
  if (isInt.has_value()) {
    if (failed(*isInt))
      return failure();
    size = parser.getBuilder().getI64IntegerAttr(value);
    return success();
  }
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  size = ParamRefAttr::get(parser.getContext(), name);
  return success();
}

void tile::printSize(AsmPrinter &printer, Attribute size) {
  if (auto ref = dyn_cast<ParamRefAttr>(size))
    printer << ref.getName();
  else
    printer << cast<IntegerAttr>(size).getInt();
}

//===----------------------------------------------------------------------===//
// Constraints: one comparison of integer expressions over parameter names
// (IntExpr.cpp), stored as `e == 0` or `e >= 0`.
//===----------------------------------------------------------------------===//

ParseResult tile::parseConstraints(AsmParser &parser, ArrayRef<StringRef> names,
                                   SmallVectorImpl<Attribute> &sets) {
  auto leaf = [&](AffineExpr &expr) -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef name;
    if (parser.parseKeyword(&name))
      return failure();
    const StringRef *it = llvm::find(names, name);
    if (it == names.end())
      return parser.emitError(loc, "kernel_c6: '")
             << name << "' is not an integer parameter of the kernel";
    expr = getAffineSymbolExpr(it - names.begin(), parser.getContext());
    return success();
  };
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        AffineExpr lhs, rhs;
        Relation rel;
        SMLoc loc = parser.getCurrentLocation();
        if (parseIntExpr(parser, leaf, lhs) || parseRelation(parser, rel) ||
            parseIntExpr(parser, leaf, rhs))
          return failure();
        // Stored as one side minus the other (minus 1 for < and >).
        if (rel == Relation::Le || rel == Relation::Lt)
          std::swap(lhs, rhs);
        MLIRContext *ctx = parser.getContext();
        std::string why;
        AffineExpr expr = combineIntExprs(
            AffineExprKind::Add, lhs,
            combineIntExprs(AffineExprKind::Mul, rhs,
                            getAffineConstantExpr(-1, ctx), why),
            why);
        if (expr && (rel == Relation::Lt || rel == Relation::Gt))
          expr = combineIntExprs(AffineExprKind::Add, expr,
                                 getAffineConstantExpr(-1, ctx), why);
        if (!expr)
          return parser.emitError(loc, "kernel_c6: the constraint: ") << why;
        sets.push_back(IntegerSetAttr::get(
            IntegerSet::get(0, names.size(), {expr}, {rel == Relation::Eq})));
        return success();
      });
}

void tile::printConstraint(raw_ostream &os, IntegerSet set,
                           ArrayRef<StringRef> names) {
  printIntExpr(os, set.getConstraint(0),
               [&](raw_ostream &os, unsigned i) { os << names[i]; });
  os << (set.isEq(0) ? " == 0" : " >= 0");
}

void tile::printConstraints(AsmPrinter &printer, ArrayAttr sets,
                            ArrayRef<StringRef> names) {
  printer << '[';
  llvm::interleaveComma(sets, printer.getStream(), [&](Attribute a) {
    printConstraint(printer.getStream(), cast<IntegerSetAttr>(a).getValue(),
                    names);
  });
  printer << ']';
}

std::optional<bool> tile::evaluateConstraint(IntegerSet set,
                                             ArrayRef<int64_t> values) {
  std::optional<int64_t> v = evaluateIntExpr(set.getConstraint(0), values);
  if (!v)
    return std::nullopt;
  return set.isEq(0) ? *v == 0 : *v >= 0;
}

//===----------------------------------------------------------------------===//
// Bindings
//===----------------------------------------------------------------------===//

int64_t tile::getParamInteger(IntegerAttr value) {
  APInt v = value.getValue();
  return v.getBitWidth() == 1 ? (int64_t)v.getZExtValue() : v.getSExtValue();
}

static std::string describe(Attribute value) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto t = dyn_cast<TypeAttr>(value))
    os << t.getValue();
  else if (auto i = dyn_cast<IntegerAttr>(value))
    i.getType().isInteger(1)
        ? os << (i.getValue().getBoolValue() ? "true" : "false")
        : os << i.getInt();
  else
    os << value;
  return s;
}

/// Integer values compare by value (an i64 default and an index binding of
/// the same number are the same binding), types by identity.
static bool sameValue(Attribute a, Attribute b) {
  auto ia = dyn_cast<IntegerAttr>(a), ib = dyn_cast<IntegerAttr>(b);
  if (ia && ib)
    return ia.getType().isInteger(1) == ib.getType().isInteger(1) &&
           ia.getValue().getSExtValue() == ib.getValue().getSExtValue();
  return a == b;
}

std::optional<std::string> tile::checkTypeParamValue(StringRef name,
                                                     Attribute value) {
  auto type = dyn_cast<TypeAttr>(value);
  if (!type || type.getValue().isIntOrFloat())
    return std::nullopt;
  return ("type parameter '" + name +
          "' takes an integer or float element type, got " + describe(value))
      .str();
}

std::optional<std::string> tile::checkBinding(KernelOp kernel, StringRef name,
                                              Attribute value) {
  std::optional<DictionaryAttr> params = kernel.getParams();
  Attribute decl = params ? params->get(name) : Attribute();
  if (!decl)
    return ("kernel '" + kernel.getSymName() + "' has no parameter '" + name +
            "'")
        .str();
  auto declInt = dyn_cast<IntegerAttr>(decl);
  bool declBool = declInt && declInt.getType().isInteger(1);
  auto valueInt = dyn_cast<IntegerAttr>(value);
  bool kindOk = declInt
                    ? valueInt && valueInt.getType().isInteger(1) == declBool
                    : isa<TypeAttr>(value);
  if (!kindOk)
    return ("parameter '" + name + "' takes " +
            (declBool  ? "true or false"
             : declInt ? "an integer"
                       : "a type") +
            ", got " + describe(value))
        .str();
  if (std::optional<std::string> why = checkTypeParamValue(name, value))
    return why;
  std::optional<DictionaryAttr> space = kernel.getSpace();
  auto candidates =
      space ? dyn_cast_or_null<ArrayAttr>(space->get(name)) : ArrayAttr();
  if (candidates && !llvm::any_of(candidates, [&](Attribute c) {
        return sameValue(c, value);
      })) {
    std::string list;
    llvm::interleave(
        candidates, [&](Attribute c) { list += describe(c); },
        [&] { list += ", "; });
    return ("parameter '" + name + "' = " + describe(value) +
            " is not among its candidates [" + list + "]")
        .str();
  }
  return std::nullopt;
}

FailureOr<DictionaryAttr> tile::resolveBindings(KernelOp kernel,
                                                DictionaryAttr overrides,
                                                std::string &error) {
  std::optional<DictionaryAttr> params = kernel.getParams();
  if (!params) {
    error = ("kernel '" + kernel.getSymName() + "' has no parameters").str();
    return failure();
  }
  NamedAttrList bound(*params);
  for (NamedAttribute o : overrides) {
    if (std::optional<std::string> why =
            checkBinding(kernel, o.getName(), o.getValue())) {
      error = *why;
      return failure();
    }
    bound.set(o.getName(), o.getValue());
  }
  DictionaryAttr result = bound.getDictionary(kernel.getContext());
  SmallVector<StringRef> names = getIntegerParams(kernel);
  SmallVector<int64_t> values;
  for (StringRef n : names)
    values.push_back(getParamInteger(cast<IntegerAttr>(result.get(n))));
  if (std::optional<ArrayAttr> sets = kernel.getConstraints()) {
    for (Attribute a : *sets) {
      IntegerSet set = cast<IntegerSetAttr>(a).getValue();
      std::optional<bool> holds = evaluateConstraint(set, values);
      if (holds && *holds)
        continue;
      llvm::raw_string_ostream os(error);
      os << "constraint '";
      printConstraint(os, set, names);
      os << "' " << (holds ? "does not hold" : "cannot be evaluated") << " for";
      // Name the parameters the constraint reads, with their values.
      for (auto [i, n] : llvm::enumerate(names))
        if (set.getConstraint(0).isFunctionOfSymbol(i))
          os << ' ' << n << " = " << values[i];
      return failure();
    }
  }
  return result;
}

std::string tile::describeBindings(DictionaryAttr bindings) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(bindings, os, [&](NamedAttribute b) {
    os << b.getName().getValue() << " = ";
    if (auto t = dyn_cast<TypeAttr>(b.getValue()))
      os << t.getValue();
    else if (auto i = cast<IntegerAttr>(b.getValue()); i.getType().isInteger(1))
      os << (i.getValue().getBoolValue() ? "true" : "false");
    else
      os << i.getInt();
  });
  return s;
}

BindingsNote::BindingsNote(MLIRContext *ctx, Location loc, StringRef name,
                           DictionaryAttr bindings)
    : ScopedDiagnosticHandler(ctx) {
  if (!bindings)
    return;
  std::string text =
      ("in '" + name + "', specialised with " + describeBindings(bindings))
          .str();
  setHandler([loc, text](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      diag.attachNote(loc) << text;
    return failure(); // the diagnostic goes on to the next handler
  });
}

BindingsNote::BindingsNote(KernelOp kernel)
    : BindingsNote(kernel.getContext(), kernel.getLoc(), kernel.getSymName(),
                   kernel->getAttrOfType<DictionaryAttr>(kBindingsAttr)) {}

FailureOr<std::pair<std::string, Attribute>>
tile::parseBindingText(StringRef text, MLIRContext *ctx, std::string &error) {
  auto [name, value] = text.split('=');
  name = name.trim();
  value = value.trim();
  if (!text.contains('=') || name.empty() || value.empty()) {
    error = ("a binding is NAME=VALUE, got '" + text + "'").str();
    return failure();
  }
  Builder b(ctx);
  int64_t i;
  if (!value.getAsInteger(10, i))
    return std::make_pair(name.str(), Attribute(b.getI64IntegerAttr(i)));
  if (value == "true" || value == "false")
    return std::make_pair(name.str(),
                          Attribute(b.getBoolAttr(value == "true")));
  // A value that is no type is refused below, naming the binding: the
  // type parser's own message ("expected non-function type", at a
  // location in the value's text) would only mislead.
  size_t read = 0;
  Type type;
  {
    ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
    type = parseType(value, ctx, &read, /*isKnownNullTerminated=*/false);
  }
  if (!type || read != value.size()) {
    error = ("the value of '" + name +
             "' must be an integer, true, false or "
             "a type, got '" +
             value + "'")
                .str();
    return failure();
  }
  return std::make_pair(name.str(), Attribute(TypeAttr::get(type)));
}

//===----------------------------------------------------------------------===//
// ParamOp, InstanceOp
//===----------------------------------------------------------------------===//

IntegerAttr tile::getEnclosingIntegerParam(Operation *op, StringRef name) {
  auto kernel = op->getParentOfType<KernelOp>();
  std::optional<DictionaryAttr> params =
      kernel ? kernel.getParams() : std::nullopt;
  return params ? dyn_cast_or_null<IntegerAttr>(params->get(name))
                : IntegerAttr();
}

LogicalResult ParamOp::verify() {
  IntegerAttr decl = getEnclosingIntegerParam(*this, getName());
  if (!decl)
    return emitOpError("param_c1: '")
           << getName() << "' is not an integer parameter of the enclosing "
           << "kernel";
  bool isBool = decl.getType().isInteger(1);
  if (isBool != getType().isInteger(1))
    return emitOpError("param_c1: '")
           << getName() << "' is " << (isBool ? "a boolean" : "an integer")
           << " parameter, read it as "
           << (isBool ? "i1" : "index or an integer");
  return success();
}

LogicalResult InstanceOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  if (std::optional<std::string> why = checkKernelName(getSymName()))
    return emitOpError("instance_c1: ") << *why;
  auto kernel =
      symbolTable.lookupNearestSymbolFrom<KernelOp>(*this, getKernelAttr());
  if (!kernel || !kernel.isParametric())
    return emitOpError("instance_c1: '")
           << getKernel() << "' is not a parametric tile.kernel";
  std::string error;
  if (failed(resolveBindings(kernel, getBindings(), error)))
    return emitOpError("instance_c2: ") << error;
  return success();
}

LogicalResult tile::verifyFlagParam(Operation *op, Attribute flag) {
  auto ref = dyn_cast_if_present<ParamRefAttr>(flag);
  if (!ref)
    return success();
  IntegerAttr decl = getEnclosingIntegerParam(op, ref.getName());
  if (decl && !decl.getType().isInteger(1))
    return op->emitOpError("the flag '")
           << ref.getName() << "' is an integer parameter; a flag is a "
           << "boolean one";
  return success();
}
