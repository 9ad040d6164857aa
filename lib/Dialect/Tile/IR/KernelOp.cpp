//===- KernelOp.cpp - tile.kernel: syntax, parameters, contracts --------===//
//
// tile.kernel's custom form, its verifier (kernel_c1 .. kernel_c8) and the
// accessors of a specialised kernel's sizes.
//
//===----------------------------------------------------------------------===//

#include "ParamSyntax.h"
#include "tile/Dialect/Tile/IR/TileHardware.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileParams.h"

#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tile;

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
                     builder.getI64ArrayAttr(gridTiles));
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

//===----------------------------------------------------------------------===//
// Sizes of a specialised kernel
//===----------------------------------------------------------------------===//

static int64_t staticSize(Attribute size) {
  assert(isa<IntegerAttr>(size) && "a parameter reference survived "
                                   "tile-specialize");
  return cast<IntegerAttr>(size).getInt();
}

int64_t KernelOp::getThreadCount() { return staticSize(getThreads()); }

int64_t KernelOp::getGridTile(unsigned dim) {
  return staticSize(getGridTiles()[dim]);
}

SmallVector<int64_t, 3> KernelOp::getClusterShape() {
  SmallVector<int64_t, 3> shape(3, 1);
  if (std::optional<ArrayAttr> cluster = getCluster())
    for (auto [i, a] : llvm::enumerate(*cluster))
      shape[i] = staticSize(a);
  return shape;
}

std::optional<int64_t> KernelOp::getMinBlocks() {
  if (std::optional<Attribute> blocks = getMinBlocksPerSm())
    return staticSize(*blocks);
  return std::nullopt;
}

LogicalResult KernelOp::requireSpecialised(StringRef pass) {
  if (!isParametric())
    return success();
  return emitOpError("is parametric: run tile-specialize before ") << pass;
}

int64_t PipelinedOp::getStageCount() { return staticSize(getNumStages()); }

bool PipelinedOp::isWarpSpecialized() {
  Attribute flag = getWarpSpecializeAttr();
  return flag && staticSize(flag) != 0;
}

bool TurnOp::isEnabled() {
  Attribute flag = getEnabledAttr();
  return !flag || staticSize(flag) != 0;
}

//===----------------------------------------------------------------------===//
// Custom form
//===----------------------------------------------------------------------===//

/// The index of the kernel argument that `operand` names, or -1.
static int64_t findArgument(ArrayRef<OpAsmParser::Argument> args,
                            const OpAsmParser::UnresolvedOperand &operand) {
  auto it = llvm::find_if(args, [&](const OpAsmParser::Argument &a) {
    return a.ssaName.name == operand.name && a.ssaName.number == operand.number;
  });
  return it == args.end() ? -1 : it - args.begin();
}

static thread_local KernelParseScope *currentKernel;

KernelParseScope::KernelParseScope(ArrayRef<OpAsmParser::Argument> args)
    : args(args), previous(currentKernel) {
  currentKernel = this;
}

KernelParseScope::~KernelParseScope() { currentKernel = previous; }

std::optional<Type>
tile::lookupKernelArgType(const OpAsmParser::UnresolvedOperand &operand) {
  if (!currentKernel)
    return std::nullopt;
  int64_t arg = findArgument(currentKernel->args, operand);
  if (arg < 0)
    return std::nullopt;
  return currentKernel->args[arg].type;
}

void tile::recordTileType(OpAsmParser &parser, unsigned result, Type type) {
  auto [name, number] = parser.getResultName(result);
  if (currentKernel && !name.empty())
    currentKernel->tiles[{name.ltrim('%').str(), number}] = type;
}

std::optional<Type>
tile::lookupOperandType(const OpAsmParser::UnresolvedOperand &operand) {
  if (std::optional<Type> arg = lookupKernelArgType(operand))
    return arg;
  if (!currentKernel)
    return std::nullopt;
  auto it = currentKernel->tiles.find(
      {operand.name.ltrim('%').str(), operand.number});
  if (it == currentKernel->tiles.end())
    return std::nullopt;
  return it->second;
}

