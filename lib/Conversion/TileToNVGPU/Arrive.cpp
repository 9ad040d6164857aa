//===- Arrive.cpp - tile.arrive: the last of a tile's blocks --------------===//
//
// tile.arrive on sm_90a, after the block's barrier (every thread's stores
// are issued and ordered at the block's scope):
//
//   thread 0:  old = atom.acq_rel.gpu.global.add.u32 [counter], 1
//              last = old + 1 == count;  @last st [counter], 0
//              fence.proxy.async.global   (TMA loads after it see the data)
//   all:       last = bar.red.or(last)    (the barrier that broadcasts it)
//
// The atomic's release makes the block's writes, ordered before it by the
// barrier, visible with the count; its acquire makes the writes of the
// blocks that arrived before it visible to thread 0, and the reducing
// barrier passes them on to the block. This is CUTLASS's split-K semaphore
// with the spin replaced by a ticket: no block waits for another.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "PredicatedAccess.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tile;

LogicalResult KernelEmitter::lowerArrive(ArriveOp op) {
  Location l = op.getLoc();
  Value counter = map.lookup(op.getCounter());
  Value count = map.lookup(op.getCount());
  SmallVector<Value> indices;
  for (Value v : op.getOffsets())
    indices.push_back(map.lookup(v));

  emitBarrier();
  auto leader = scf::IfOp::create(b, l, TypeRange{b.getI1Type()}, isLeader(),
                                  /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(leader.elseBlock());
    scf::YieldOp::create(b, l,
                         ValueRange{arith::ConstantIntOp::create(b, l, 0, 1)});
    b.setInsertionPointToStart(leader.thenBlock());
    // An offset outside the counter's memref, or a count no block can
    // reach, would leave the output unwritten: stop the launch instead.
    Value valid = andIndicesInside(
        b, l,
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, count, index(1)),
        counter, indices);
    emitIf(arith::XOrIOp::create(b, l, valid,
                                 arith::ConstantIntOp::create(b, l, 1, 1)),
           [&] { LLVM::Trap::create(b, l); });
    Value address = globalAddress(b, l, counter, indices);
    Value old =
        inlinePtx(b, l, b.getI32Type(), ValueRange{address},
                  "atom.acq_rel.gpu.global.add.u32 $0, [$1], 1;", "=r,l");
    Value arrived = arith::AddIOp::create(
        b, l, arith::ExtUIOp::create(b, l, b.getI64Type(), old), i64(1));
    Value last = arith::CmpIOp::create(
        b, l, arith::CmpIPredicate::eq, arrived,
        arith::IndexCastUIOp::create(b, l, b.getI64Type(), count));
    emitPredicatedStore(b, l, last, address, 0, i32(0));
    inlinePtx(b, l, Type(), ValueRange{}, "fence.proxy.async.global;", "");
    scf::YieldOp::create(b, l, ValueRange{last});
  }
  map.map(op.getLast(), emitBarrierAny(leader.getResult(0)));
  return success();
}
