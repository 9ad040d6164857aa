//===- TileOps.cpp - Operations of the tile dialect ---------------------===//
//
// Parsers, printers and verifiers. Each diagnostic starts with the label of
// the constraint it enforces (see TileOps.td) and says what would be valid.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "ParamSyntax.h"
#include "tile/Dialect/Tile/IR/TileHardware.h"
#include "tile/Dialect/Tile/IR/TileParams.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileEnums.cpp.inc"

bool tile::holdsTileOps(Operation *op) {
  for (Region &region : op->getRegions()) {
    WalkResult walk = region.walk([](Operation *inner) {
      return isa_and_present<TileDialect>(inner->getDialect())
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return true;
  }
  return false;
}

bool tile::usedWithin(Value v, Operation *scope, Operation *except) {
  return llvm::any_of(v.getUsers(), [&](Operation *user) {
    return user != except && scope->isAncestor(user);
  });
}

bool tile::mayWrite(Operation *op, Value v) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return !effects || effects.getEffectOnValue<MemoryEffects::Write>(v);
}

bool tile::usedInLoopAround(Value v, Operation *op,
                            llvm::function_ref<bool(Operation *)> match) {
  for (Operation *loop = op->getParentOp(); !isa<KernelOp>(loop);
       loop = loop->getParentOp())
    if (isa<PipelinedOp, LoopLikeOpInterface>(loop) &&
        llvm::any_of(v.getUsers(), [&](Operation *user) {
          return loop->isAncestor(user) && match(user);
        }))
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// Operand types: written, or those the operands were declared with
//===----------------------------------------------------------------------===//

ParseResult tile::parseOperandTypes(
    OpAsmParser &parser,
    ArrayRef<const OpAsmParser::UnresolvedOperand *> operands,
    ArrayRef<StringRef> seps, ArrayRef<Type *> types, bool mayBeWritten) {
  if (mayBeWritten && succeeded(parser.parseOptionalColon())) {
    for (auto [i, operand] : llvm::enumerate(operands)) {
      if (!operand)
        continue;
      if (i && (seps[i - 1] == ","    ? parser.parseComma()
                : seps[i - 1] == "->" ? parser.parseArrow()
                                      : parser.parseKeyword(seps[i - 1])))
        return failure();
      if (parser.parseType(*types[i]))
        return failure();
    }
    return success();
  }
  for (auto [operand, type] : llvm::zip(operands, types)) {
    if (!operand)
      continue;
    std::optional<Type> declared = lookupOperandType(*operand);
    if (!declared)
      return parser.emitError(operand->location, "'")
             << operand->name << "' is not an argument of the enclosing "
             << "tile.kernel, a tile allocated before or a tile.reduction's "
             << "result, whose types are known: write the operands' types "
             << "(`: ...`)";
    *type = *declared;
  }
  return success();
}

void tile::printOperandTypes(OpAsmPrinter &printer, ArrayRef<Type> types,
                             ArrayRef<StringRef> seps) {
  printer << ":";
  for (auto [i, type] : llvm::enumerate(types)) {
    if (!type)
      continue;
    if (i)
      printer << (seps[i - 1] == "," ? "" : " ") << seps[i - 1];
    printer << ' ' << type;
  }
}

/// An allocation's type, recorded for the tile ops that follow.
static ParseResult parseTileType(OpAsmParser &parser, Type &type) {
  if (parser.parseType(type))
    return failure();
  recordTileType(parser, 0, type);
  return success();
}

static void printTileType(OpAsmPrinter &p, Operation *, Type type) {
  p << type;
}

/// A flag after `if`: `1` or `FLAG`.
static ParseResult parseFlag(OpAsmParser &parser, Attribute &flag) {
  return parseSize(parser, flag);
}
static void printFlag(OpAsmPrinter &p, Operation *, Attribute flag) {
  printSize(p, flag);
}

static ParseResult parseGemmTypes(OpAsmParser &parser,
                                  const OpAsmParser::UnresolvedOperand &a,
                                  const OpAsmParser::UnresolvedOperand &b,
                                  const OpAsmParser::UnresolvedOperand &c,
                                  Type &ta, Type &tb, Type &tc) {
  return parseOperandTypes(parser, {&a, &b, &c}, {",", ","}, {&ta, &tb, &tc});
}

static void printGemmTypes(OpAsmPrinter &p, Operation *, Value, Value, Value,
                           Type ta, Type tb, Type tc) {
  printOperandTypes(p, {ta, tb, tc}, {",", ","});
}

/// `: T -> U` for an op from a value to a destination (tile.atomic's
/// `: T -> memref<...>`, tile.reduce's fragments), or nothing when both are
/// known from before (a scalar's type is written).
static ParseResult parseSourceToDestTypes(
    OpAsmParser &parser, const OpAsmParser::UnresolvedOperand &source,
    const OpAsmParser::UnresolvedOperand &dest, Type &ts, Type &td) {
  return parseOperandTypes(parser, {&source, &dest}, {"->"}, {&ts, &td});
}

static void printSourceToDestTypes(OpAsmPrinter &p, Operation *, Value, Value,
                                   Type ts, Type td) {
  printOperandTypes(p, {ts, td}, {"->"});
}

/// `: memref<...>`, or nothing when the counter is a kernel argument.
static ParseResult
parseCounterType(OpAsmParser &parser,
                 const OpAsmParser::UnresolvedOperand &counter, Type &type) {
  return parseOperandTypes(parser, {&counter}, {}, {&type});
}

static void printCounterType(OpAsmPrinter &p, Operation *, Value, Type type) {
  printOperandTypes(p, {type}, {});
}

/// `: !tile.fragment<...> -> f32`, or nothing when the source is a tile
/// allocated before: the result has its element type. The result's type is
/// recorded for the ops that follow (a tile.atomic of the scalar).
static ParseResult
parseReductionTypes(OpAsmParser &parser,
                    const OpAsmParser::UnresolvedOperand &source, Type &ts,
                    Type &tr) {
  if (succeeded(parser.parseOptionalColon())) {
    if (parser.parseType(ts) || parser.parseArrow() || parser.parseType(tr))
      return failure();
  } else {
    if (parseOperandTypes(parser, {&source}, {}, {&ts}, false))
      return failure();
    auto shaped = dyn_cast<ShapedType>(ts);
    tr = shaped ? shaped.getElementType() : ts;
  }
  recordTileType(parser, 0, tr);
  return success();
}

static void printReductionTypes(OpAsmPrinter &p, Operation *, Value, Type ts,
                                Type tr) {
  p << ": " << ts << " -> " << tr;
}

bool tile::isSourceShorthand(Operation *op) {
  if (auto copy = dyn_cast<CopyOp>(op))
    return bool(copy.getStaging());
  if (auto index = dyn_cast<IndexOp>(op))
    return !index.getType().isIndex();
  if (auto gemm = dyn_cast<GemmOp>(op))
    return gemm.hasParametricTranspose();
  if (auto alloc = dyn_cast<AllocSharedOp>(op))
    return bool(alloc.getSizeParams());
  if (auto alloc = dyn_cast<AllocFragmentOp>(op))
    return bool(alloc.getSizeParams());
  if (auto loop = dyn_cast<PipelinedOp>(op))
    return !loop.getLower();
  return isa<LetOp>(op);
}

//===----------------------------------------------------------------------===//
// BlockIdOp
//===----------------------------------------------------------------------===//

void BlockIdOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), (Twine("block_id_") + stringifyDim(getDim())).str());
}