/// `%X[1]`, a dimension of a kernel argument, if the next token is an
/// operand; `what` prefixes the error when it names no argument.
static OptionalParseResult
parseOptionalArgDim(OpAsmParser &parser, ArrayRef<OpAsmParser::Argument> args,
                    StringRef what, int64_t &arg, int64_t &dim) {
  OpAsmParser::UnresolvedOperand operand;
  SMLoc loc = parser.getCurrentLocation();
  OptionalParseResult isOperand = parser.parseOptionalOperand(operand);
  if (!isOperand.has_value() || failed(*isOperand))
    return isOperand;
  arg = findArgument(args, operand);
  if (arg < 0)
    return parser.emitError(loc) << what << " refers to '" << operand.name
                                 << "', which is not a kernel argument";
  return failure(parser.parseLSquare() || parser.parseInteger(dim) ||
                 parser.parseRSquare());
}

// grid [%X[1] / 128, %X[0] / BM, 4]
static ParseResult parseGrid(OpAsmParser &parser,
                             ArrayRef<OpAsmParser::Argument> args,
                             SmallVectorImpl<int64_t> &gridArgs,
                             SmallVectorImpl<int64_t> &gridDims,
                             SmallVectorImpl<Attribute> &gridTiles) {
  auto parseOne = [&]() -> ParseResult {
    Attribute tile;
    int64_t arg = -1, dim = 0;
    OptionalParseResult isArgDim =
        parseOptionalArgDim(parser, args, "kernel_c2: grid extent", arg, dim);
    if (isArgDim.has_value() && (failed(*isArgDim) || parser.parseSlash()))
      return failure();
    if (parseSize(parser, tile))
      return failure();
    gridArgs.push_back(arg);
    gridDims.push_back(dim);
    gridTiles.push_back(tile);
    return success();
  };
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                        parseOne);
}

// requires [%A[1] == %B[0], %X[1] <= 2 * BN, %Q[1] mod %K[1] == 0]: each
// side an integer expression over argument dimensions, integer parameters
// and integers.
static ParseResult parseContracts(OpAsmParser &parser,
                                  ArrayRef<OpAsmParser::Argument> args,
                                  SmallVectorImpl<Attribute> &contracts) {
  MLIRContext *ctx = parser.getContext();
  return parser.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
        SmallVector<Attribute> operands;
        auto symbolFor = [&](Attribute operand) {
          const Attribute *it = llvm::find(operands, operand);
          if (it == operands.end()) {
            operands.push_back(operand);
            it = operands.end() - 1;
          }
          return getAffineSymbolExpr(it - operands.begin(), ctx);
        };
        auto leaf = [&](AffineExpr &expr) -> ParseResult {
          int64_t arg = -1, dim = 0;
          OptionalParseResult isArgDim =
              parseOptionalArgDim(parser, args, "a contract", arg, dim);
          if (isArgDim.has_value()) {
            if (failed(*isArgDim))
              return failure();
            expr = symbolFor(DenseI64ArrayAttr::get(ctx, {arg, dim}));
            return success();
          }
          // A parameter; the verifier checks that it is an integer one.
          SMLoc loc = parser.getCurrentLocation();
          StringRef name;
          if (parser.parseOptionalKeyword(&name) || !isValidParamName(name))
            return parser.emitError(loc, "expected %ARG[DIM], an integer or "
                                         "an integer parameter in a contract");
          expr = symbolFor(ParamRefAttr::get(ctx, name));
          return success();
        };
        AffineExpr lhs, rhs;
        Relation relation;
        if (parseIntExpr(parser, leaf, lhs) ||
            parseRelation(parser, relation) || parseIntExpr(parser, leaf, rhs))
          return failure();
        contracts.push_back(ContractAttr::get(
            ctx, getRelationName(relation),
            AffineMap::get(0, operands.size(), {lhs, rhs}, ctx),
            ArrayAttr::get(ctx, operands)));
        return success();
      });
}

