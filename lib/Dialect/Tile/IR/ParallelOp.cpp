//===- ParallelOp.cpp - Element-wise loops over fragments ----------------===//
//
// tile.parallel: its custom form (each operand's element named beside it,
// identity maps implied, the dimensions an input is read at) and its
// verifier. Each diagnostic starts with the label of the constraint it
// enforces (see TileOps.td).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"

#include "ParamSyntax.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// ParallelOp
//===----------------------------------------------------------------------===//

FailureOr<int64_t> ParallelOp::getBroadcastDim(unsigned i) {
  AffineMap map = cast<AffineMapAttr>(getIndexingMaps()[i]).getValue();
  if (map.isIdentity())
    return -1;
  if (map.getNumResults() + 1 != map.getNumDims())
    return failure();
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(map.getNumDims(), getContext());
  for (unsigned d = 0; d < map.getNumDims(); ++d) {
    SmallVector<unsigned> kept;
    for (unsigned e = 0; e < map.getNumDims(); ++e)
      if (e != d)
        kept.push_back(e);
    if (map == identity.getSubMap(kept))
      return (int64_t)d;
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// ParallelOp: custom form
//===----------------------------------------------------------------------===//

/// The iteration dimensions `map` reads, in order, when it is a projection
/// of the iteration space (`(i, j) -> (j)` reads [1]); none for another map.
static std::optional<SmallVector<int64_t>> readDims(AffineMap map) {
  SmallVector<int64_t> dims;
  for (AffineExpr e : map.getResults()) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d || (!dims.empty() && (int64_t)d.getPosition() <= dims.back()))
      return std::nullopt;
    dims.push_back(d.getPosition());
  }
  if (map.getNumSymbols() != 0)
    return std::nullopt;
  return dims;
}

namespace {
/// One `%elt = %tile[dims]` of the custom form, or `%tile` of the form
/// with a block header.
struct ParallelOperand {
  std::optional<OpAsmParser::Argument> element;
  OpAsmParser::UnresolvedOperand tile;
  std::optional<SmallVector<int64_t>> dims;
};
} // namespace

/// `(%x = %a, %b = %bias[1] : types)`, an outputs' list without dims.
static ParseResult parseParallelOperands(OpAsmParser &parser, bool allowDims,
                                         SmallVectorImpl<ParallelOperand> &out,
                                         SmallVectorImpl<Type> &types) {
  if (parser.parseLParen())
    return failure();
  auto parseOne = [&]() -> ParseResult {
    ParallelOperand o;
    OpAsmParser::UnresolvedOperand first;
    if (parser.parseOperand(first))
      return failure();
    if (succeeded(parser.parseOptionalEqual())) {
      o.element = OpAsmParser::Argument{first, Type(), {}, std::nullopt};
      if (parser.parseOperand(o.tile))
        return failure();
    } else {
      o.tile = first;
    }
    if (succeeded(parser.parseOptionalLSquare())) {
      SMLoc loc = parser.getCurrentLocation();
      if (!allowDims)
        return parser.emitError(loc, "an output is read and written at the "
                                     "iteration's index: it takes no "
                                     "dimensions");
      SmallVector<int64_t> dims;
      if (parser.parseCommaSeparatedList([&]() -> ParseResult {
            return parser.parseInteger(dims.emplace_back());
          }) ||
          parser.parseRSquare())
        return failure();
      o.dims = dims;
    }
    out.push_back(o);
    return success();
  };
  if (parser.parseCommaSeparatedList(parseOne))
    return failure();
  if (succeeded(parser.parseOptionalColon()))
    return failure(parser.parseTypeList(types) || parser.parseRParen());
  // Without types, those the tiles were declared with.
  types.resize(out.size());
  SmallVector<const OpAsmParser::UnresolvedOperand *> tiles;
  SmallVector<Type *> typePtrs;
  for (auto [o, t] : llvm::zip(out, types)) {
    tiles.push_back(&o.tile);
    typePtrs.push_back(&t);
  }
  SmallVector<StringRef> seps(out.size(), ",");
  return failure(parseOperandTypes(parser, tiles, seps, typePtrs, false) ||
                 parser.parseRParen());
}

