//===- GemmOps.cpp - Tensor-core operations of the tile dialect --------===//
//
// tile.gemm and tile.mma_wait: verifiers, and when a gemm's group may stay
// in flight. Each diagnostic starts with the label of the constraint it
// enforces (see TileOps.td).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileParams.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

Operation *GemmOp::operandWriterInBody(Value operand) {
  Operation *loop = (*this)->getParentOp();
  bool shared = isa<SharedType>(operand.getType());
  for (Operation *user : operand.getUsers()) {
    if (user == getOperation() || !loop->isAncestor(user))
      continue;
    auto copy = dyn_cast<CopyOp>(user);
    if (shared && copy && copy.getDest() == operand &&
        isa<MemRefType>(copy.getSource().getType()))
      continue;
    if (mayWrite(user, operand))
      return user;
  }
  return nullptr;
}

std::string GemmOp::whyNotInFlight() {
  if (!isa<PipelinedOp>((*this)->getParentOp()))
    return "the gemm is not directly in a tile.pipelined body";
  // The tensor cores read A and B until the group completes: a shared
  // operand the body writes (other than by the loop's loads from global
  // memory, which rotate through stages) would be overwritten by the next
  // iteration while this group still reads it. Uses of C, and writes of a
  // register A (the probabilities of attention), are waited for
  // (tile-plan-waits).
  for (auto [name, operand] :
       {std::pair<StringRef, Value>{"A", getA()}, {"B", getB()}}) {
    if (isa<FragmentType>(operand.getType()))
      continue;
    if (Operation *user = operandWriterInBody(operand))
      return (Twine("'") + user->getName().getStringRef() + "' writes " + name +
              " in the loop body, which the next iteration would do while "
              "the gemm still reads it")
          .str();
  }
  return "";
}

Operation *GemmOp::accumulatorUseInBody() {
  auto loop = cast<PipelinedOp>((*this)->getParentOp());
  Block &body = loop.getBody().front();
  for (Operation *user : getC().getUsers()) {
    // A wait for the group does not touch C.
    if (user == getOperation() || isa<MmaWaitOp>(user) ||
        !loop->isAncestor(user))
      continue;
    Operation *top = body.findAncestorOpInBlock(*user);
    if (!isa<scf::IfOp>(top) || !(*this)->isBeforeInBlock(top))
      return user;
  }
  return nullptr;
}

LogicalResult GemmOp::verify() {
  auto a = cast<ShapedType>(getA().getType());
  auto b = dyn_cast<SharedType>(getB().getType());
  auto c = dyn_cast<FragmentType>(getC().getType());
  if (!b || !c)
    return emitOpError("gemm_c1: A must be a shared tile or a fragment, B a "
                       "shared tile and C a fragment, got ")
           << getA().getType() << ", " << getB().getType() << ", "
           << getC().getType();
  if (a.getShape().size() != 2 || b.getShape().size() != 2 ||
      c.getShape().size() != 2)
    return emitOpError("gemm_c2: A, B and C must be 2-d tiles");
  for (Attribute flag : {getTransposeAAttr(), getTransposeBAttr()})
    if (failed(verifyFlagParam(*this, flag)))
      return failure();
  int64_t m = a.getShape()[transposesA() ? 1 : 0];
  int64_t ka = a.getShape()[transposesA() ? 0 : 1];
  int64_t kb = b.getShape()[transposesB() ? 1 : 0];
  int64_t n = b.getShape()[transposesB() ? 0 : 1];
  // `?` sizes of a parametric kernel, and the shapes of a transpose a
  // parameter chooses, are checked once specialised.
  bool parametric = hasParametricTranspose();
  auto differ = [&](int64_t x, int64_t y) {
    return !parametric && !ShapedType::isDynamic(x) &&
           !ShapedType::isDynamic(y) && x != y;
  };
  if (differ(ka, kb))
    return emitOpError("gemm_c2: op(A) is ")
           << m << "x" << ka << " and op(B) is " << kb << "x" << n
           << "; their K dimensions must agree";
  if (differ(c.getShape()[0], m) || differ(c.getShape()[1], n))
    return emitOpError("gemm_c2: C is ")
           << c.getShape()[0] << "x" << c.getShape()[1] << ", it must be " << m
           << "x" << n << " (M of op(A) by N of op(B))";
  Type ea = a.getElementType(), eb = b.getElementType();
  bool integer = ea.isSignlessInteger(8);
  bool eightBit = isEightBitFloat(ea) || integer;
  if (ea != eb ||
      !(ea.isF16() || ea.isBF16() || eightBit || isa<ParamType>(ea)))
    return emitOpError("gemm_c3: A and B must have one element type, f16, "
                       "bf16, f8E4M3FN, f8E5M2 or i8, got ")
           << ea << " and " << eb;
  if (eightBit && (!isa<SharedType>(a) ||
                   (!parametric && (transposesA() || !transposesB()))))
    return emitOpError("gemm_c6: 8-bit A and B are read K-major: A a shared "
                       "tile without transpose_a, B a shared tile with "
                       "transpose_b (N x K)");
  // A parameter's element type is checked again once it is bound.
  Type acc = c.getElementType();
  bool accOk = isa<ParamType>(ea)
                   ? acc.isF32() || acc.isInteger(32)
                   : acc.isF32() != integer && acc.isInteger(32) == integer;
  if (!accOk)
    return emitOpError("gemm_c4: the accumulator must be f32, or i32 for i8 "
                       "operands, got ")
           << acc << " for operands of " << ea;
  if (getInFlight())
    if (std::string why = whyNotInFlight(); !why.empty())
      return emitOpError("gemm_c5: in_flight, but ") << why;
  return success();
}

//===----------------------------------------------------------------------===//
// MmaWaitOp
//===----------------------------------------------------------------------===//

LogicalResult MmaWaitOp::verify() {
  int64_t pending = getPendingAttr().getInt();
  if (pending < 0)
    return emitOpError("mma_wait_c1: pending must not be negative, got ")
           << pending;
  for (auto [i, acc] : llvm::enumerate(getAccumulators())) {
    auto type = cast<FragmentType>(acc.getType());
    if (!type.getElementType().isF32() && !type.getElementType().isInteger(32))
      return emitOpError("mma_wait_c2: accumulator #")
             << i << " must be an f32 or i32 fragment, got " << type;
    if (llvm::is_contained(getAccumulators().take_front(i), acc))
      return emitOpError("mma_wait_c2: accumulator #")
             << i << " is listed twice";
  }
  return success();
}