/// `{BM = 128 in [64, 128], T = f16}`: the defaults, and the candidates of
/// those followed by `in`.
static ParseResult parseParams(OpAsmParser &parser, DictionaryAttr &params,
                               NamedAttrList &candidates) {
  NamedAttrList defaults;
  auto parseOne = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    std::string name;
    Attribute value;
    if (parser.parseKeywordOrString(&name) || parser.parseEqual() ||
        parser.parseAttribute(value))
      return failure();
    if (defaults.get(name))
      return parser.emitError(loc, "kernel_c6: parameter '")
             << name << "' is declared twice";
    defaults.append(name, value);
    if (failed(parser.parseOptionalKeyword("in")))
      return success();
    ArrayAttr list;
    if (parser.parseAttribute(list))
      return failure();
    candidates.append(name, list);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, parseOne))
    return failure();
  params = defaults.getDictionary(parser.getContext());
  return success();
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
  Builder &b = parser.getBuilder();

  // params {BM = 128 in [64, 128], ...} space {...} where [...]
  DictionaryAttr params, space;
  NamedAttrList candidates;
  if (succeeded(parser.parseOptionalKeyword("params"))) {
    if (parseParams(parser, params, candidates))
      return failure();
    result.addAttribute(getParamsAttrName(result.name), params);
  }
  SMLoc spaceLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("space"))) {
    if (parser.parseAttribute(space))
      return failure();
    for (NamedAttribute s : space) {
      if (candidates.get(s.getName()))
        return parser.emitError(spaceLoc, "kernel_c7: the candidates of '")
               << s.getName().getValue() << "' are given twice";
      candidates.push_back(s);
    }
  }
  if (!candidates.empty())
    result.addAttribute(getSpaceAttrName(result.name),
                        candidates.getDictionary(parser.getContext()));
  SmallVector<StringRef> names;
  if (params)
    for (NamedAttribute p : params)
      if (isa<IntegerAttr>(p.getValue()))
        names.push_back(p.getName().getValue());
  if (succeeded(parser.parseOptionalKeyword("where"))) {
    SmallVector<Attribute> sets;
    if (parseConstraints(parser, names, sets))
      return failure();
    result.addAttribute(getConstraintsAttrName(result.name),
                        b.getArrayAttr(sets));
  }

  SmallVector<int64_t> gridArgs, gridDims;
  SmallVector<Attribute> gridTiles;
  Attribute threads;
  if (parser.parseKeyword("grid") ||
      parseGrid(parser, args, gridArgs, gridDims, gridTiles) ||
      parser.parseKeyword("threads") || parseSize(parser, threads))
    return failure();
  // cluster [2, 1]
  if (succeeded(parser.parseOptionalKeyword("cluster"))) {
    SmallVector<Attribute> cluster;
    if (parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
              return parseSize(parser, cluster.emplace_back());
            }))
      return failure();
    result.addAttribute(getClusterAttrName(result.name),
                        b.getArrayAttr(cluster));
  }
  if (succeeded(parser.parseOptionalKeyword("requires"))) {
    SmallVector<Attribute> contracts;
    if (parseContracts(parser, args, contracts))
      return failure();
    result.addAttribute(getContractsAttrName(result.name),
                        b.getArrayAttr(contracts));
  }
  SmallVector<Type> argTypes;
  SmallVector<StringRef> argNames;
  for (auto &a : args) {
    argTypes.push_back(a.type);
    StringRef ssa = a.ssaName.name.drop_front(); // without '%'
    argNames.push_back(isValidParamName(ssa) ? ssa : StringRef());
  }
  if (llvm::any_of(argNames, [](StringRef n) { return !n.empty(); }))
    result.addAttribute(getArgNamesAttrName(result.name),
                        b.getStrArrayAttr(argNames));
  result.addAttribute(getFunctionTypeAttrName(result.name),
                      TypeAttr::get(b.getFunctionType(argTypes, {})));
  result.addAttribute(getGridArgsAttrName(result.name),
                      b.getDenseI64ArrayAttr(gridArgs));
  result.addAttribute(getGridDimsAttrName(result.name),
                      b.getDenseI64ArrayAttr(gridDims));
  result.addAttribute(getGridTilesAttrName(result.name),
                      b.getArrayAttr(gridTiles));
  result.addAttribute(getThreadsAttrName(result.name), threads);
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  KernelParseScope scope(args);
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
  p << ')';
  if (std::optional<DictionaryAttr> params = getParams())
    p << " params " << *params;
  if (std::optional<DictionaryAttr> space = getSpace())
    p << " space " << *space;
  if (std::optional<ArrayAttr> sets = getConstraints()) {
    p << " where ";
    printConstraints(p, *sets, getIntegerParams(*this));
  }
  p << " grid [";
  for (unsigned i = 0, e = getNumGridDims(); i < e; ++i) {
    if (i)
      p << ", ";
    int64_t arg = getGridArgs()[i];
    if (arg >= 0) {
      p.printOperand(getBodyBlock().getArgument(arg));
      p << '[' << getGridDims()[i] << "] / ";
    }
    printSize(p, getGridTiles()[i]);
  }
  p << "] threads ";
  printSize(p, getThreads());
  if (std::optional<ArrayAttr> cluster = getCluster()) {
    p << " cluster [";
    llvm::interleaveComma(*cluster, p, [&](Attribute a) { printSize(p, a); });
    p << ']';
  }
  if (std::optional<ArrayAttr> contracts = getContracts()) {
    p << " requires [";
    llvm::interleaveComma(*contracts, p, [&](Attribute a) {
      cast<ContractAttr>(a).print(
          p.getStream(), [&](raw_ostream &, int64_t arg) {
            p.printOperand(getBodyBlock().getArgument(arg));
          });
    });
    p << ']';
  }
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getSymNameAttrName(), getFunctionTypeAttrName(), getGridArgsAttrName(),
       getGridDimsAttrName(), getGridTilesAttrName(), getThreadsAttrName(),
       getParamsAttrName(), getSpaceAttrName(), getConstraintsAttrName(),
       getContractsAttrName(), getArgNamesAttrName(), getClusterAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

