//===- PreparationPasses.cpp - The tile-IR passes before planning -------===//
//
// One list of the passes between tile-specialize and the lowering's plan,
// shared by the compilation pipelines and the tuner's filter, so that the
// tuner plans exactly what the compiler will lower.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

using namespace mlir;

void tile::addTilePreparationPasses(OpPassManager &pm) {
  pm.addPass(createTileInferLayouts());
  pm.addPass(createTileFoldAccumulatorFills());
  pm.addPass(createTileKeepGemmsInFlight());
  pm.addPass(createTilePlanWaits());
}