LogicalResult BlockIdOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if ((unsigned)getDim() >= kernel.getNumGridDims())
    return emitOpError("block_id_c1: dimension ")
           << stringifyDim(getDim()) << " is outside the kernel's "
           << kernel.getNumGridDims() << "-d grid";
  return success();
}

//===----------------------------------------------------------------------===//
// Allocations
//===----------------------------------------------------------------------===//

static LogicalResult verifyAllocPlacement(Operation *op) {
  Operation *parent = op->getParentOp();
  if (!isa_and_nonnull<KernelOp>(parent))
    return op->emitOpError("alloc_c1: tiles are allocated directly in a "
                           "tile.kernel body, not in ")
           << (parent ? parent->getName().getStringRef()
                      : StringRef("nothing"));
  return success();
}

/// `[%a, %b]` (index values) or `[BM, BK]` (integer parameters), or
/// nothing.
static ParseResult
parseAllocSizes(OpAsmParser &parser,
                SmallVectorImpl<OpAsmParser::UnresolvedOperand> &sizes,
                ArrayAttr &params) {
  if (failed(parser.parseOptionalLSquare()))
    return success();
  SmallVector<Attribute> names;
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        OpAsmParser::UnresolvedOperand operand;
        OptionalParseResult isOperand = parser.parseOptionalOperand(operand);
        if (isOperand.has_value()) {
          if (failed(*isOperand))
            return failure();
          sizes.push_back(operand);
          return success();
        }
        StringRef name;
        SMLoc loc = parser.getCurrentLocation();
        if (parser.parseKeyword(&name))
          return failure();
        if (!isValidParamName(name))
          return parser.emitError(loc, "'")
                 << name << "' is not a parameter name";
        names.push_back(ParamRefAttr::get(parser.getContext(), name));
        return success();
      }) ||
      parser.parseRSquare())
    return failure();
  if (!sizes.empty() && !names.empty())
    return parser.emitError(parser.getCurrentLocation(),
                            "alloc_c3: give the sizes as index values or as "
                            "parameter names, not both");
  if (!names.empty())
    params = parser.getBuilder().getArrayAttr(names);
  return success();
}

static void printAllocSizes(OpAsmPrinter &p, Operation *, OperandRange sizes,
                            ArrayAttr params) {
  if (!sizes.empty())
    p << " [" << sizes << ']';
  if (params) {
    p << " [";
    llvm::interleaveComma(
        params, p, [&](Attribute a) { p << cast<ParamRefAttr>(a).getName(); });
    p << ']';
  }
}

/// alloc_c3: one size per `?` dimension, index values or parameters.
static LogicalResult verifyAllocSizes(Operation *op, ShapedType type,
                                      ValueRange sizes,
                                      std::optional<ArrayAttr> params) {
  int64_t dynamic = type.getNumDynamicDims();
  if (params && !sizes.empty())
    return op->emitOpError("alloc_c3: the sizes are index values or "
                           "parameter names, not both");
  int64_t given = params ? (int64_t)params->size() : (int64_t)sizes.size();
  if (given != dynamic)
    return op->emitOpError("alloc_c3: ")
           << type << " has " << dynamic << " '?' dimension(s), given " << given
           << " size(s)";
  return success();
}

/// alloc_c4: every use of an `after_loops` tile comes after the last
/// tile.pipelined of the kernel's body.
static LogicalResult verifyAfterLoops(AllocSharedOp op) {
  Block *body = op->getBlock();
  Operation *lastLoop = nullptr;
  body->walk([&](PipelinedOp loop) {
    Operation *top = body->findAncestorOpInBlock(*loop);
    if (!lastLoop || lastLoop->isBeforeInBlock(top))
      lastLoop = top;
  });
  for (Operation *user : op->getUsers()) {
    Operation *top = body->findAncestorOpInBlock(*user);
    if (lastLoop && top && !lastLoop->isBeforeInBlock(top)) {
      InFlightDiagnostic diag =
          user->emitOpError("alloc_c4: uses a tile that lives after the "
                            "kernel's pipelined loops (`after_loops`), "
                            "before or inside the last of them");
      diag.attachNote(lastLoop->getLoc()) << "the last pipelined loop";
      diag.attachNote(op.getLoc()) << "the tile";
      return diag;
    }
  }
  return success();
}