ParseResult ParallelOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<ParallelOperand> ins, outs;
  SmallVector<Type> inTypes, outTypes;
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("ins")) &&
      parseParallelOperands(parser, /*allowDims=*/true, ins, inTypes))
    return failure();
  if (parser.parseKeyword("outs") ||
      parseParallelOperands(parser, /*allowDims=*/false, outs, outTypes))
    return failure();
  if (ins.size() != inTypes.size() || outs.size() != outTypes.size())
    return parser.emitError(loc, "expected one type per operand");
  for (Type t : llvm::concat<Type>(inTypes, outTypes)) {
    auto shaped = dyn_cast<ShapedType>(t);
    if (!shaped || !shaped.hasRank())
      return parser.emitError(loc, "tile.parallel's operands are tiles; got ")
             << t;
  }
  for (auto [o, t] : llvm::zip(ins, inTypes))
    if (parser.resolveOperand(o.tile, t, result.operands))
      return failure();
  for (auto [o, t] : llvm::zip(outs, outTypes))
    if (parser.resolveOperand(o.tile, t, result.operands))
      return failure();
  Builder &b = parser.getBuilder();
  result.addAttribute(
      getOperandSegmentSizesAttrName(result.name),
      b.getDenseI32ArrayAttr({(int32_t)ins.size(), (int32_t)outs.size()}));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  // The maps: given in full, or from the dimensions each input reads.
  bool anyDims = llvm::any_of(ins, [](auto &o) { return o.dims.has_value(); });
  StringAttr mapsName = getIndexingMapsAttrName(result.name);
  if (!result.attributes.get(mapsName)) {
    if (outTypes.empty())
      return parser.emitError(loc, "parallel_c1: at least one output tile is "
                                   "required");
    int64_t rank = cast<ShapedType>(outTypes.front()).getRank();
    SmallVector<Attribute> maps;
    for (auto [i, o] : llvm::enumerate(ins)) {
      int64_t operandRank = cast<ShapedType>(inTypes[i]).getRank();
      SmallVector<int64_t> dims =
          o.dims ? *o.dims : llvm::to_vector(llvm::seq<int64_t>(0, rank));
      if (!o.dims && operandRank != rank)
        return parser.emitError(loc, "parallel_c2: input #")
               << i << " has rank " << operandRank << " in a " << rank
               << "-d iteration space; give the dimensions it is read at "
               << "(`[1]` for (i, j) -> (j))";
      SmallVector<AffineExpr> exprs;
      for (int64_t d : dims) {
        if (d < 0 || d >= rank)
          return parser.emitError(loc, "parallel_c2: input #")
                 << i << " is read at dimension " << d << " of a " << rank
                 << "-d iteration space";
        exprs.push_back(b.getAffineDimExpr(d));
      }
      maps.push_back(
          AffineMapAttr::get(AffineMap::get(rank, 0, exprs, b.getContext())));
    }
    for (size_t i = 0; i < outs.size(); ++i)
      maps.push_back(AffineMapAttr::get(
          AffineMap::getMultiDimIdentityMap(rank, b.getContext())));
    result.addAttribute(mapsName, b.getArrayAttr(maps));
  } else if (anyDims) {
    return parser.emitError(loc, "give the indexing maps either as "
                                 "dimensions beside the inputs or as "
                                 "`indexing_maps`, not both");
  }

  // The body's arguments: named beside the operands, or by a block header.
  bool named =
      llvm::all_of(ins, [](auto &o) { return o.element.has_value(); }) &&
      llvm::all_of(outs, [](auto &o) { return o.element.has_value(); });
  bool unnamed =
      llvm::none_of(ins, [](auto &o) { return o.element.has_value(); }) &&
      llvm::none_of(outs, [](auto &o) { return o.element.has_value(); });
  if (!named && !unnamed)
    return parser.emitError(loc, "name the element of every operand "
                                 "(`%x = %tile`) or of none");
  SmallVector<OpAsmParser::Argument> args;
  if (named) {
    auto add = [&](ArrayRef<ParallelOperand> operands, ArrayRef<Type> types) {
      for (auto [o, t] : llvm::zip(operands, types)) {
        args.push_back(*o.element);
        args.back().type = cast<ShapedType>(t).getElementType();
      }
    };
    add(ins, inTypes);
    add(outs, outTypes);
  }
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  // A body that does not end with tile.yield yields its last op's results.
  if (!body->empty() && !body->front().empty() &&
      !isa<YieldOp>(body->front().back())) {
    Operation &last = body->front().back();
    OpBuilder builder(parser.getContext());
    builder.setInsertionPointToEnd(&body->front());
    YieldOp::create(builder, last.getLoc(), ValueRange(last.getResults()));
  }
  ParallelOp::ensureTerminator(*body, b, result.location);
  return success();
}