StringRef KernelOp::getArgName(unsigned arg) {
  std::optional<ArrayAttr> names = getArgNames();
  return names && arg < names->size()
             ? cast<StringAttr>((*names)[arg]).getValue()
             : StringRef();
}

void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  if (&region != &getBody())
    return;
  for (BlockArgument arg : getBodyBlock().getArguments())
    if (StringRef name = getArgName(arg.getArgNumber()); !name.empty())
      setNameFn(arg, name);
}

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

/// kernel_c2: `arg`/`dim` name a dimension of a memref argument.
static LogicalResult verifyArgDim(KernelOp op, StringRef label, StringRef what,
                                  int64_t arg, int64_t dim) {
  FunctionType type = op.getFunctionType();
  if (arg < 0 || arg >= (int64_t)type.getNumInputs())
    return op.emitOpError(label)
           << ": " << what << " refers to argument #" << arg
           << ", but the kernel has " << type.getNumInputs() << " arguments";
  auto m = dyn_cast<MemRefType>(type.getInput(arg));
  if (!m)
    return op.emitOpError(label)
           << ": " << what << " must refer to a memref argument, argument #"
           << arg << " is " << type.getInput(arg);
  if (dim < 0 || dim >= m.getRank())
    return op.emitOpError(label)
           << ": " << what << " uses dimension " << dim << " of argument #"
           << arg << ", which has rank " << m.getRank();
  return success();
}