LogicalResult AllocSharedOp::verify() {
  if (failed(verifyAllocPlacement(*this)))
    return failure();
  if (getAfterLoops() && failed(verifyAfterLoops(*this)))
    return failure();
  return verifyAllocSizes(*this, getType(), getSizes(), getSizeParams());
}

/// alloc_c2: whether `layout` can lay out a fragment of rank `rank`.
static LogicalResult verifyLayout(Operation *op, Attribute layout,
                                  int64_t rank) {
  if (auto mma = dyn_cast<MmaLayoutAttr>(layout)) {
    if (rank != 2 || mma.getWarpgroups() < 1 ||
        mma.getWarpgroups() > kMaxBlockThreads / kWarpgroupSize)
      return op->emitOpError("alloc_c2: ")
             << layout << " lays out 2-d fragments with 1 to "
             << kMaxBlockThreads / kWarpgroupSize << " warpgroups, not rank "
             << rank;
    return success();
  }
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout)) {
    auto positive = [](ArrayRef<int64_t> v) {
      return llvm::all_of(v, [](int64_t x) { return x > 0; });
    };
    if (rank > 2 || (int64_t)blocked.getLanes().size() != rank ||
        (int64_t)blocked.getWarps().size() != rank || blocked.getVector() < 1 ||
        !positive(blocked.getLanes()) || !positive(blocked.getWarps()))
      return op->emitOpError("alloc_c2: ")
             << layout << " needs a positive vector and one positive lane "
             << "and warp count per dimension of a 1-d or 2-d fragment (rank "
             << rank << ")";
    // Bounded before they are multiplied: a block has at most 32 lanes per
    // warp and 32 warps, a run at most a tile's elements.
    auto atMost = [](ArrayRef<int64_t> v, int64_t bound) {
      return llvm::all_of(v, [&](int64_t x) { return x <= bound; });
    };
    if (!atMost(blocked.getLanes(), kWarpSize) ||
        !atMost(blocked.getWarps(), kMaxBlockThreads / kWarpSize) ||
        blocked.getVector() > kMaxTileElements)
      return op->emitOpError("alloc_c2: ")
             << layout << " has more than " << kWarpSize << " lanes or "
             << kMaxBlockThreads / kWarpSize << " warps along a dimension, "
             << "or a run longer than " << kMaxTileElements << " elements";
    int64_t lanes = 1;
    for (int64_t l : blocked.getLanes())
      lanes *= l;
    if (lanes != kWarpSize)
      return op->emitOpError("alloc_c2: the lanes of ")
             << layout << " multiply to " << lanes << ", not " << kWarpSize;
    return success();
  }
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout)) {
    if (slice.getDim() < 0 || slice.getDim() > rank)
      return op->emitOpError("alloc_c2: ")
             << layout << " removes dimension " << slice.getDim()
             << " of a rank-" << rank + 1 << " parent";
    return verifyLayout(op, slice.getParent(), rank + 1);
  }
  return op->emitOpError("alloc_c2: ")
         << layout << " is not a fragment layout (#tile.mma, #tile.blocked "
         << "or #tile.slice)";
}

LogicalResult AllocFragmentOp::verify() {
  if (failed(verifyAllocPlacement(*this)) ||
      failed(verifyAllocSizes(*this, getType(), getSizes(), getSizeParams())))
    return failure();
  if (std::optional<Attribute> layout = getLayout())
    return verifyLayout(*this, *layout, getType().getShape().size());
  return success();
}

/// `1`, or `1 : i32` for a coordinate in an integer type.
ParseResult IndexOp::parse(OpAsmParser &parser, OperationState &result) {
  IntegerAttr dim;
  Type type = parser.getBuilder().getIndexType();
  if (parser.parseAttribute(dim, parser.getBuilder().getI64Type(),
                            getDimAttrName(result.name), result.attributes) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      (succeeded(parser.parseOptionalColon()) && parser.parseType(type)))
    return failure();
  result.addTypes(type);
  return success();
}

void IndexOp::print(OpAsmPrinter &p) {
  p << ' ' << getDim();
  p.printOptionalAttrDict((*this)->getAttrs(), {getDimAttrName()});
  if (!getType().isIndex())
    p << " : " << getType();
}

LogicalResult IndexOp::verify() {
  auto parallel = (*this)->getParentOfType<ParallelOp>();
  int64_t rank = cast<ShapedType>(parallel.getOutputs()[0].getType()).getRank();
  int64_t dim = getDim();
  if (dim < 0 || dim >= rank)
    return emitOpError("index_c1: dim ") << dim << " is not a dimension of the "
                                         << rank << "-d iteration space";
  return success();
}

//===----------------------------------------------------------------------===//
// FillOp
//===----------------------------------------------------------------------===//

LogicalResult FillOp::verify() {
  Type elt = cast<ShapedType>(getDest().getType()).getElementType();
  if (!getValue() == !getConstantAttr())
    return emitOpError("fill_c1: give the value as an operand or as a "
                       "literal, once");
  if (Value v = getValue()) {
    if (v.getType() != elt)
      return emitOpError("fill_c1: the value has type ")
             << v.getType() << ", it must be the tile's element type " << elt;
    return success();
  }
  bool isFloatLiteral = isa<FloatAttr>(getConstantAttr());
  if (!isa<ParamType>(elt) && !isa<FloatType>(elt) &&
      (isFloatLiteral || !elt.isSignlessInteger()))
    return emitOpError("fill_c1: the literal ")
           << getConstantAttr() << " cannot fill a tile of " << elt;
  if (auto integer = dyn_cast<IntegerAttr>(getConstantAttr())) {
    int64_t v = integer.getInt();
    if (auto ft = dyn_cast<FloatType>(elt)) {
      // An integer the type cannot hold exactly (a hex spelling of float
      // bits, 0xFF800000, reads as 4286578688) is refused.
      APFloat f(ft.getFloatSemantics());
      if (f.convertFromAPInt(APInt(64, v, /*isSigned=*/true),
                             /*IsSigned=*/true,
                             APFloat::rmNearestTiesToEven) != APFloat::opOK)
        return emitOpError("fill_c1: the integer ")
               << v << " is not exactly a value of " << elt
               << "; write a float literal (a decimal, inf, -inf or nan)";
    } else if (elt.isSignlessInteger() &&
               !llvm::isIntN(elt.getIntOrFloatBitWidth(), v)) {
      // Integer tiles compute signed: 2147483648 would be -2147483648.
      unsigned width = elt.getIntOrFloatBitWidth();
      return emitOpError("fill_c1: the literal ")
             << v << " does not fit in " << elt << " (signed, ["
             << llvm::minIntN(width) << ", " << llvm::maxIntN(width) << "])";
    }
  }
  // A finite literal beyond the type's range would become an infinity.
  if (auto literal = dyn_cast<FloatAttr>(getConstantAttr());
      literal && isa<FloatType>(elt) && literal.getValue().isFinite()) {
    APFloat f = literal.getValue();
    bool lost = false;
    f.convert(cast<FloatType>(elt).getFloatSemantics(),
              APFloat::rmNearestTiesToEven, &lost);
    if (f.isInfinity())
      return emitOpError("fill_c1: the literal ")
             << literal.getValueAsDouble() << " is beyond the range of " << elt
             << "; write inf or -inf for an infinity";
  }
  return success();
}

