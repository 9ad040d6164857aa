//===- Print.cpp - tile.print through the device's printf ----------------===//
//
// Every line starts with the printing block's and thread's coordinates; a
// fragment prints one line per register, `label[i, j] = v`, with the
// element's coordinates in the tile (the thread's part plus the register's
// constant offset, as everywhere in the lowering). gpu.printf becomes
// vprintf; the driver flushes its buffer when the launch completes.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tile;

/// `text` as a printf format that prints it (% doubled).
static std::string escapeFormat(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '%')
      out += '%';
    out += c;
  }
  return out;
}

/// A scalar as printf takes it: integers and indices as i64 (%lld), floats
/// as f64 (%g).
static std::pair<Value, StringRef> printable(OpBuilder &b, Location l,
                                             Value v) {
  Type type = v.getType();
  Type i64 = b.getI64Type();
  if (type.isIndex())
    return {arith::IndexCastOp::create(b, l, i64, v), "%lld"};
  if (auto integer = dyn_cast<IntegerType>(type)) {
    if (integer.getWidth() < 64)
      v = integer.getWidth() == 1 ? (Value)arith::ExtUIOp::create(b, l, i64, v)
                                  : arith::ExtSIOp::create(b, l, i64, v);
    return {v, "%lld"};
  }
  if (type.getIntOrFloatBitWidth() < 64)
    v = arith::ExtFOp::create(b, l, b.getF64Type(), v);
  return {v, "%g"};
}

LogicalResult KernelEmitter::lowerPrint(PrintOp op) {
  Location l = op.getLoc();
  Value selected;
  auto require = [&](Value condition) {
    selected =
        selected ? arith::AndIOp::create(b, l, selected, condition).getResult()
                 : condition;
  };
  SmallVector<Value> blockIds;
  for (gpu::Dimension d :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    blockIds.push_back(gpu::BlockIdOp::create(b, l, d));
  if (std::optional<ArrayRef<int64_t>> block = op.getBlock())
    for (size_t d = 0; d < 3; ++d)
      require(
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, blockIds[d],
                                index(d < block->size() ? (*block)[d] : 0)));
  if (std::optional<int64_t> thread = op.getThread())
    require(arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, threadId,
                                  index(*thread)));

  std::string prefix =
      "[block %lld,%lld,%lld thread %lld] " + escapeFormat(op.getLabel());
  auto body = [&] {
    SmallVector<Value> head;
    for (Value id : blockIds)
      head.push_back(printable(b, l, id).first);
    head.push_back(printable(b, l, threadId).first);
    Value value = op.getValue();
    if (!plan.fragments.count(value)) {
      auto [arg, spec] = printable(b, l, map.lookup(value));
      SmallVector<Value> args(head);
      args.push_back(arg);
      gpu::PrintfOp::create(b, l, (prefix + " = " + spec + "\n").str(), args);
      return;
    }
    auto [layout, regs] = fragment(value);
    SmallVector<Value> coords;
    for (int64_t d = 0; d < layout.rank(); ++d)
      coords.push_back(layout.threadCoord(b, l, threadId, d));
    std::string format = prefix + "[";
    for (int64_t d = 0; d < layout.rank(); ++d)
      format += d ? ", %lld" : "%lld";
    format += "] = %g\n";
    for (int64_t r = 0; r < layout.numRegs(); ++r) {
      SmallVector<Value> args(head);
      for (int64_t d = 0; d < layout.rank(); ++d)
        args.push_back(
            printable(b, l,
                      arith::AddIOp::create(b, l, coords[d],
                                            index(layout.regOffset(r)[d])))
                .first);
      Value x = memref::LoadOp::create(b, l, regs, ValueRange{index(r)});
      args.push_back(printable(b, l, x).first);
      gpu::PrintfOp::create(b, l, format, args);
    }
  };
  if (selected)
    emitIf(selected, body);
  else
    body();
  return success();
}