/// kernel_c6/c7: the declared parameters, their space and constraints, and
/// every reference to them in the kernel.
static LogicalResult verifyParams(KernelOp op) {
  std::optional<DictionaryAttr> params = op.getParams();
  if (!params) {
    if (op.getSpace() || op.getConstraints())
      return op.emitOpError("kernel_c7: `space` and `where` need `params`");
  } else {
    for (NamedAttribute p : *params) {
      StringRef name = p.getName().getValue();
      if (!isValidParamName(name))
        return op.emitOpError("kernel_c6: parameter name '")
               << name << "' must be an identifier (letters, digits, _) and "
               << "not floordiv, ceildiv or mod";
      if (!isa<IntegerAttr, TypeAttr>(p.getValue()))
        return op.emitOpError("kernel_c6: parameter '")
               << name << "' must default to an integer, a boolean or a "
               << "type, got " << p.getValue();
      if (std::optional<std::string> why =
              checkTypeParamValue(name, p.getValue()))
        return op.emitOpError("kernel_c6: the default of ") << *why;
    }
  }
  if (std::optional<DictionaryAttr> space = op.getSpace()) {
    for (NamedAttribute s : *space) {
      StringRef name = s.getName().getValue();
      auto list = dyn_cast<ArrayAttr>(s.getValue());
      if (!list || list.empty())
        return op.emitOpError("kernel_c7: the space of '")
               << name << "' must be a non-empty list of candidates";
      for (auto [i, c] : llvm::enumerate(list)) {
        if (std::optional<std::string> why = checkBinding(op, name, c))
          return op.emitOpError("kernel_c7: ") << *why;
        if (llvm::is_contained(list.getValue().take_front(i), c))
          return op.emitOpError("kernel_c7: the space of '")
                 << name << "' lists " << c << " twice";
      }
      if (std::optional<std::string> why =
              checkBinding(op, name, params->get(name)))
        return op.emitOpError("kernel_c7: the default of ")
               << StringRef(*why).drop_front(strlen("parameter "));
    }
  }
  if (params) {
    std::string error;
    if (failed(
            resolveBindings(op, DictionaryAttr::get(op.getContext()), error)))
      return op.emitOpError("kernel_c7: the defaults break a ")
             << StringRef(error);
  }
  // References: #tile.param in attributes, !tile.param in types.
  auto kindOf = [&](StringRef name) -> Attribute {
    return params ? params->get(name) : Attribute();
  };
  std::optional<InFlightDiagnostic> bad;
  // A size names an integer parameter; a flag (warp_specialize) or an
  // operand of a contract (a boolean counting as 0 or 1) an integer or a
  // boolean one.
  auto checkRef = [&](Operation *at, StringRef name, bool wantType,
                      bool flag = false) {
    Attribute decl = kindOf(name);
    if (bad ||
        (decl && isa<TypeAttr>(decl) == wantType &&
         (wantType || flag || !cast<IntegerAttr>(decl).getType().isInteger(1))))
      return;
    bad.emplace(at->emitOpError("kernel_c6: '")
                << name << "' is not "
                << (wantType ? "a type"
                             : (flag ? "an integer or boolean" : "an integer"))
                << " parameter of kernel '" << op.getSymName() << "'");
  };
  op->walk([&](Operation *inner) {
    DictionaryAttr attrs = inner->getAttrDictionary();
    // The attribute whose parameters may be flags (the op's verifier says
    // which kind each needs): contracts compute with booleans as 0 and 1.
    SmallVector<StringAttr, 2> flags;
    if (auto pipelined = dyn_cast<PipelinedOp>(inner))
      flags = {pipelined.getWarpSpecializeAttrName()};
    else if (auto let = dyn_cast<LetOp>(inner))
      flags = {let.getValuesAttrName()};
    else if (auto copy = dyn_cast<CopyOp>(inner))
      flags = {copy.getThroughIfAttrName()};
    else if (auto turn = dyn_cast<TurnOp>(inner))
      flags = {turn.getEnabledAttrName()};
    else if (auto gemm = dyn_cast<GemmOp>(inner))
      flags = {gemm.getTransposeAAttrName(), gemm.getTransposeBAttrName()};
    else if (auto kernel = dyn_cast<KernelOp>(inner))
      flags = {kernel.getContractsAttrName()};
    for (NamedAttribute a : attrs)
      a.getValue().walk([&](ParamRefAttr r) {
        checkRef(inner, r.getName(), false,
                 llvm::is_contained(flags, a.getName()));
      });
    attrs.walk([&](ParamType t) { checkRef(inner, t.getName(), true); });
    for (Type t : inner->getResultTypes())
      t.walk([&](ParamType p) { checkRef(inner, p.getName(), true); });
    for (Region &r : inner->getRegions())
      for (Block &blk : r)
        for (BlockArgument a : blk.getArguments())
          a.getType().walk(
              [&](ParamType p) { checkRef(inner, p.getName(), true); });
  });
  return failure(bad.has_value());
}

std::optional<std::string> tile::checkKernelName(StringRef name) {
  bool ok =
      !name.empty() && (int64_t)name.size() <= kMaxKernelName &&
      !llvm::isDigit(name.front()) &&
      llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
  if (ok)
    return std::nullopt;
  std::string why;
  llvm::raw_string_ostream os(why);
  os << "the name '";
  llvm::printEscapedString(name.take_front(64), os);
  os << (name.size() > 64 ? "...' " : "' ") << "(" << name.size()
     << " characters) must be an identifier of 1 to " << kMaxKernelName
     << " letters, digits and '_', not starting with a digit";
  return why;
}

