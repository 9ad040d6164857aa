//===- Branch.cpp - scf.if over tile operations ---------------------------===//
//
// An scf.if whose branches hold tile operations becomes an scf.if whose
// branches hold their lowering. Its condition is uniform across the block
// (planRegions says why), so the barriers of a branch are reached by every
// thread or by none. No wgmma group is left in flight across the branch:
// each path then reads its accumulators as straight-line code would.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

using namespace mlir;
using namespace mlir::tile;

LogicalResult KernelLowering::lowerIf(scf::IfOp op) {
  auto settle = [&] {
    if (!pendingAccumulators.empty()) {
      emitWgmmaWait(0, pendingAccumulators);
      pendingAccumulators.clear();
    }
  };
  settle();
  bool withElse = !op.getElseRegion().empty();
  auto lowered = scf::IfOp::create(b, op.getLoc(),
                                   map.lookup(op.getCondition()), withElse);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(lowered.thenYield());
  if (failed(lowerBlock(*op.thenBlock())))
    return failure();
  settle();
  if (withElse) {
    b.setInsertionPoint(lowered.elseYield());
    if (failed(lowerBlock(*op.elseBlock())))
      return failure();
    settle();
  }
  return success();
}
