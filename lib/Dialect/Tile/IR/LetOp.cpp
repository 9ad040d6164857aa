//===- LetOp.cpp - tile.let: integer values from parameters and sizes ----===//
//
// The custom form, `%a, %b = tile.let e1, e2 : i32, index`, and the
// verifier. Each value is held as affine maps over the op's leaves (its
// `leaves` attribute, one per symbol): `[k]` is operand k (an index
// value), `[k, d]` dimension d of memref operand k, a #tile.param a
// parameter (an integer once specialised), "x"/"y"/"z" a block id. A value
// is `[map]` (several results: their minimum), `[flag, map, map]`, or
// `[float]` (a float literal).
//
//===----------------------------------------------------------------------===//

#include "ParamSyntax.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileParams.h"

#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Collects the leaves and operands of one tile.let while it is parsed.
struct LetParser {
  OpAsmParser &parser;
  SmallVector<Attribute> leaves;
  SmallVector<std::pair<OpAsmParser::UnresolvedOperand, Type>> operands;

  MLIRContext *ctx() { return parser.getContext(); }

  AffineExpr symbolFor(Attribute leaf) {
    auto it = llvm::find(leaves, leaf);
    if (it == leaves.end()) {
      leaves.push_back(leaf);
      it = leaves.end() - 1;
    }
    return getAffineSymbolExpr(it - leaves.begin(), ctx());
  }

  int64_t operandFor(const OpAsmParser::UnresolvedOperand &operand, Type type) {
    auto it = llvm::find_if(operands, [&](auto &o) {
      return o.first.name == operand.name && o.first.number == operand.number;
    });
    if (it == operands.end()) {
      operands.push_back({operand, type});
      it = operands.end() - 1;
    }
    return it - operands.begin();
  }

  ParseResult parseLeaf(AffineExpr &expr) {
    SMLoc loc = parser.getCurrentLocation();
    OpAsmParser::UnresolvedOperand operand;
    OptionalParseResult isOperand = parser.parseOptionalOperand(operand);
    if (isOperand.has_value()) {
      if (failed(*isOperand))
        return failure();
      if (failed(parser.parseOptionalLSquare())) {
        int64_t k = operandFor(operand, parser.getBuilder().getIndexType());
        expr = symbolFor(DenseI64ArrayAttr::get(ctx(), {k}));
        return success();
      }
      int64_t dim;
      if (parser.parseInteger(dim) || parser.parseRSquare())
        return failure();
      std::optional<Type> type = lookupKernelArgType(operand);
      if (!type)
        return parser.emitError(loc, "let_c3: '")
               << operand.name << "' is not an argument of the enclosing "
               << "tile.kernel: `%X[d]` reads a dimension of one";
      int64_t k = operandFor(operand, *type);
      expr = symbolFor(DenseI64ArrayAttr::get(ctx(), {k, dim}));
      return success();
    }
    StringRef name;
    if (failed(parser.parseOptionalKeyword(&name)))
      return parser.emitError(loc, "expected an integer, a parameter, "
                                   "block_id.x/y/z, %value or %ARG[DIM]");
    StringRef dim = llvm::StringSwitch<StringRef>(name)
                        .Case("block_id.x", "x")
                        .Case("block_id.y", "y")
                        .Case("block_id.z", "z")
                        .Default("");
    if (!dim.empty()) {
      expr = symbolFor(StringAttr::get(ctx(), dim));
      return success();
    }
    if (!isValidParamName(name))
      return parser.emitError(loc, "'") << name << "' is not a parameter name";
    expr = symbolFor(ParamRefAttr::get(ctx(), name));
    return success();
  }

  ParseResult parseExpr(AffineExpr &expr) {
    return parseIntExpr(
        parser, [&](AffineExpr &e) { return parseLeaf(e); }, expr);
  }