void ParallelOp::print(OpAsmPrinter &p) {
  Block &body = getBody().front();
  SmallVector<std::optional<SmallVector<int64_t>>> dims;
  bool compact = body.getNumArguments() == getNumOperands();
  for (auto [i, a] : llvm::enumerate(getIndexingMaps())) {
    AffineMap map = cast<AffineMapAttr>(a).getValue();
    std::optional<SmallVector<int64_t>> d = readDims(map);
    compact &= d.has_value() && (i < getInputs().size() || map.isIdentity());
    dims.push_back(d);
  }
  auto printList = [&](StringRef keyword, ValueRange tiles, unsigned first) {
    p << keyword << '(';
    llvm::interleaveComma(llvm::enumerate(tiles), p, [&](auto it) {
      unsigned i = first + it.index();
      if (compact) {
        p.printOperand(body.getArgument(i));
        p << " = ";
      }
      p.printOperand(it.value());
      AffineMap map = cast<AffineMapAttr>(getIndexingMaps()[i]).getValue();
      if (compact && !map.isIdentity()) {
        p << '[';
        llvm::interleaveComma(*dims[i], p);
        p << ']';
      }
    });
    p << " : ";
    llvm::interleaveComma(tiles.getTypes(), p);
    p << ')';
  };
  if (!getInputs().empty()) {
    p << ' ';
    printList("ins", getInputs(), 0);
  }
  p << ' ';
  printList("outs", getOutputs(), getInputs().size());
  SmallVector<StringRef> elided{getOperandSegmentSizesAttrName()};
  if (compact)
    elided.push_back(getIndexingMapsAttrName());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), elided);
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/!compact,
                /*printBlockTerminators=*/true);
}

LogicalResult ParallelOp::verify() {
  if (getOutputs().empty())
    return emitOpError("parallel_c1: at least one output tile is required");
  auto space = cast<ShapedType>(getOutputs()[0].getType()).getShape();
  for (Value out : getOutputs())
    if (failed(verifyCompatibleShape(cast<ShapedType>(out.getType()).getShape(),
                                     space)))
      return emitOpError("parallel_c1: all outputs must have the shape of "
                         "the first, ")
             << getOutputs()[0].getType() << "; got " << out.getType();
  SmallVector<Value> operands(getInputs());
  llvm::append_range(operands, getOutputs());
  SmallVector<AffineMap> maps;
  for (Attribute a : getIndexingMaps())
    maps.push_back(cast<AffineMapAttr>(a).getValue());
  if (maps.size() != operands.size())
    return emitOpError("parallel_c2: expected ")
           << operands.size() << " indexing maps (one per operand), got "
           << maps.size();
  for (auto [i, map, v] : llvm::enumerate(maps, operands)) {
    auto shaped = cast<ShapedType>(v.getType());
    if (map.getNumDims() != space.size() || map.getNumSymbols() != 0 ||
        map.getNumResults() != shaped.getRank())
      return emitOpError("parallel_c2: indexing map #")
             << i << " must map the " << space.size()
             << "-d iteration space to the " << shaped.getRank()
             << " indices of its operand, got " << AffineMapAttr::get(map);
    if (i >= getInputs().size() && !map.isIdentity())
      return emitOpError("parallel_c2: the map of output #")
             << (i - getInputs().size()) << " must be the identity, got "
             << AffineMapAttr::get(map);
    // An input read at iteration dimension d has the space's size there.
    for (auto [j, result] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(result);
      if (!dim)
        continue;
      int64_t want = space[dim.getPosition()], got = shaped.getDimSize(j);
      if (!ShapedType::isDynamic(want) && !ShapedType::isDynamic(got) &&
          want != got)
        return emitOpError("parallel_c2: input #")
               << i << " has " << got << " elements along its dimension " << j
               << ", read at dimension " << dim.getPosition()
               << " of the iteration space, which has " << want
               << "; give both the same size";
    }
  }
  Block &body = getBody().front();
  if (body.getNumArguments() != operands.size())
    return emitOpError("parallel_c3: the body takes ")
           << operands.size()
           << " element arguments (inputs then outputs), got "
           << body.getNumArguments();
  for (auto [i, v] : llvm::enumerate(operands)) {
    Type elt = cast<ShapedType>(v.getType()).getElementType();
    if (body.getArgument(i).getType() != elt)
      return emitOpError("parallel_c3: body argument #")
             << i << " must have the element type " << elt;
  }
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != getOutputs().size())
    return emitOpError("parallel_c3: the body must yield ")
           << getOutputs().size() << " values (one per output), got "
           << yield.getValues().size();
  for (auto [i, v] : llvm::enumerate(yield.getValues())) {
    Type elt = cast<ShapedType>(getOutputs()[i].getType()).getElementType();
    if (v.getType() != elt)
      return emitOpError("parallel_c3: yielded value #")
             << i << " has type " << v.getType() << ", expected " << elt;
  }
  return success();
}
