//===- TileOps.cpp - Operations of the tile dialect ---------------------===//
//
// Parsers, printers and verifiers. Each diagnostic starts with the label of
// the constraint it enforces (see TileOps.td) and says what would be valid.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileHardware.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     FunctionType type, ArrayRef<int64_t> gridArgs,
                     ArrayRef<int64_t> gridDims, ArrayRef<int64_t> gridTiles,
                     int64_t threads) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addAttribute(getGridArgsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(gridArgs));
  state.addAttribute(getGridDimsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(gridDims));
  state.addAttribute(getGridTilesAttrName(state.name),
                     builder.getDenseI64ArrayAttr(gridTiles));
  state.addAttribute(getThreadsAttrName(state.name),
                     builder.getI64IntegerAttr(threads));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Type t : type.getInputs())
    block->addArgument(t, state.location);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  YieldOp::create(builder, state.location);
}

// grid [%X[1] / 128, 4]
static ParseResult parseGrid(OpAsmParser &parser,
                             ArrayRef<OpAsmParser::Argument> args,
                             SmallVectorImpl<int64_t> &gridArgs,
                             SmallVectorImpl<int64_t> &gridDims,
                             SmallVectorImpl<int64_t> &gridTiles) {
  auto parseOne = [&]() -> ParseResult {
    int64_t constant;
    OptionalParseResult isInt = parser.parseOptionalInteger(constant);
    if (isInt.has_value()) {
      if (failed(*isInt))
        return failure();
      gridArgs.push_back(-1);
      gridDims.push_back(0);
      gridTiles.push_back(constant);
      return success();
    }
    OpAsmParser::UnresolvedOperand operand;
    int64_t dim, tileSize;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseOperand(operand) || parser.parseLSquare() ||
        parser.parseInteger(dim) || parser.parseRSquare() ||
        parser.parseSlash() || parser.parseInteger(tileSize))
      return failure();
    auto it = llvm::find_if(args, [&](const OpAsmParser::Argument &a) {
      return a.ssaName.name == operand.name &&
             a.ssaName.number == operand.number;
    });
    if (it == args.end())
      return parser.emitError(loc, "kernel_c2: grid extent refers to '")
             << operand.name << "', which is not a kernel argument";
    gridArgs.push_back(it - args.begin());
    gridDims.push_back(dim);
    gridTiles.push_back(tileSize);
    return success();
  };
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                        parseOne);
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  if (parser.parseSymbolName(name, getSymNameAttrName(result.name),
                             result.attributes))
    return failure();
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  SMLoc sigLoc = parser.getCurrentLocation();
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  if (!resultTypes.empty())
    return parser.emitError(sigLoc, "kernel_c4: a kernel returns nothing");
  SmallVector<int64_t> gridArgs, gridDims, gridTiles;
  int64_t threads;
  if (parser.parseKeyword("grid") ||
      parseGrid(parser, args, gridArgs, gridDims, gridTiles) ||
      parser.parseKeyword("threads") || parser.parseInteger(threads))
    return failure();
  Builder &b = parser.getBuilder();
  SmallVector<Type> argTypes;
  for (auto &a : args)
    argTypes.push_back(a.type);
  result.addAttribute(getFunctionTypeAttrName(result.name),
                      TypeAttr::get(b.getFunctionType(argTypes, {})));
  result.addAttribute(getGridArgsAttrName(result.name),
                      b.getDenseI64ArrayAttr(gridArgs));
  result.addAttribute(getGridDimsAttrName(result.name),
                      b.getDenseI64ArrayAttr(gridDims));
  result.addAttribute(getGridTilesAttrName(result.name),
                      b.getDenseI64ArrayAttr(gridTiles));
  result.addAttribute(getThreadsAttrName(result.name),
                      b.getI64IntegerAttr(threads));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  KernelOp::ensureTerminator(*body, b, result.location);
  return success();
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  p << '(';
  llvm::interleaveComma(getBodyBlock().getArguments(), p,
                        [&](BlockArgument a) { p.printRegionArgument(a); });
  p << ") grid [";
  for (unsigned i = 0, e = getNumGridDims(); i < e; ++i) {
    if (i)
      p << ", ";
    int64_t arg = getGridArgs()[i];
    if (arg < 0) {
      p << getGridTiles()[i];
      continue;
    }
    p.printOperand(getBodyBlock().getArgument(arg));
    p << '[' << getGridDims()[i] << "] / " << getGridTiles()[i];
  }
  p << "] threads " << getThreads();
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getSymNameAttrName(), getFunctionTypeAttrName(), getGridArgsAttrName(),
       getGridDimsAttrName(), getGridTilesAttrName(), getThreadsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult KernelOp::verify() {
  FunctionType type = getFunctionType();
  if (type.getNumResults() != 0)
    return emitOpError("kernel_c4: a kernel returns nothing, got ")
           << type.getNumResults() << " results";
  Block &block = getBodyBlock();
  if (block.getNumArguments() != type.getNumInputs())
    return emitOpError("expects ")
           << type.getNumInputs() << " body arguments, one per kernel argument";
  for (auto [i, t] : llvm::enumerate(type.getInputs())) {
    if (block.getArgument(i).getType() != t)
      return emitOpError("body argument #") << i << " must have type " << t;
    if (auto m = dyn_cast<MemRefType>(t)) {
      if (!m.getLayout().isIdentity() || m.getMemorySpace())
        return emitOpError("kernel_c4: argument #")
               << i << " must be a row-major global memref with no memory "
               << "space, got " << t;
      continue;
    }
    if (!t.isInteger(32) && !t.isInteger(64) && !t.isF32())
      return emitOpError("kernel_c4: argument #")
             << i << " must be a memref or an i32, i64 or f32 scalar, got "
             << t;
  }
  unsigned n = getNumGridDims();
  if (n < 1 || n > 3 || getGridDims().size() != n || getGridTiles().size() != n)
    return emitOpError("kernel_c1: the grid must have 1 to 3 dimensions, got ")
           << n;
  for (unsigned i = 0; i < n; ++i) {
    int64_t arg = getGridArgs()[i], dim = getGridDims()[i];
    int64_t tileSize = getGridTiles()[i];
    if (tileSize <= 0)
      return emitOpError("kernel_c2: grid dimension ")
             << i << " has tile size " << tileSize << "; it must be positive";
    if (arg < 0)
      continue;
    if (arg >= (int64_t)type.getNumInputs())
      return emitOpError("kernel_c2: grid dimension ")
             << i << " refers to argument #" << arg << ", but the kernel has "
             << type.getNumInputs() << " arguments";
    auto m = dyn_cast<MemRefType>(type.getInput(arg));
    if (!m)
      return emitOpError("kernel_c2: grid dimension ")
             << i << " must refer to a memref argument, argument #" << arg
             << " is " << type.getInput(arg);
    if (dim < 0 || dim >= m.getRank())
      return emitOpError("kernel_c2: grid dimension ")
             << i << " uses dimension " << dim << " of argument #" << arg
             << ", which has rank " << m.getRank();
  }
  if (getMinBlocksPerSm() && *getMinBlocksPerSm() < 1)
    return emitOpError("kernel_c5: min_blocks_per_sm (")
           << *getMinBlocksPerSm() << ") must be at least 1";
  if (getThreads() <= 0 || getThreads() % kWarpSize != 0)
    return emitOpError("kernel_c3: threads (")
           << getThreads() << ") must be a positive multiple of the warp size ("
           << kWarpSize << ")";
  return success();
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

LogicalResult AllocSharedOp::verify() { return verifyAllocPlacement(*this); }

/// alloc_c2: whether `layout` can lay out a fragment of rank `rank`.
static LogicalResult verifyLayout(Operation *op, Attribute layout,
                                  int64_t rank) {
  if (auto mma = dyn_cast<MmaLayoutAttr>(layout)) {
    if (rank != 2 || mma.getWarpgroups() < 1)
      return op->emitOpError("alloc_c2: ")
             << layout << " lays out 2-d fragments with at least one "
             << "warpgroup, not rank " << rank;
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
  if (failed(verifyAllocPlacement(*this)))
    return failure();
  if (std::optional<Attribute> layout = getLayout())
    return verifyLayout(*this, *layout, getType().getShape().size());
  return success();
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
  if (getValue().getType() != elt)
    return emitOpError("fill_c1: the value has type ")
           << getValue().getType() << ", it must be the tile's element type "
           << elt;
  return success();
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

LogicalResult CopyOp::verify() {
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
  auto checkOffsets = [&](MemRefType mem, ValueRange offsets,
                          StringRef side) -> LogicalResult {
    int64_t want = mem ? mem.getRank() : 0;
    if ((int64_t)offsets.size() != want)
      return emitOpError("copy_c1: the ")
             << side << " takes " << want << " offsets ("
             << (mem ? "one per memref dimension" : "it is a tile") << "), got "
             << offsets.size();
    return success();
  };
  if (failed(checkOffsets(srcMem, getSourceOffsets(), "source")) ||
      failed(checkOffsets(dstMem, getDestOffsets(), "destination")))
    return failure();
  auto srcShaped = cast<ShapedType>(srcType);
  auto dstShaped = cast<ShapedType>(dstType);
  // A tile spans the innermost dimensions of a memref of higher rank.
  MemRefType mem = srcMem ? srcMem : dstMem;
  ShapedType tileType = srcMem ? dstShaped : srcShaped;
  if (mem ? tileType.getRank() > mem.getRank()
          : srcShaped.getRank() != dstShaped.getRank())
    return emitOpError("copy_c2: a tile of rank ")
           << tileType.getRank() << " cannot be copied "
           << (mem ? "to or from a memref" : "to or from a tile") << " of rank "
           << (mem ? mem.getRank() : (srcMem ? srcShaped : dstShaped).getRank())
           << (mem ? "; the tile spans the memref's innermost dimensions"
                   : "; tiles must have the same rank");
  if (!srcMem && !dstMem && srcShaped.getShape() != dstShaped.getShape())
    return emitOpError("copy_c3: tiles of shapes ")
           << srcType << " and " << dstType << " must have the same shape";
  if (srcMem && isa<SharedType>(dstType) &&
      srcShaped.getElementType() != dstShaped.getElementType())
    return emitOpError("copy_c4: a copy from global into shared memory keeps "
                       "the element type; got ")
           << srcShaped.getElementType() << " into "
           << dstShaped.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

LogicalResult GemmOp::verify() {
  auto a = cast<ShapedType>(getA().getType());
  auto b = dyn_cast<SharedType>(getB().getType());
  auto c = dyn_cast<FragmentType>(getC().getType());
  if (!b || !c)
    return emitOpError("gemm_c1: A must be a shared tile or a fragment, B a "
                       "shared tile and C a fragment, got ")
           << getA().getType() << ", " << getB().getType() << ", "
           << getC().getType();
  if (a.getShape().size() != 2 || b.getShape().size() != 2 ||
      c.getShape().size() != 2)
    return emitOpError("gemm_c2: A, B and C must be 2-d tiles");
  int64_t m = a.getShape()[getTransposeA() ? 1 : 0];
  int64_t ka = a.getShape()[getTransposeA() ? 0 : 1];
  int64_t kb = b.getShape()[getTransposeB() ? 1 : 0];
  int64_t n = b.getShape()[getTransposeB() ? 0 : 1];
  if (ka != kb)
    return emitOpError("gemm_c2: op(A) is ")
           << m << "x" << ka << " and op(B) is " << kb << "x" << n
           << "; their K dimensions must agree";
  if (c.getShape()[0] != m || c.getShape()[1] != n)
    return emitOpError("gemm_c2: C is ")
           << c.getShape()[0] << "x" << c.getShape()[1] << ", it must be " << m
           << "x" << n << " (M of op(A) by N of op(B))";
  Type ea = a.getElementType(), eb = b.getElementType();
  if (ea != eb || !(ea.isF16() || ea.isBF16()))
    return emitOpError("gemm_c3: A and B must both be f16 or both bf16, got ")
           << ea << " and " << eb;
  if (!c.getElementType().isF32())
    return emitOpError("gemm_c4: the accumulator must be f32, got ")
           << c.getElementType();
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
  if (ArrayRef<int64_t>(expected) != dst.getShape()) {
    InFlightDiagnostic d = emitOpError("reduce_c2: dest must have shape ");
    llvm::interleave(expected, d, "x");
    return d << " (the source without dim " << dim << "), got " << dst;
  }
  return success();
}

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

LogicalResult ParallelOp::verify() {
  if (getOutputs().empty())
    return emitOpError("parallel_c1: at least one output tile is required");
  auto space = cast<ShapedType>(getOutputs()[0].getType()).getShape();
  for (Value out : getOutputs())
    if (cast<ShapedType>(out.getType()).getShape() != space)
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

//===----------------------------------------------------------------------===//
// PipelinedOp
//===----------------------------------------------------------------------===//

ParseResult PipelinedOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iv;
  OpAsmParser::UnresolvedOperand lb, ub, step;
  int64_t stages;
  Type index = parser.getBuilder().getIndexType();
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parser.parseOperand(lb) || parser.parseKeyword("to") ||
      parser.parseOperand(ub) || parser.parseKeyword("step") ||
      parser.parseOperand(step) || parser.parseKeyword("num_stages") ||
      parser.parseInteger(stages) ||
      parser.resolveOperands({lb, ub, step}, index, result.operands))
    return failure();
  result.addAttribute(getNumStagesAttrName(result.name),
                      parser.getBuilder().getI64IntegerAttr(stages));
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
  p << ' ' << getInductionVar() << " = " << getLower() << " to " << getUpper()
    << " step " << getStep() << " num_stages " << getNumStages();
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getNumStagesAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult PipelinedOp::verify() {
  if (getNumStages() < 1)
    return emitOpError("pipelined_c1: num_stages (")
           << getNumStages() << ") must be at least 1";
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError("the body takes one index argument, the iteration");
  return success();
}

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
