//===- TileTargetTest.cpp - Planning asks the target ----------------------===//
//
// A stub chip registered beside sm_90a, with its own limits, shared-tile
// layout and accumulator layout: planning a kernel for it uses its answers,
// not sm_90a's, so no chip's numbers are built into the planner.
//
//===----------------------------------------------------------------------===//

#include "TileTarget.h"
#include "KernelPlan.h"
#include "tile/Conversion/Resources.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// A chip unlike sm_90a in every answer the planner asks for; it counts the
/// accumulator layouts it is asked for.
class StubTarget final : public TileTarget {
public:
  explicit StubTarget(int *accumulatorQueries)
      : accumulatorQueries(accumulatorQueries) {}
  StringRef getChip() const override { return "stub_chip"; }
  std::string checkFeatures(StringRef) const override { return ""; }
  int64_t getMaxSharedBytes() const override { return 20000; }
  int64_t getMaxRegistersPerThread() const override { return 64; }
  std::string checkSharedTile(int64_t, int64_t, Type) const override {
    return "";
  }
  SwizzledPanels getSharedTileLayout(int64_t rows, int64_t cols,
                                     int64_t eltBytes) const override {
    return {rows, cols, eltBytes, /*swizzleBytes=*/64, /*atomRows=*/8};
  }
  int64_t getSharedTileAlignment() const override { return 4096; }
  LogicalResult checkMma(GemmOp, int64_t) const override { return success(); }
  /// Each thread holds whole rows: thread t rows t, t + threads, ...
  FailureOr<RegisterLayout> getAccumulatorLayout(ArrayRef<int64_t> shape,
                                                 int64_t warpgroups,
                                                 int64_t threads,
                                                 Operation *) const override {
    ++*accumulatorQueries;
    RegisterLayout l;
    l.shape.assign(shape.begin(), shape.end());
    for (int64_t bit = 1; bit < 32; bit *= 2)
      l.laneBases.push_back({bit, 0});
    for (int64_t bit = 32; bit < threads; bit *= 2)
      l.warpBases.push_back({bit, 0});
    for (int64_t row = 0; row < shape[0]; row += threads)
      for (int64_t col = 0; col < shape[1]; ++col)
        l.regOffsets.push_back({row, col});
    return l;
  }
  Value convertEightBitFloat(OpBuilder &, Location, Value,
                             FloatType) const override {
    return Value();
  }
  std::pair<int64_t, int64_t> getRegisterBudgets(int64_t,
                                                 int64_t) const override {
    return {0, 0};
  }

private:
  int *accumulatorQueries;
};

class TileTargetTest : public ::testing::Test {
protected:
  TileTargetTest() {
    // The plan's TMA descriptors are NVGPU types.
    ctx.loadDialect<TileDialect, arith::ArithDialect, gpu::GPUDialect,
                    nvgpu::NVGPUDialect, scf::SCFDialect>();
    registerTileTarget(std::make_unique<StubTarget>(&queries));
  }