bool FillOp::isZeroFill() {
  if (Value v = getValue())
    return matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero());
  if (auto f = dyn_cast<FloatAttr>(getConstantAttr()))
    return f.getValue().isPosZero();
  return cast<IntegerAttr>(getConstantAttr()).getValue().isZero();
}

TypedAttr FillOp::getConstantOf(Type type) {
  Attribute c = getConstantAttr();
  if (!c)
    return {};
  if (auto ft = dyn_cast<FloatType>(type)) {
    APFloat v = isa<FloatAttr>(c)
                    ? cast<FloatAttr>(c).getValue()
                    : APFloat((double)cast<IntegerAttr>(c).getInt());
    bool lost;
    v.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    return FloatAttr::get(ft, v);
  }
  return IntegerAttr::get(type, cast<IntegerAttr>(c).getInt());
}

// tile.fill %t, %v : tileType, valueType  |  tile.fill %t, -inf : tileType
ParseResult FillOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand dest, value;
  Type destType, valueType;
  if (parser.parseOperand(dest) || parser.parseComma())
    return failure();
  Builder &b = parser.getBuilder();
  OptionalParseResult isOperand = parser.parseOptionalOperand(value);
  if (isOperand.has_value() && failed(*isOperand))
    return failure();
  bool hasOperand = isOperand.has_value();
  if (!hasOperand) {
    // A literal: [-] (inf | nan | a decimal), or an integer.
    SMLoc loc = parser.getCurrentLocation();
    bool negative = succeeded(parser.parseOptionalMinus());
    StringRef word;
    int64_t integer;
    Attribute constant;
    if (succeeded(parser.parseOptionalKeyword(&word))) {
      if (word != "inf" && word != "nan")
        return parser.emitError(loc, "expected a value: an SSA value, a "
                                     "number, inf, -inf or nan");
      APFloat v = word == "inf"
                      ? APFloat::getInf(APFloat::IEEEdouble(), negative)
                      : APFloat::getQNaN(APFloat::IEEEdouble(), negative);
      constant = b.getFloatAttr(b.getF64Type(), v);
    } else if (StringRef(parser.getCurrentLocation().getPointer())
                   .starts_with("0x")) {
      // Hex would read as an integer, not as a float's bits (0xFF800000
      // is 4286578688, not -inf).
      return parser.emitError(loc, "a hexadecimal literal does not fill a "
                                   "tile; write the number, inf, -inf or nan");
    } else if (OptionalParseResult isInt = parser.parseOptionalInteger(integer);
               isInt.has_value()) {
      if (failed(*isInt))
        return failure();
      if (negative && integer < 0)
        return parser.emitError(loc, "expected one sign before the number");
      constant = b.getI64IntegerAttr(negative ? -integer : integer);
    } else {
      double v;
      if (parser.parseFloat(v))
        return failure();
      constant = b.getF64FloatAttr(negative ? -v : v);
    }
    result.addAttribute(getConstantAttrName(result.name), constant);
  }
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  // Without types, the tile's, and a value of its element type.
  bool typed = succeeded(parser.parseOptionalColon());
  if (typed ? parser.parseType(destType)
            : parseOperandTypes(parser, {&dest}, {}, {&destType}, false))
    return failure();
  if (parser.resolveOperand(dest, destType, result.operands))
    return failure();
  if (!hasOperand)
    return success();
  if (!typed) {
    auto shaped = dyn_cast<ShapedType>(destType);
    valueType = shaped ? shaped.getElementType() : destType;
  } else if (parser.parseComma() || parser.parseType(valueType)) {
    return failure();
  }
  return parser.resolveOperand(value, valueType, result.operands);
}

void FillOp::print(OpAsmPrinter &p) {
  p << ' ' << getDest() << ", ";
  if (Value v = getValue()) {
    p << v;
  } else if (auto f = dyn_cast<FloatAttr>(getConstantAttr())) {
    APFloat v = f.getValue();
    if (v.isInfinity() || v.isNaN())
      p << (v.isNegative() ? "-" : "") << (v.isNaN() ? "nan" : "inf");
    else
      p.printFloat(v);
  } else {
    p << cast<IntegerAttr>(getConstantAttr()).getInt();
  }
  p.printOptionalAttrDict((*this)->getAttrs(), {getConstantAttrName()});
  p << " : " << getDest().getType();
  if (Value v = getValue())
    p << ", " << v.getType();
}

//===----------------------------------------------------------------------===//
// PrintOp
//===----------------------------------------------------------------------===//

