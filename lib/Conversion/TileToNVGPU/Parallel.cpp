//===- Parallel.cpp - tile.parallel over register fragments -------------===//
//
// The body is cloned once per register of the outputs' layout. An
// identity-mapped input is read from the same register; a broadcast input
// (its map drops dimension d) lives in the slice layout along d, and the
// register holding the needed element is known at compile time.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tile;

/// One PTX instruction on an f32: `<opcode> $0, $1;`.
static Value ptxUnary(OpBuilder &b, Location l, StringRef opcode, Value x) {
  auto asmOp = LLVM::InlineAsmOp::create(
      b, l, b.getF32Type(), ValueRange{x}, (opcode + " $0, $1;").str(), "=f,f",
      /*has_side_effects=*/false, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  return asmOp.getRes();
}

/// Element-wise bodies use the hardware's approximate transcendentals for
/// f32, as fast-math CUDA does (PTX ISA 9.7.3: ex2.approx.ftz has a maximum
/// relative error of 2^-22 for the ftz form, tanh.approx 2^-10.987): exp2
/// is ex2.approx, exp is ex2.approx of x*log2(e), tanh is tanh.approx.
/// Returns null for ops that are cloned as they are.
static Value emitFastMath(OpBuilder &b, Operation &op, IRMapping &local) {
  if (op.getNumResults() != 1 || !op.getResult(0).getType().isF32())
    return Value();
  Location l = op.getLoc();
  if (isa<math::Exp2Op>(op))
    return ptxUnary(b, l, "ex2.approx.ftz.f32", local.lookup(op.getOperand(0)));
  if (isa<math::ExpOp>(op)) {
    Value log2e = arith::ConstantOp::create(b, l, b.getF32FloatAttr(M_LOG2E));
    Value x =
        arith::MulFOp::create(b, l, local.lookup(op.getOperand(0)), log2e);
    return ptxUnary(b, l, "ex2.approx.ftz.f32", x);
  }
  if (isa<math::TanhOp>(op))
    return ptxUnary(b, l, "tanh.approx.f32", local.lookup(op.getOperand(0)));
  return Value();
}

/// Element-wise bodies may contract a multiply feeding an add into one fma
/// (one rounding instead of two), as CUDA's default -fmad=true and Triton's
/// enable_fp_fusion do: the body's float arith ops get the `contract`
/// fast-math flag, which LLVM's NVPTX backend honours.
static void allowContraction(Operation *op) {
  auto fm = dyn_cast<arith::ArithFastMathInterface>(op);
  if (!fm)
    return;
  arith::FastMathFlags flags = fm.getFastMathFlagsAttr()
                                   ? fm.getFastMathFlagsAttr().getValue()
                                   : arith::FastMathFlags::none;
  op->setAttr(fm.getFastMathAttrName(),
              arith::FastMathFlagsAttr::get(
                  op->getContext(), flags | arith::FastMathFlags::contract));
}

/// Values from outside the body (kernel-level constants, read by `inner` or
/// by an op nested in its regions, such as an scf.if's branches) come from
/// the kernel's mapping.
static void mapOuterValues(Operation &inner, const IRMapping &outer,
                           IRMapping &local) {
  inner.walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (!local.contains(operand))
        if (Value lowered = outer.lookupOrNull(operand))
          local.map(operand, lowered);
  });
}

LogicalResult KernelEmitter::lowerParallel(ParallelOp op) {
  // planParallels checked the fragments, their layouts and the maps.
  Location l = op.getLoc();
  SmallVector<Value> outs, ins; // their registers
  for (Value v : op.getOutputs())
    outs.push_back(fragmentRegs.lookup(v));
  const RegisterLayout &layout = fragment(op.getOutputs().front()).layout;
  SmallVector<int64_t> dropped;
  SmallVector<RegisterLayout> sliced;
  for (auto [i, v] : llvm::enumerate(op.getInputs())) {
    ins.push_back(fragmentRegs.lookup(v));
    int64_t d = *op.getBroadcastDim(i);
    dropped.push_back(d);
    sliced.push_back(d < 0 ? layout : layout.slice(d));
  }

  Block &body = op.getBody().front();
  SmallVector<Value> threadCoords;
  bool usesIndex = false;
  body.walk([&](IndexOp) { usesIndex = true; });
  if (usesIndex)
    for (int64_t d = 0; d < layout.rank(); ++d)
      threadCoords.push_back(layout.threadCoord(b, l, threadId, d));

  size_t numIns = op.getInputs().size();
  auto emitRegister = [&](int64_t r) {
    IRMapping local;
    for (size_t i = 0; i < numIns; ++i) {
      int64_t reg =
          dropped[i] < 0 ? r : layout.sliceRegister(r, dropped[i], sliced[i]);
      local.map(body.getArgument(i),
                memref::LoadOp::create(b, l, ins[i], ValueRange{index(reg)}));
    }
    for (auto [j, o] : llvm::enumerate(outs))
      local.map(body.getArgument(numIns + j),
                memref::LoadOp::create(b, l, o, ValueRange{index(r)}));
    for (Operation &inner : body.without_terminator()) {
      if (auto idx = dyn_cast<IndexOp>(inner)) {
        local.map(
            idx.getResult(),
            arith::AddIOp::create(b, l, threadCoords[idx.getDim()],
                                  index(layout.regOffset(r)[idx.getDim()])));
        continue;
      }
      mapOuterValues(inner, map, local);
      if (Value fast = emitFastMath(b, inner, local)) {
        local.map(inner.getResult(0), fast);
        continue;
      }
      allowContraction(b.clone(inner, local));
    }
    auto yield = cast<YieldOp>(body.getTerminator());
    for (auto [j, v] : llvm::enumerate(yield.getValues()))
      memref::StoreOp::create(b, l, local.lookupOrDefault(v), outs[j],
                              ValueRange{index(r)});
  };
  for (int64_t r = 0; r < layout.numRegs(); ++r)
    emitRegister(r);
  return success();
}
