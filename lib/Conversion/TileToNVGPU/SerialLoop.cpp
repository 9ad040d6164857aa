//===- SerialLoop.cpp - scf.for over tile operations ---------------------===//
//
// An scf.for whose body holds tile operations becomes an scf.for whose body
// holds their lowering, run by every thread the same number of times (its
// bounds are uniform across the block: planSerialLoop). It is the loop that
// is not pipelined: a chunk loop of a row reduction, or the tile loop of a
// persistent kernel around a pipelined loop over k.
//
// A step that is not positive is refused where it is a constant
// (planSerialLoop) and traps where it is not.
//
// No wgmma group crosses its back edge: tile-plan-waits places a
// tile.mma_wait before the loop and at the end of its body.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tile;

LogicalResult KernelEmitter::lowerFor(scf::ForOp op) {
  Value step = map.lookup(op.getStep());
  // A step that planning could not see is checked where the loop starts:
  // one that is not positive traps (the launch fails) rather than hang.
  if (!matchPattern(step, m_Constant())) {
    Value zero = arith::ConstantIndexOp::create(b, op.getLoc(), 0);
    Value bad = arith::CmpIOp::create(b, op.getLoc(), arith::CmpIPredicate::sle,
                                      step, zero);
    auto guard = scf::IfOp::create(b, op.getLoc(), bad);
    OpBuilder::InsertionGuard atGuard(b);
    b.setInsertionPointToStart(guard.thenBlock());
    LLVM::Trap::create(b, op.getLoc());
  }
  auto loop = scf::ForOp::create(b, op.getLoc(), map.lookup(op.getLowerBound()),
                                 map.lookup(op.getUpperBound()), step);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  map.map(op.getInductionVar(), loop.getInductionVar());
  return lowerBlock(*op.getBody());
}