LogicalResult PrintOp::verify() {
  Type type = getValue().getType();
  if (auto fragment = dyn_cast<FragmentType>(type)) {
    if (!isa<FloatType>(fragment.getElementType()))
      return emitOpError("print_c1: a fragment of ")
             << fragment.getElementType()
             << " is not printed; fragments of floats are";
  } else if (!type.isIntOrIndexOrFloat()) {
    return emitOpError("print_c1: ")
           << type << " is not printed; fragments of floats and integer, "
           << "index or float scalars are";
  }
  if (std::optional<ArrayRef<int64_t>> block = getBlock()) {
    if (block->empty() || block->size() > 3)
      return emitOpError("print_c2: `block` has ")
             << block->size() << " coordinates; it has one to three";
    if (llvm::any_of(*block, [](int64_t c) { return c < 0; }))
      return emitOpError("print_c2: `block` coordinates must not be negative");
  }
  if (std::optional<int64_t> thread = getThread()) {
    if (*thread < 0)
      return emitOpError("print_c2: `thread` (")
             << *thread << ") must not be negative";
    auto kernel = (*this)->getParentOfType<KernelOp>();
    if (kernel && !kernel.isParametric() && *thread >= kernel.getThreadCount())
      return emitOpError("print_c2: `thread` (")
             << *thread << ") must be below the kernel's "
             << kernel.getThreadCount() << " threads";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ReductionOp
//===----------------------------------------------------------------------===//

LogicalResult ReductionOp::verify() {
  Type elt = getSource().getType().getElementType();
  if (elt != getResult().getType())
    return emitOpError("reduction_c1: the result is ")
           << getResult().getType() << "; it must be the source's element type "
           << elt;
  if (!isa<FloatType, ParamType>(elt))
    return emitOpError("reduction_c1: only float fragments are reduced, got ")
           << elt;
  // The lanes combine through 32-bit shuffles.
  if (isa<FloatType>(elt) && !elt.isF32())
    return emitOpError("reduction_c1: a fragment of ")
           << elt << " is not reduced; reduce an f32 fragment (copy or "
           << "compute into one first)";
  if (getAcrossCluster()) {
    auto kernel = (*this)->getParentOfType<KernelOp>();
    if (kernel && !kernel.getCluster())
      return emitOpError("reduction_c2: across the cluster in kernel '")
             << kernel.getSymName()
             << "', which is not launched in clusters; give it `cluster "
                "[...]` after its threads";
    if (kernel && (*this)->getParentOp() != kernel.getOperation())
      return emitOpError("reduction_c2: across the cluster inside '")
             << (*this)->getParentOp()->getName()
             << "'; every block of the cluster must reach it: reduce in the "
                "kernel's body";
  }
  return success();
}

void ReductionOp::getAsmResultNames(
    function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getResult(), stringifyReduceKind(getKind()));
}

//===----------------------------------------------------------------------===//
// AtomicOp
//===----------------------------------------------------------------------===//

LogicalResult AtomicOp::verify() {
  if ((*this)->getParentOfType<ParallelOp>())
    return emitOpError("atomic_c3: inside a tile.parallel body; combine a "
                       "fragment with one tile.atomic after the loop "
                       "(compute its elements in the body)");
  auto dest = cast<MemRefType>(getDest().getType());
  if ((int64_t)getOffsets().size() != dest.getRank())
    return emitOpError("atomic_c1: ")
           << getOffsets().size() << " offset(s) for a rank-" << dest.getRank()
           << " memref; give one per dimension";
  Type value = getValue().getType();
  auto fragment = dyn_cast<FragmentType>(value);
  if (!fragment && isa<ShapedType>(value))
    return emitOpError("atomic_c1: the value is ")
           << value << "; expected a fragment or a scalar";
  if (fragment && fragment.getRank() > dest.getRank())
    return emitOpError("atomic_c1: a rank-")
           << fragment.getRank() << " fragment cannot span a rank-"
           << dest.getRank() << " memref";
  // A parameter's element type is checked once it is bound.
  Type memT = dest.getElementType();
  Type valT = fragment ? fragment.getElementType() : value;
  if (isa<ParamType>(memT) || isa<ParamType>(valT))
    return success();
  bool isAdd = getKind() == AtomicKind::add;
  bool memOk = memT.isF32() || memT.isInteger(32) ||
               (isAdd && (memT.isF16() || memT.isBF16()));
  if (!memOk)
    return emitOpError("atomic_c2: ")
           << stringifyAtomicKind(getKind()) << " cannot combine into " << memT
           << " memory; " << stringifyAtomicKind(getKind()) << " takes "
           << (isAdd ? "f32, f16, bf16 or i32"
                     : "f32 or i32 (combine in "
                       "f32 and convert after)");
  bool valOk =
      fragment ? (isa<FloatType>(memT) ? isa<FloatType>(valT) : valT == memT)
               : valT == memT;
  if (!valOk)
    return emitOpError("atomic_c2: ")
           << (fragment ? "a fragment of " : "a scalar of ") << valT
           << " cannot combine into " << memT << " memory; "
           << (fragment && isa<FloatType>(memT)
                   ? "expected float elements"
                   : "expected the memref's element type");
  return success();
}

//===----------------------------------------------------------------------===//
// ArriveOp
//===----------------------------------------------------------------------===//

LogicalResult ArriveOp::verify() {
  if ((*this)->getParentOfType<ParallelOp>() ||
      (*this)->getParentOfType<PipelinedOp>())
    return emitOpError("arrive_c2: inside a ")
           << ((*this)->getParentOfType<ParallelOp>() ? "tile.parallel"
                                                      : "tile.pipelined")
           << " body; a block arrives once, after the loop";
  auto counter = cast<MemRefType>(getCounter().getType());
  if ((int64_t)getOffsets().size() != counter.getRank())
    return emitOpError("arrive_c1: ")
           << getOffsets().size() << " offset(s) for a rank-"
           << counter.getRank() << " memref; give one per dimension";
  APInt count;
  if (matchPattern(getCount(), m_ConstantInt(&count)) &&
      count.getSExtValue() < 1)
    return emitOpError("arrive_c3: count is ")
           << count.getSExtValue()
           << "; at least one block must arrive for one to be last";
  return success();
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

bool CopyOp::isTileLoad() {
  return isa<MemRefType>(getSource().getType()) &&
         isa<SharedType>(getDest().getType()) && getDestOffsets().empty();
}

bool CopyOp::isTileStore() {
  return isa<SharedType>(getSource().getType()) &&
         isa<MemRefType>(getDest().getType());
}

bool CopyOp::isRowLoad() {
  return isa<MemRefType>(getSource().getType()) &&
         isa<SharedType>(getDest().getType()) && !getDestOffsets().empty();
}

/// `through %s if FLAG : T -> T through T`: the staging tile and its flag,
/// if any, then the types (which may be left out, copy_c9).
static ParseResult
parseCopyTail(OpAsmParser &parser,
              std::optional<OpAsmParser::UnresolvedOperand> &staging,
              Attribute &flag, const OpAsmParser::UnresolvedOperand &src,
              const OpAsmParser::UnresolvedOperand &dst, Type &ts, Type &td,
              Type &tstaging) {
  if (succeeded(parser.parseOptionalKeyword("through"))) {
    staging.emplace();
    if (parser.parseOperand(*staging) ||
        (succeeded(parser.parseOptionalKeyword("if")) &&
         parseSize(parser, flag)))
      return failure();
  }
  return parseOperandTypes(parser, {&src, &dst, staging ? &*staging : nullptr},
                           {"->", "through"}, {&ts, &td, &tstaging});
}

static void printCopyTail(OpAsmPrinter &p, CopyOp, Value staging,
                          Attribute flag, Value, Value, Type ts, Type td,
                          Type tstaging) {
  if (staging) {
    p << "through " << staging;
    if (flag) {
      p << " if ";
      printSize(p, flag);
    }
    p << ' ';
  }
  printOperandTypes(p, {ts, td, tstaging}, {"->", "through"});
}

/// copy_c9: a copy through a shared tile.
static LogicalResult verifyStaging(CopyOp op) {
  Value staging = op.getStaging();
  if (!staging)
    return op.getThroughIfAttr()
               ? op.emitOpError("copy_c9: `if` needs `through`")
               : success();
  auto frag = dyn_cast<FragmentType>(op.getSource().getType());
  auto mem = dyn_cast<MemRefType>(op.getDest().getType());
  if (!frag || !mem)
    return op.emitOpError("copy_c9: only a copy from a fragment to global "
                          "memory goes through a shared tile");
  auto shared = cast<SharedType>(staging.getType());
  if (failed(verifyCompatibleShape(shared.getShape(), frag.getShape())) ||
      shared.getElementType() != mem.getElementType())
    return op.emitOpError("copy_c9: the staging tile must have the "
                          "fragment's shape and the memref's element type, ")
           << shared << " for " << frag << " into " << mem;
  if (auto flag = dyn_cast_if_present<IntegerAttr>(op.getThroughIfAttr());
      flag && flag.getInt() != 0 && flag.getInt() != 1)
    return op.emitOpError("copy_c9: the flag (")
           << flag.getInt() << ") must be 0 or 1";
  // A parameter flag is a boolean one (the kernel checks that it exists).
  if (failed(verifyFlagParam(op, op.getThroughIfAttr())))
    return failure();
  return success();
}

/// copy_c10: bounds clip a copy between global memory and a fragment, one
/// per memref dimension.
static LogicalResult verifyBounds(CopyOp op) {
  if (op.getBounds().empty())
    return success();
  auto srcMem = dyn_cast<MemRefType>(op.getSource().getType());
  auto dstMem = dyn_cast<MemRefType>(op.getDest().getType());
  bool fragment = isa<FragmentType>(op.getSource().getType()) ||
                  isa<FragmentType>(op.getDest().getType());
  if (!(srcMem || dstMem) || !fragment || op.getStaging())
    return op.emitOpError("copy_c10: bounds clip copies between global "
                          "memory and a fragment (not through a shared tile)");
  int64_t rank = (srcMem ? srcMem : dstMem).getRank();
  if ((int64_t)op.getBounds().size() != rank)
    return op.emitOpError("copy_c10: ")
           << op.getBounds().size() << " bounds for a memref of rank " << rank
           << "; give one per dimension";
  return success();
}

LogicalResult CopyOp::verify() {
  if (failed(verifyStaging(*this)) || failed(verifyBounds(*this)))
    return failure();
  Type srcType = getSource().getType(), dstType = getDest().getType();
  auto srcMem = dyn_cast<MemRefType>(srcType);
  auto dstMem = dyn_cast<MemRefType>(dstType);
  for (Type t : {srcType, dstType})
    if (!isa<MemRefType, SharedType, FragmentType>(t))
      return emitOpError("copy_c1: operands must be memrefs or tiles, got ")
             << t;
  if (srcMem && dstMem)
    return emitOpError("copy_c1: at most one side may be a memref; copy "
                       "global memory through a shared or fragment tile");
  if (MemRefType mem = srcMem ? srcMem : dstMem;
      mem && mem.getElementType().isIndex())
    return emitOpError("copy_c7: the memref holds index, whose width in "
                       "memory the target decides; copy integers or floats "
                       "(i64 for an index)");
  // A shared tile copied to or from a fragment may take offsets: the
  // fragment is then the window of the tile at them (copy_c5).
  auto isWindow = [&](Type side, Type other, ValueRange offsets) {
    return isa<SharedType>(side) && isa<FragmentType, MemRefType>(other) &&
           !offsets.empty();
  };
  // From global memory, offsets on the shared side name one row of the
  // tile, which the copy fills (copy_c6).
  bool rowWindow =
      srcMem && isa<SharedType>(dstType) && !getDestOffsets().empty();
  if (dstMem && isa<SharedType>(srcType) && !getSourceOffsets().empty())
    return emitOpError("copy_c6: a copy to global memory takes the whole "
                       "shared tile, not a window of it");
  auto checkOffsets = [&](Type type, Type other, ValueRange offsets,
                          StringRef side) -> LogicalResult {
    auto mem = dyn_cast<MemRefType>(type);
    bool window = isWindow(type, other, offsets);
    int64_t want = mem      ? mem.getRank()
                   : window ? cast<ShapedType>(type).getRank()
                            : 0;
    if ((int64_t)offsets.size() != want)
      return emitOpError("copy_c1: the ")
             << side << " takes " << want << " offsets ("
             << (mem      ? "one per memref dimension"
                 : window ? "one per dimension of the shared tile's window"
                          : "it is a tile")
             << "), got " << offsets.size();
    return success();
  };
  if (failed(checkOffsets(srcType, dstType, getSourceOffsets(), "source")) ||
      failed(checkOffsets(dstType, srcType, getDestOffsets(), "destination")))
    return failure();
  bool window = isWindow(srcType, dstType, getSourceOffsets()) ||
                isWindow(dstType, srcType, getDestOffsets());
  if (rowWindow) {
    auto shared = cast<SharedType>(dstType);
    if (shared.getRank() != 2)
      return emitOpError("copy_c6: a row of a shared tile is filled from "
                         "global memory only for a 2-d tile, got ")
             << dstType;
    if (!matchPattern(getDestOffsets()[1], m_Zero()))
      return emitOpError("copy_c6: the row of the shared tile starts at "
                         "column 0 (a constant)");
  }
  auto srcShaped = cast<ShapedType>(srcType);
  auto dstShaped = cast<ShapedType>(dstType);
  // A 1-d fragment read from a row of a 2-d shared tile (copy_c11).
  bool rowRead = isa<SharedType>(srcType) && isa<FragmentType>(dstType) &&
                 srcShaped.getRank() == 2 && dstShaped.getRank() == 1;
  if (rowRead && getSourceOffsets().empty())
    return emitOpError("copy_c11: a 1-d fragment is read from a row of a "
                       "2-d shared tile: give the row and the first column "
                       "(`%s[%row, %col]`)");
  // A tile spans the innermost dimensions of a memref of higher rank.
  MemRefType mem = srcMem ? srcMem : dstMem;
  ShapedType tileType = srcMem ? dstShaped : srcShaped;
  if (mem ? tileType.getRank() > mem.getRank()
          : srcShaped.getRank() != dstShaped.getRank() && !rowRead)
    return emitOpError("copy_c2: a tile of rank ")
           << tileType.getRank() << " cannot be copied "
           << (mem ? "to or from a memref" : "to or from a tile") << " of rank "
           << (mem ? mem.getRank() : (srcMem ? srcShaped : dstShaped).getRank())
           << (mem ? "; the tile spans the memref's innermost dimensions"
                   : "; tiles must have the same rank");
  if (!srcMem && !dstMem && !window &&
      failed(verifyCompatibleShape(srcShaped.getShape(), dstShaped.getShape())))
    return emitOpError("copy_c3: tiles of shapes ")
           << srcType << " and " << dstType << " must have the same shape";
  if (window && !rowWindow) {
    ShapedType shared = isa<SharedType>(srcType) ? srcShaped : dstShaped;
    ShapedType fragment = isa<SharedType>(srcType) ? dstShaped : srcShaped;
    // A row's window spans the tile's columns (copy_c11).
    ArrayRef<int64_t> extent = shared.getShape().take_back(fragment.getRank());
    for (auto [w, t] : llvm::zip(fragment.getShape(), extent))
      if (!ShapedType::isDynamic(w) && !ShapedType::isDynamic(t) && w > t) {
        if (rowRead)
          return emitOpError("copy_c11: the fragment ")
                 << fragment << " is longer than a row of the shared tile "
                 << shared;
        return emitOpError("copy_c5: a window of shape ")
               << fragment << " does not fit in the shared tile " << shared;
      }
  }
  Type srcElt = srcShaped.getElementType(), dstElt = dstShaped.getElementType();
  if (srcMem && isa<SharedType>(dstType) && srcElt != dstElt)
    return emitOpError("copy_c4: a copy from global into shared memory keeps "
                       "the element type; got ")
           << srcElt << " into " << dstElt;
  // A parameter's element type is checked once it is bound.
  if (srcElt != dstElt && !isa<ParamType>(srcElt) && !isa<ParamType>(dstElt) &&
      !(isa<FloatType>(srcElt) && isa<FloatType>(dstElt)))
    return emitOpError("copy_c8: a copy converts between float types only; "
                       "got ")
           << srcElt << " into " << dstElt
           << " (convert integers in a tile.parallel body)";
  if (getMulticast()) {
    if (!isTileLoad())
      return emitOpError("copy_c12: `multicast` loads a whole shared tile "
                         "from global memory");
    auto kernel = (*this)->getParentOfType<KernelOp>();
    if (kernel && !kernel.getCluster())
      return emitOpError("copy_c12: `multicast` shares a load among the "
                         "blocks of a thread-block cluster; the kernel is not "
                         "launched in clusters (`cluster [X, Y, Z]` after its "
                         "threads)");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  auto src = getSource().getType(), dst = getDest().getType();
  if (src.getElementType() != dst.getElementType())
    return emitOpError("reduce_c1: source and dest element types differ (")
           << src.getElementType() << " vs " << dst.getElementType() << ")";
  int64_t dim = getDim();
  if (dim < 0 || dim >= (int64_t)src.getShape().size())
    return emitOpError("reduce_c2: dim ")
           << dim << " is not a dimension of the rank-" << src.getShape().size()
           << " source";
  SmallVector<int64_t> expected(src.getShape());
  expected.erase(expected.begin() + dim);
  if (expected.empty())
    expected.push_back(1);
  if (failed(verifyCompatibleShape(expected, dst.getShape()))) {
    InFlightDiagnostic d = emitOpError("reduce_c2: dest must have shape ");
    llvm::interleave(expected, d, "x");
    return d << " (the source without dim " << dim << "), got " << dst;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// PipelinedOp
//===----------------------------------------------------------------------===//

ParseResult PipelinedOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iv;
  OpAsmParser::UnresolvedOperand lb, ub, step;
  Attribute stages;
  Type index = parser.getBuilder().getIndexType();
  // `%k = %lb to %ub step %s`, or `%k to %ub` from 0 by 1.
  if (parser.parseArgument(iv))
    return failure();
  bool bounds = succeeded(parser.parseOptionalEqual());
  if ((bounds && parser.parseOperand(lb)) || parser.parseKeyword("to") ||
      parser.parseOperand(ub) ||
      (bounds && (parser.parseKeyword("step") || parser.parseOperand(step))) ||
      parser.parseKeyword("num_stages") || parseSize(parser, stages))
    return failure();
  if ((bounds && parser.resolveOperand(lb, index, result.operands)) ||
      parser.resolveOperand(ub, index, result.operands) ||
      (bounds && parser.resolveOperand(step, index, result.operands)))
    return failure();
  int32_t optional = bounds ? 1 : 0;
  result.addAttribute(
      getOperandSegmentSizesAttrName(result.name),
      parser.getBuilder().getDenseI32ArrayAttr({optional, 1, optional}));
  result.addAttribute(getNumStagesAttrName(result.name), stages);
  if (succeeded(parser.parseOptionalKeyword("warp_specialize"))) {
    // `true` and `false` are the flag's 1 and 0 (an integer parse would
    // read `true` as the i1 -1).
    Attribute specialize;
    if (succeeded(parser.parseOptionalKeyword("true")))
      specialize = parser.getBuilder().getI64IntegerAttr(1);
    else if (succeeded(parser.parseOptionalKeyword("false")))
      specialize = parser.getBuilder().getI64IntegerAttr(0);
    else if (parseSize(parser, specialize))
      return failure();
    result.addAttribute(getWarpSpecializeAttrName(result.name), specialize);
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  iv.type = index;
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}))
    return failure();
  PipelinedOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void PipelinedOp::print(OpAsmPrinter &p) {
  p << ' ' << getInductionVar();
  if (getLower())
    p << " = " << getLower();
  p << " to " << getUpper();
  if (getStep())
    p << " step " << getStep();
  p << " num_stages ";
  printSize(p, getNumStages());
  if (Attribute specialize = getWarpSpecializeAttr()) {
    p << " warp_specialize ";
    printSize(p, specialize);
  }
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getNumStagesAttrName(), getWarpSpecializeAttrName(),
                            getOperandSegmentSizesAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult PipelinedOp::verify() {
  // Each stage is a buffer of every tile loaded in the loop and a barrier:
  // beyond a few the pipeline only costs shared memory, and a huge count
  // would overflow the arithmetic on sizes.
  if (auto stages = dyn_cast<IntegerAttr>(getNumStages());
      stages && (stages.getInt() < 1 || stages.getInt() > kMaxStages))
    return emitOpError("pipelined_c1: num_stages (")
           << stages.getInt() << ") must be 1 to " << kMaxStages;
  if (auto flag = dyn_cast_if_present<IntegerAttr>(getWarpSpecializeAttr());
      flag && flag.getInt() != 0 && flag.getInt() != 1)
    return emitOpError("pipelined_c3: warp_specialize (")
           << flag.getInt() << ") must be 0, 1, false or true";
  if (!getLower() != !getStep())
    return emitOpError("pipelined_c4: give both the lower bound and the "
                       "step, or neither (0 and 1)");
  APInt step;
  if (getStep() && matchPattern(getStep(), m_ConstantInt(&step)) &&
      !step.isStrictlyPositive())
    return emitOpError("pipelined_c2: the step (")
           << step.getSExtValue() << ") must be positive";
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError("the body takes one index argument, the iteration");
  return verifyTurns();
}

/// pipelined_c5: one take and one pass of the same flag, or no turns.
LogicalResult PipelinedOp::verifyTurns() {
  TurnOp take, pass;
  for (auto turn : getBody().front().getOps<TurnOp>()) {
    TurnOp &slot = turn.getKind() == TurnKind::take ? take : pass;
    if (slot)
      return turn.emitOpError("pipelined_c5: a second `tile.turn ")
             << stringifyTurnKind(turn.getKind())
             << "` in the loop body; a body takes turns with one take and "
                "one pass";
    slot = turn;
  }
  if (!take && !pass)
    return success();
  if (!take || !pass)
    return (take ? take : pass)
               .emitOpError("pipelined_c5: a loop body "
                            "with a `tile.turn ")
           << (take ? "take" : "pass") << "` needs a `tile.turn "
           << (take ? "pass" : "take")
           << "` too: a turn taken and never passed would stop the other "
              "warpgroups";
  // The same parameter, or constants that agree (no flag is 1).
  Attribute takeFlag = take.getEnabledAttr(), passFlag = pass.getEnabledAttr();
  bool sameFlag = isa_and_present<ParamRefAttr>(takeFlag) ||
                          isa_and_present<ParamRefAttr>(passFlag)
                      ? takeFlag == passFlag
                      : take.isEnabled() == pass.isEnabled();
  if (!sameFlag)
    return pass.emitOpError("pipelined_c5: the take and the pass of a body "
                            "have the same flag");
  return success();
}

//===----------------------------------------------------------------------===//
// tile.turn
//===----------------------------------------------------------------------===//

LogicalResult TurnOp::verify() {
  if (!isa<PipelinedOp>((*this)->getParentOp()))
    return emitOpError("turn_c1: a turn is taken directly in a "
                       "`tile.pipelined` body, whose iterations the "
                       "warpgroups take turns in");
  if (auto flag = dyn_cast_if_present<IntegerAttr>(getEnabledAttr());
      flag && flag.getInt() != 0 && flag.getInt() != 1)
    return emitOpError("turn_c2: the flag (")
           << flag.getInt() << ") must be 0 or 1";
  return verifyFlagParam(*this, getEnabledAttr());
}

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
