//===- SerialLoop.cpp - scf.for over tile operations ---------------------===//
//
// An scf.for whose body holds tile operations becomes an scf.for whose body
// holds their lowering, run by every thread the same number of times (its
// bounds are uniform across the block: planSerialLoop). It is the loop that
// is not pipelined: a chunk loop of a row reduction, or the tile loop of a
// persistent kernel around a pipelined loop over k.
//
// No wgmma group crosses its back edge: one still pending where the loop
// starts is waited for before it, one pending at the end of its body is
// waited for there, so an iteration starts from no groups in flight, as the
// first one does.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

using namespace mlir;
using namespace mlir::tile;

LogicalResult KernelLowering::lowerFor(scf::ForOp op) {
  if (!pendingAccumulators.empty()) {
    emitWgmmaWait(0, pendingAccumulators);
    pendingAccumulators.clear();
  }
  auto loop = scf::ForOp::create(b, op.getLoc(), map.lookup(op.getLowerBound()),
                                 map.lookup(op.getUpperBound()),
                                 map.lookup(op.getStep()));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  map.map(op.getInductionVar(), loop.getInductionVar());
  if (failed(lowerBlock(*op.getBody())))
    return failure();
  if (!pendingAccumulators.empty()) {
    emitWgmmaWait(0, pendingAccumulators);
    pendingAccumulators.clear();
  }
  return success();
}