/// kernel_c10: the body is the code of a whole block, run by each of its
/// threads; an op of another dialect that writes memory (memref.store,
/// memref.atomic_rmw, ...) would write once per thread. Tile operations
/// write on behalf of the block.
static LogicalResult verifyMemoryWrites(KernelOp kernel) {
  WalkResult walk = kernel.getBody().walk([&](Operation *op) {
    if (isa_and_present<TileDialect>(op->getDialect()))
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects || !effects.hasEffect<MemoryEffects::Write>())
      return WalkResult::advance();
    op->emitOpError("kernel_c10: writes memory in a tile.kernel, where it "
                    "would run once per thread of every block; write "
                    "through tile operations (tile.copy, or tile.atomic to "
                    "combine)");
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult KernelOp::verify() {
  if (std::optional<std::string> why = checkKernelName(getSymName()))
    return emitOpError("kernel_c9: ") << *why;
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
      if (m.getRank() < 1 || m.getRank() > kMaxArgRank)
        return emitOpError("kernel_c4: argument #")
               << i << " must be a memref of rank 1 to " << kMaxArgRank
               << ", got rank " << m.getRank();
      Type element = m.getElementType();
      if (!element.isIntOrIndexOrFloat() && !isa<ParamType>(element))
        return emitOpError("kernel_c4: argument #")
               << i << " must be a memref of integers, floats or index, got "
               << t;
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
    auto tileSize = dyn_cast<IntegerAttr>(getGridTiles()[i]);
    if (tileSize && tileSize.getInt() <= 0)
      return emitOpError("kernel_c2: grid dimension ")
             << i << " has tile size " << tileSize.getInt()
             << "; it must be positive";
    if (arg >= 0 &&
        failed(verifyArgDim(*this, "kernel_c2",
                            ("grid dimension " + Twine(i)).str(), arg, dim)))
      return failure();
  }
  if (auto blocks = dyn_cast_or_null<IntegerAttr>(
          getMinBlocksPerSm().value_or(Attribute()));
      blocks && blocks.getInt() < 1)
    return emitOpError("kernel_c5: min_blocks_per_sm (")
           << blocks.getInt() << ") must be at least 1";
  if (std::optional<ArrayAttr> cluster = getCluster()) {
    if (cluster->empty() || cluster->size() > n)
      return emitOpError("kernel_c11: the cluster has ")
             << cluster->size() << " dimension(s); give 1 to " << n
             << ", one per grid dimension from x";
    int64_t blocks = 1;
    for (auto [i, a] : llvm::enumerate(*cluster)) {
      auto size = dyn_cast<IntegerAttr>(a);
      if (!size)
        continue; // a parameter, checked once bound
      if (size.getInt() < 1)
        return emitOpError("kernel_c11: cluster dimension ")
               << i << " is " << size.getInt() << "; it must be at least 1";
      blocks *= size.getInt();
    }
    if (blocks > kMaxClusterBlocks)
      return emitOpError("kernel_c11: a cluster of ")
             << blocks << " blocks; at most " << kMaxClusterBlocks
             << " (the portable cluster size)";
  }
  if (auto threads = dyn_cast<IntegerAttr>(getThreads());
      threads && (threads.getInt() <= 0 || threads.getInt() % kWarpSize != 0 ||
                  threads.getInt() > kMaxBlockThreads))
    return emitOpError("kernel_c3: threads (")
           << threads.getInt()
           << ") must be a positive multiple of the warp size (" << kWarpSize
           << "), at most " << kMaxBlockThreads;
  // The runtime reads any number of contracts, of at most 24 postfix items
  // each (TILE_RT_MAX_CONTRACT_TERMS; KernelABI.md).
  constexpr int64_t kMaxContractItems = 24;
  if (std::optional<ArrayAttr> contracts = getContracts())
    for (auto [i, a] : llvm::enumerate(*contracts)) {
      auto c = cast<ContractAttr>(a);
      std::string what = "contract #" + std::to_string(i);
      if (!getRelationByName(c.getRelation()))
        return emitOpError("kernel_c8: ")
               << what << " has relation '" << c.getRelation()
               << "'; expected eq, le, ge, lt or gt";
      AffineMap sides = c.getSides();
      if (sides.getNumDims() != 0 || sides.getNumResults() != 2 ||
          sides.getNumSymbols() != c.getOperands().size())
        return emitOpError("kernel_c8: ")
               << what << " must compare two expressions of its "
               << c.getOperands().size() << " operands as symbols, got "
               << AffineMapAttr::get(sides);
      bool readsDim = false;
      for (auto [j, operand] : llvm::enumerate(c.getOperands())) {
        if (std::optional<std::pair<int64_t, int64_t>> dim = c.getArgDim(j)) {
          if (failed(verifyArgDim(*this, "kernel_c8", what, dim->first,
                                  dim->second)))
            return failure();
          readsDim = true;
        } else if (!isa<IntegerAttr, ParamRefAttr>(operand)) {
          return emitOpError("kernel_c8: ")
                 << what << " has operand " << operand
                 << "; expected a dimension (array<i64: arg, dim>), an "
                 << "integer or a #tile.param";
        }
      }
      if (!readsDim)
        return emitOpError("kernel_c8: ")
               << what << " reads no argument dimension; a relation "
               << "between parameters belongs in `where`";
      int64_t items = getPostfixLength(sides.getResult(0)) +
                      getPostfixLength(sides.getResult(1));
      if (items > kMaxContractItems)
        return emitOpError("kernel_c8: ")
               << what << " has " << items
               << " operands and operators; the runtime reads at most "
               << kMaxContractItems << " (split it into several contracts)";
    }
  if (failed(verifyMemoryWrites(*this)))
    return failure();
  return verifyParams(*this);
}
