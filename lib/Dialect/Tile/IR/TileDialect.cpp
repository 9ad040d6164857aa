//===- TileDialect.cpp - The tile dialect and its types -----------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileAttrs.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileDialect.cpp.inc"

/// Parses `128x64xf16` (or `?x64xf16` in a parametric kernel) into a shape
/// and an element type.
static ParseResult parseTileShape(AsmParser &parser,
                                  SmallVector<int64_t> &shape,
                                  Type &elementType) {
  if (parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  return success();
}

static void printTileShape(AsmPrinter &printer, ArrayRef<int64_t> shape,
                           Type elementType) {
  for (int64_t d : shape) {
    if (ShapedType::isDynamic(d))
      printer << '?';
    else
      printer << d;
    printer << 'x';
  }
  printer << elementType;
}

#include "tile/Dialect/Tile/IR/TileHardware.h"
#include "llvm/Support/MathExtras.h"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.cpp.inc"

/// Shared by both tile types: a tile is a non-empty box of scalars; `?`
/// dimensions and `!tile.param` elements stand for what a parametric kernel
/// fixes when it is specialised.
static LogicalResult
verifyTileType(function_ref<InFlightDiagnostic()> emitError,
               ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty() || shape.size() > 3)
    return emitError() << "a tile has rank 1 to 3, got rank " << shape.size();
  // Bounded, so that arithmetic on sizes and layouts cannot overflow
  // (the largest tile a block can hold is far smaller: 227 KB of shared
  // memory, 255 registers per thread).
  int64_t elements = 1;
  for (int64_t d : shape) {
    if (ShapedType::isDynamic(d))
      continue;
    if (d <= 0)
      return emitError() << "tile dimensions must be positive, got " << d;
    if (llvm::MulOverflow(elements, d, elements) || elements > kMaxTileElements)
      return emitError() << "a tile has at most " << kMaxTileElements
                         << " elements";
  }
  if (!elementType.isIntOrFloat() && !isa<ParamType>(elementType))
    return emitError() << "tile elements must be integers or floats, got "
                       << elementType;
  return success();
}

LogicalResult SharedType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> shape, Type elementType) {
  return verifyTileType(emitError, shape, elementType);
}

LogicalResult FragmentType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayRef<int64_t> shape, Type elementType) {
  return verifyTileType(emitError, shape, elementType);
}

LogicalResult
tile::checkValueTypes(Operation *root,
                      function_ref<LogicalResult(Operation *, Type)> check) {
  WalkResult walk = root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Type t : op->getResultTypes())
      if (failed(check(op, t)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(check(op, arg.getType())))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}