  /// `e` or `min(e, e, ...)`.
  ParseResult parseAlternative(AffineMap &map) {
    SmallVector<AffineExpr> exprs;
    if (succeeded(parser.parseOptionalKeyword("min"))) {
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Paren, [&]() {
            return parseExpr(exprs.emplace_back());
          }))
        return failure();
    } else if (parseExpr(exprs.emplace_back())) {
      return failure();
    }
    map = AffineMap::get(0, 0, exprs, ctx());
    return success();
  }

  /// A float literal, `1.5`, `-inf` or `nan` (typed once the result types
  /// are known), if one comes next.
  OptionalParseResult parseOptionalFloat(SmallVectorImpl<Attribute> &values) {
    StringRef text(parser.getCurrentLocation().getPointer());
    StringRef unsigned_ = text.drop_while([](char c) { return c == '-'; });
    bool word = unsigned_.starts_with("inf") || unsigned_.starts_with("nan");
    StringRef digits = unsigned_.drop_while(llvm::isDigit);
    bool decimal = digits.size() < unsigned_.size() &&
                   (digits.starts_with(".") || digits.starts_with("e") ||
                    digits.starts_with("E"));
    if (!word && !decimal)
      return std::nullopt;
    bool negative = succeeded(parser.parseOptionalMinus());
    APFloat v(0.0);
    if (word) {
      StringRef name;
      if (parser.parseKeyword(&name))
        return failure();
      v = name == "inf" ? APFloat::getInf(APFloat::IEEEdouble(), negative)
                        : APFloat::getQNaN(APFloat::IEEEdouble(), negative);
    } else {
      double d;
      if (parser.parseFloat(d))
        return failure();
      v = APFloat(negative ? -d : d);
    }
    values.push_back(
        ArrayAttr::get(ctx(), {FloatAttr::get(Float64Type::get(ctx()), v)}));
    return success();
  }

  /// An alternative, or `FLAG ? alternative : alternative`.
  ParseResult parseValue(SmallVectorImpl<Attribute> &values) {
    OptionalParseResult isFloat = parseOptionalFloat(values);
    if (isFloat.has_value())
      return *isFloat;
    SMLoc loc = parser.getCurrentLocation();
    AffineMap first;
    size_t numLeaves = leaves.size();
    if (parseAlternative(first))
      return failure();
    if (failed(parser.parseOptionalQuestion())) {
      values.push_back(ArrayAttr::get(ctx(), {AffineMapAttr::get(first)}));
      return success();
    }
    ParamRefAttr flag;
    if (first.getNumResults() == 1)
      if (auto sym = dyn_cast<AffineSymbolExpr>(first.getResult(0)))
        flag = dyn_cast<ParamRefAttr>(leaves[sym.getPosition()]);
    if (!flag)
      return parser.emitError(loc, "let_c2: the condition of `?` is a "
                                   "boolean parameter");
    // The flag is no leaf of the maps.
    if (leaves.size() > numLeaves)
      leaves.pop_back();
    AffineMap then, otherwise;
    if (parseAlternative(then) || parser.parseColon() ||
        parseAlternative(otherwise))
      return failure();
    values.push_back(ArrayAttr::get(ctx(), {flag, AffineMapAttr::get(then),
                                            AffineMapAttr::get(otherwise)}));
    return success();
  }
};
} // namespace

/// Gives every map of `values` the final number of symbols.
static Attribute withSymbols(Attribute value, unsigned numSymbols) {
  auto list = cast<ArrayAttr>(value);
  SmallVector<Attribute> out;
  for (Attribute a : list) {
    auto map = dyn_cast<AffineMapAttr>(a);
    out.push_back(
        map ? AffineMapAttr::get(AffineMap::get(
                  0, numSymbols, map.getValue().getResults(), a.getContext()))
            : a);
  }
  return ArrayAttr::get(value.getContext(), out);
}

