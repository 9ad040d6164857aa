//===- Branch.cpp - scf.if over tile operations ---------------------------===//
//
// An scf.if whose branches hold tile operations becomes an scf.if whose
// branches hold their lowering. Its condition is uniform across the block
// (planRegions checks it), so the barriers of a branch are reached by every
// thread or by none.
//
// A branch that touches an accumulator whose tensor-core group may be in
// flight starts with a tile.mma_wait (tile-plan-waits).
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

using namespace mlir;
using namespace mlir::tile;

LogicalResult KernelEmitter::lowerIf(scf::IfOp op) {
  bool withElse = !op.getElseRegion().empty();
  auto lowered = scf::IfOp::create(b, op.getLoc(),
                                   map.lookup(op.getCondition()), withElse);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(lowered.thenYield());
  if (failed(lowerBlock(op.getThenRegion().front())))
    return failure();
  if (!withElse)
    return success();
  b.setInsertionPoint(lowered.elseYield());
  return lowerBlock(op.getElseRegion().front());
}