  /// Parses `source` and plans its kernel for `chip`; the first error, if
  /// any, goes to `error`.
  FailureOr<KernelPlan> plan(StringRef source, StringRef chip,
                             std::string &error) {
    module = parseSourceString<ModuleOp>(source, &ctx);
    EXPECT_TRUE(module);
    ScopedDiagnosticHandler capture(&ctx, [&](Diagnostic &d) {
      if (error.empty())
        error = d.str();
      return success();
    });
    const TileTarget *target = lookupTileTarget(chip);
    EXPECT_TRUE(target);
    return planKernel(*module->getOps<KernelOp>().begin(), *target);
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  int queries = 0;
};

/// A 64x64 f16 tile (8 KB) and a 64x16 f32 accumulator laid out as #tile.mma.
constexpr const char *kKernel = R"mlir(
tile.kernel @k(%A: memref<?x?xf16>) grid [1] threads 64
    attributes {tile.waits_planned} {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment {layout = #tile.mma<warpgroups = 1>}
      : !tile.fragment<64x16xf32>
  tile.copy %A[%c0, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
}
)mlir";

TEST_F(TileTargetTest, RegistersBesideSM90) {
  ASSERT_NE(lookupTileTarget("sm_90a"), nullptr);
  ASSERT_NE(lookupTileTarget("stub_chip"), nullptr);
  EXPECT_EQ(lookupTileTarget("stub_chip")->getChip(), "stub_chip");
  EXPECT_EQ(lookupTileTarget("no_such_chip"), nullptr);
}

TEST_F(TileTargetTest, PlanningAsksForTheAccumulatorLayout) {
  std::string error;
  FailureOr<KernelPlan> p = plan(kKernel, "stub_chip", error);
  ASSERT_TRUE(succeeded(p)) << error;
  EXPECT_EQ(queries, 1);
  // 64 threads each hold one whole row of 16: sm_90a's wgmma layout needs
  // a warpgroup and spreads a row over four lanes.
  ASSERT_EQ(p->fragments.size(), 1u);
  const RegisterLayout &acc = p->fragments.begin()->second;
  EXPECT_EQ(acc.numRegs(), 16);
  EXPECT_EQ(acc.regOffsets[1], (Coord{0, 1}));
}

TEST_F(TileTargetTest, PlanningUsesTheSharedTileLayoutAndAlignment) {
  std::string error;
  FailureOr<KernelPlan> p = plan(kKernel, "stub_chip", error);
  ASSERT_TRUE(succeeded(p)) << error;
  ASSERT_EQ(p->sharedTiles.size(), 2u);
  auto it = p->sharedTiles.begin();
  const SharedTilePlan &first = it->second, &second = (++it)->second;
  EXPECT_EQ(first.layout.swizzleBytes, 64);
  EXPECT_EQ(first.panelCols(), 32);
  EXPECT_EQ(first.offset, 0);
  // 8 KB tiles, each on a 4096-byte boundary.
  EXPECT_EQ(second.offset, 8192);
  EXPECT_EQ(p->sharedBytes, 16384);
  ASSERT_EQ(p->tensorMaps.size(), 1u);
  EXPECT_EQ(p->tensorMaps[0].swizzleBytes, 64);
  EXPECT_EQ(p->tensorMaps[0].boxCols, 32);
}

TEST_F(TileTargetTest, PlanningUsesTheTargetsLimits) {
  // Three 8 KB tiles: over the stub's 20000 bytes, well under sm_90a's.
  constexpr const char *source = R"mlir(
tile.kernel @k(%A: memref<?x?xf16>) grid [1] threads 128
    attributes {tile.waits_planned} {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_shared : !tile.shared<64x64xf16>
}
)mlir";
  std::string error;
  EXPECT_TRUE(failed(plan(source, "stub_chip", error)));
  EXPECT_NE(error.find("stub_chip allows 20000"), std::string::npos) << error;
  error.clear();
  EXPECT_TRUE(succeeded(plan(source, "sm_90a", error))) << error;
}

TEST(PlanKernelResources, LoadsTheDialectsItNeeds) {
  // A caller's context with the tile dialect only, as a C API user may
  // make one: planning a kernel with a TMA copy must not crash.
  MLIRContext ctx;
  ctx.loadDialect<TileDialect, arith::ArithDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
tile.kernel @k(%A: memref<?x?xf16>) grid [1] threads 128
    attributes {tile.waits_planned} {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  tile.copy %A[%c0, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
}
)mlir",
                                                             &ctx);
  ASSERT_TRUE(module);
  FailureOr<KernelResources> r = planKernelResources(
      *module->getOps<KernelOp>().begin(), "sm_90a", INT64_MAX);
  ASSERT_TRUE(succeeded(r));
  EXPECT_EQ(r->sharedBytes, 64 * 64 * 2);
}

} // namespace
