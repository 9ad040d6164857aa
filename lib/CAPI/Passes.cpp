//===- Passes.cpp - C API: generated pass constructors ------------------===//

#include "tile-c/Passes.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/CAPI/Pass.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Conversion/Passes.capi.cpp.inc"
#include "tile/Dialect/Tile/Transforms/Passes.capi.cpp.inc"
