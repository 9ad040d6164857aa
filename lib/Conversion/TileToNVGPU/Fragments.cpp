//===- Fragments.cpp - fills and copies of register fragments -----------===//

#include "KernelLowering.h"
#include "SM90.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tile;

LogicalResult KernelLowering::lowerFill(FillOp op) {
  auto it = fragments.find(op.getDest());
  if (it == fragments.end())
    return op.emitOpError("filling a shared tile is not lowered on sm_90a yet");
  Value value = map.lookupOrDefault(op.getValue());
  for (int64_t i = 0, e = it->second.layout.regsPerThread(); i < e; ++i)
    memref::StoreOp::create(b, loc(), value, it->second.regs,
                            ValueRange{index(i)});
  return success();
}

/// Converts a register value to the destination element type.
static FailureOr<Value> convert(OpBuilder &b, Location l, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (isa<FloatType>(from) && isa<FloatType>(to))
    return from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth()
               ? arith::TruncFOp::create(b, l, to, v).getResult()
               : arith::ExtFOp::create(b, l, to, v).getResult();
  return failure();
}

/// fragment -> global: each thread stores the elements it holds, skipping
/// those outside the memref.
LogicalResult KernelLowering::lowerCopy(CopyOp op) {
  if (copyTensorMap.count(op))
    return success(); // issued by the enclosing pipelined loop
  auto src = fragments.find(op.getSource());
  auto dstType = dyn_cast<MemRefType>(op.getDest().getType());
  if (src == fragments.end() || !dstType)
    return op.emitOpError("copying ")
           << op.getSource().getType() << " to " << op.getDest().getType()
           << " is not lowered on sm_90a yet";
  Type from = cast<FragmentType>(op.getSource().getType()).getElementType();
  Type to = dstType.getElementType();
  if (!isa<FloatType>(from) || !isa<FloatType>(to))
    return op.emitOpError("only float fragments are stored so far, got ")
           << from << " to " << to;
  const FragmentLayout &layout = src->second.layout;
  Location l = op.getLoc();
  Value view = map.lookup(op.getDest());
  Value rows = memref::DimOp::create(b, l, view, 0);
  Value cols = memref::DimOp::create(b, l, view, 1);
  Value row0 = map.lookup(op.getDestOffsets()[0]);
  Value col0 = map.lookup(op.getDestOffsets()[1]);

  // Thread coordinates in the accumulator layout (KernelLowering.h).
  Value inGroup = arith::RemUIOp::create(b, l, threadId,
                                         index(sm90::kWarpgroupSize));
  Value warpgroup = arith::DivUIOp::create(b, l, threadId,
                                           index(sm90::kWarpgroupSize));
  Value warp = arith::DivUIOp::create(b, l, inGroup, index(sm90::kWarpSize));
  Value lane = arith::RemUIOp::create(b, l, inGroup, index(sm90::kWarpSize));
  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b, l, x, y); };
  auto mul = [&](Value x, int64_t c) {
    return arith::MulIOp::create(b, l, x, index(c));
  };
  Value rowBase = add(add(row0, mul(warpgroup, layout.rows / layout.warpgroups)),
                      add(mul(warp, 16), arith::DivUIOp::create(b, l, lane,
                                                                index(4))));
  Value colBase = add(col0, mul(arith::RemUIOp::create(b, l, lane, index(4)), 2));

  int64_t perTile = layout.regsPerMTile();
  for (int64_t mt = 0; mt < layout.mTilesPerWarpgroup(); ++mt) {
    for (int64_t half = 0; half < 2; ++half) {
      Value row = add(rowBase, index(mt * sm90::kWgmmaM + 8 * half));
      Value rowOk = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult,
                                          row, rows);
      for (int64_t i = 2 * half; i < perTile; i += 4) {
        for (int64_t j = 0; j < 2; ++j) {
          int64_t reg = i + j;
          Value col = add(colBase, index(8 * (reg / 4) + j));
          Value ok = arith::AndIOp::create(
              b, l, rowOk,
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, col,
                                    cols));
          Value v = memref::LoadOp::create(
              b, l, src->second.regs, ValueRange{index(mt * perTile + reg)});
          FailureOr<Value> converted = convert(b, l, v, to);
          emitIf(ok, [&] {
            memref::StoreOp::create(b, l, *converted, view,
                                    ValueRange{row, col});
          });
        }
      }
    }
  }
  return success();
}