ParseResult LetOp::parse(OpAsmParser &parser, OperationState &result) {
  LetParser let{parser, {}, {}};
  SmallVector<Attribute> values;
  SmallVector<SMLoc> valueLocs;
  if (parser.parseCommaSeparatedList([&]() {
        valueLocs.push_back(parser.getCurrentLocation());
        return let.parseValue(values);
      }))
    return failure();
  SmallVector<Type> types;
  SMLoc typesLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalColon())) {
    if (parser.parseTypeList(types))
      return failure();
    if (types.size() != values.size())
      return parser.emitError(typesLoc, "let_c1: ")
             << values.size() << " values, " << types.size() << " types";
  } else {
    types.assign(values.size(), parser.getBuilder().getIndexType());
  }
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  for (auto &[operand, type] : let.operands)
    if (parser.resolveOperand(operand, type, result.operands))
      return failure();
  for (auto [v, type, loc] : llvm::zip(values, types, valueLocs)) {
    v = withSymbols(v, let.leaves.size());
    // A float literal takes its result's type.
    auto literal = dyn_cast<FloatAttr>(cast<ArrayAttr>(v)[0]);
    if (!literal)
      continue;
    auto floatType = dyn_cast<FloatType>(type);
    if (!floatType)
      return parser.emitError(loc, "let_c1: a float literal needs a "
                                   "float type (`: f32`), got ")
             << type;
    APFloat f = literal.getValue();
    bool lost;
    f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &lost);
    v = ArrayAttr::get(parser.getContext(), {FloatAttr::get(type, f)});
  }
  result.addAttribute(getLeavesAttrName(result.name),
                      ArrayAttr::get(parser.getContext(), let.leaves));
  result.addAttribute(getValuesAttrName(result.name),
                      ArrayAttr::get(parser.getContext(), values));
  result.addTypes(types);
  return success();
}

void LetOp::print(OpAsmPrinter &p) {
  auto leaf = [&](raw_ostream &os, unsigned i) {
    Attribute a = getLeaves()[i];
    if (auto ref = dyn_cast<DenseI64ArrayAttr>(a)) {
      p.printOperand(getOperands()[ref[0]]);
      if (ref.size() == 2)
        os << '[' << ref[1] << ']';
    } else if (auto dim = dyn_cast<StringAttr>(a)) {
      os << "block_id." << dim.getValue();
    } else if (auto param = dyn_cast<ParamRefAttr>(a)) {
      os << param.getName();
    } else {
      os << cast<IntegerAttr>(a).getInt();
    }
  };
  auto alternative = [&](Attribute a) {
    if (auto f = dyn_cast<FloatAttr>(a)) {
      APFloat v = f.getValue();
      if (v.isInfinity() || v.isNaN())
        p << (v.isNegative() ? "-" : "") << (v.isNaN() ? "nan" : "inf");
      else
        p.printFloat(v);
      return;
    }
    AffineMap map = cast<AffineMapAttr>(a).getValue();
    if (map.getNumResults() > 1)
      p << "min(";
    llvm::interleaveComma(map.getResults(), p, [&](AffineExpr e) {
      printIntExpr(p.getStream(), e, leaf);
    });
    if (map.getNumResults() > 1)
      p << ')';
  };
  p << ' ';
  llvm::interleaveComma(getValues(), p, [&](Attribute v) {
    auto parts = cast<ArrayAttr>(v);
    if (parts.size() == 1)
      return alternative(parts[0]);
    if (auto flag = dyn_cast<ParamRefAttr>(parts[0]))
      p << flag.getName();
    else
      p << cast<IntegerAttr>(parts[0]).getInt();
    p << " ? ";
    alternative(parts[1]);
    p << " : ";
    alternative(parts[2]);
  });
  if (llvm::any_of(getResultTypes(), [](Type t) { return !t.isIndex(); })) {
    p << " : ";
    llvm::interleaveComma(getResultTypes(), p);
  }
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getLeavesAttrName(), getValuesAttrName()});
}

