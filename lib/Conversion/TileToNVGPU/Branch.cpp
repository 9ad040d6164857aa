//===- Branch.cpp - scf.if over tile operations ---------------------------===//
//
// An scf.if whose branches hold tile operations becomes an scf.if whose
// branches hold their lowering. Its condition is uniform across the block
// (planRegions checks it), so the barriers of a branch are reached by every
// thread or by none.
//
// A wgmma group is left in flight across the loop's back edge only when
// nothing else in the loop body touches its accumulator (lowerGemm), so a
// branch never reads one early; the wait below keeps that true should a
// branch ever meet a pending accumulator. Each branch starts from the
// groups pending before it; after it, a group counts as pending if it may
// be on either path.
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
  SmallVector<Value> before = pendingAccumulators;
  // A branch that touches a pending accumulator first waits for it; the
  // other branch, and the code before the branch, do not.
  auto lowerBranch = [&](Region &region, Operation *yield) {
    b.setInsertionPoint(yield);
    if (llvm::any_of(pendingAccumulators, [&](Value acc) {
          return llvm::any_of(acc.getUsers(), [&](Operation *user) {
            return region.isAncestor(user->getParentRegion());
          });
        })) {
      emitWgmmaWait(0, pendingAccumulators);
      pendingAccumulators.clear();
    }
    return lowerBlock(region.front());
  };
  if (failed(lowerBranch(op.getThenRegion(), lowered.thenYield())))
    return failure();
  SmallVector<Value> afterThen = pendingAccumulators;
  pendingAccumulators = before;
  if (withElse && failed(lowerBranch(op.getElseRegion(), lowered.elseYield())))
    return failure();
  for (Value acc : afterThen)
    if (!llvm::is_contained(pendingAccumulators, acc))
      pendingAccumulators.push_back(acc);
  return success();
}
