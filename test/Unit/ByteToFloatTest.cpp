//===- ByteToFloatTest.cpp - Every byte, converted without cvt ----------===//
//
// lowerByteToFloatConversions rewrites i8 -> float conversions as an xor
// into a float's mantissa and a subtraction. Here each of the 256 bytes,
// signed and unsigned, into f16, bf16, f32 and f64, is rewritten and then
// folded to a constant, which must be the byte's value exactly.
//
//===----------------------------------------------------------------------===//

#include "ByteToFloat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {
/// One conversion of every byte into `to`, rewritten and folded: the
/// values the uses of the conversions see afterwards.
std::vector<double> convertAll(MLIRContext &ctx, Type to, bool isSigned) {
  OpBuilder b(&ctx);
  Location l = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(l);
  b.setInsertionPointToEnd(module->getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, l, "m");
  b.setInsertionPointToStart(gpuModule.getBody());
  auto func = gpu::GPUFuncOp::create(b, l, "f", b.getFunctionType({}, {}));
  b.setInsertionPointToStart(&func.getBody().front());
  std::vector<Operation *> uses;
  for (int v = 0; v < 256; ++v) {
    Value byte =
        arith::ConstantOp::create(b, l, b.getIntegerAttr(b.getI8Type(), v));
    Value f = isSigned ? Value(arith::SIToFPOp::create(b, l, to, byte))
                       : Value(arith::UIToFPOp::create(b, l, to, byte));
    OperationState use(l, "test.use");
    use.addOperands(f);
    uses.push_back(b.create(use));
  }
  gpu::ReturnOp::create(b, l);
  tile::lowerByteToFloatConversions(func);
  EXPECT_TRUE(succeeded(applyPatternsGreedily(
      func, FrozenRewritePatternSet(RewritePatternSet(&ctx)))));
  std::vector<double> values;
  for (Operation *use : uses) {
    Operation *def = use->getOperand(0).getDefiningOp();
    EXPECT_NE(def, nullptr);
    EXPECT_TRUE(isa<arith::ConstantOp>(def)) << "not folded to a constant";
    EXPECT_FALSE((isa<arith::SIToFPOp, arith::UIToFPOp>(def)));
    auto attr = dyn_cast_or_null<FloatAttr>(
        def ? cast<arith::ConstantOp>(def).getValue() : Attribute());
    values.push_back(attr ? attr.getValueAsDouble() : 1e30);
  }
  return values;
}

class ByteToFloat : public ::testing::Test {
protected:
  ByteToFloat() {
    ctx.loadDialect<arith::ArithDialect, gpu::GPUDialect>();
    ctx.allowUnregisteredDialects();
  }
  MLIRContext ctx;
};
} // namespace

TEST_F(ByteToFloat, EveryByteExactly) {
  OpBuilder b(&ctx);
  for (Type to : {Type(b.getF16Type()), Type(b.getBF16Type()),
                  Type(b.getF32Type()), Type(b.getF64Type())})
    for (bool isSigned : {true, false}) {
      std::vector<double> values = convertAll(ctx, to, isSigned);
      ASSERT_EQ(values.size(), 256u);
      for (int v = 0; v < 256; ++v) {
        double want = isSigned ? static_cast<int8_t>(v) : v;
        EXPECT_EQ(values[v], want)
            << "byte " << v << (isSigned ? " signed" : " unsigned");
      }
    }
}