/// let_c2: `name` is a parameter of the enclosing kernel, a boolean one
/// when `flag`.
static LogicalResult verifyParam(LetOp op, StringRef name, bool flag) {
  IntegerAttr decl = getEnclosingIntegerParam(op, name);
  if (!decl)
    return op.emitOpError("let_c2: '")
           << name << "' is not an integer parameter of the enclosing kernel";
  if (flag != decl.getType().isInteger(1))
    return op.emitOpError("let_c2: '")
           << name << "' is " << (flag ? "not " : "") << "a boolean "
           << "parameter: "
           << (flag ? "a condition needs one"
                    : "it is a "
                      "condition (`FLAG ? a : b`), not a size");
  return success();
}

LogicalResult LetOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel)
    return emitOpError("is used inside a tile.kernel");
  if (getValues().size() != getNumResults())
    return emitOpError("let_c1: ") << getValues().size() << " values for "
                                   << getNumResults() << " results";
  unsigned numLeaves = getLeaves().size();
  for (Attribute a : getLeaves()) {
    if (auto ref = dyn_cast<DenseI64ArrayAttr>(a)) {
      if (ref.empty() || ref.size() > 2 || ref[0] < 0 ||
          ref[0] >= (int64_t)getNumOperands())
        return emitOpError("let_c3: leaf ") << a << " names no operand";
      Type type = getOperands()[ref[0]].getType();
      if (ref.size() == 1 && !type.isIndex())
        return emitOpError("let_c3: operand #")
               << ref[0] << " is read as an index, but is " << type;
      auto memref = dyn_cast<MemRefType>(type);
      if (ref.size() == 2 &&
          (!memref || ref[1] < 0 || ref[1] >= memref.getRank()))
        return emitOpError("let_c3: ")
               << type << " has no dimension " << ref[1];
    } else if (auto param = dyn_cast<ParamRefAttr>(a)) {
      if (failed(verifyParam(*this, param.getName(), /*flag=*/false)))
        return failure();
    } else if (auto dim = dyn_cast<StringAttr>(a)) {
      std::optional<Dim> d = symbolizeDim(dim.getValue());
      if (!d)
        return emitOpError("let_c3: unknown block id '") << dim << "'";
      if (static_cast<unsigned>(*d) >= kernel.getNumGridDims())
        return emitOpError("let_c3: block_id.")
               << dim.getValue() << " is outside the kernel's "
               << kernel.getNumGridDims() << "-d grid";
    } else if (!isa<IntegerAttr>(a)) {
      return emitOpError("let_c3: unknown leaf ") << a;
    }
  }
  for (auto [v, type] : llvm::zip(getValues(), getResultTypes())) {
    auto parts = dyn_cast<ArrayAttr>(v);
    if (!parts || (parts.size() != 1 && parts.size() != 3))
      return emitOpError("let_c1: a value is [map], [flag, map, map] or "
                         "[float], got ")
             << v;
    if (auto f = dyn_cast<FloatAttr>(parts[0])) {
      if (f.getType() != type)
        return emitOpError("let_c1: the literal ")
               << f << " must have its result's type " << type;
      continue;
    }
    if (!type.isIntOrIndex())
      return emitOpError("let_c1: an integer expression has an integer or "
                         "index result, got ")
             << type;
    for (Attribute m : parts.getValue().drop_front(parts.size() == 3)) {
      auto map = dyn_cast<AffineMapAttr>(m);
      if (!map || map.getValue().getNumDims() != 0 ||
          map.getValue().getNumSymbols() != numLeaves ||
          map.getValue().getNumResults() == 0)
        return emitOpError("let_c1: expected a map of ")
               << numLeaves << " symbols, got " << m;
    }
    if (parts.size() == 3) {
      if (auto flag = dyn_cast<ParamRefAttr>(parts[0])) {
        if (failed(verifyParam(*this, flag.getName(), /*flag=*/true)))
          return failure();
      } else if (!isa<IntegerAttr>(parts[0])) {
        return emitOpError("let_c2: a condition is a boolean parameter, "
                           "got ")
               << parts[0];
      }
    }
  }
  return success();
}
