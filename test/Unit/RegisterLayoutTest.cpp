//===- RegisterLayoutTest.cpp - Fragment layouts made concrete ------------===//
//
// RegisterLayout for each layout attribute of the dialect: #tile.mma
// against the PTX ISA's wgmma accumulator fragment (9.7.15.5.1, the D
// matrix), #tile.blocked against its definition (vectors along the last
// dimension, lanes and warps each a grid, the footprint repeated), and
// #tile.slice against its parent; every element owned once, and equality.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/RegisterLayout.h"
#include "TileTarget.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <map>

using namespace mlir;
using namespace mlir::tile;

namespace {

class RegisterLayoutTest : public ::testing::Test {
protected:
  RegisterLayoutTest() : module(ModuleOp::create(UnknownLoc::get(&ctx))) {
    ctx.loadDialect<TileDialect>();
  }

  RegisterLayout layout(StringRef attr, ArrayRef<int64_t> shape,
                        int64_t threads) {
    Attribute a = parseAttribute(attr, &ctx);
    EXPECT_TRUE(a) << attr.str();
    FailureOr<RegisterLayout> l =
        sm90->getFragmentLayout(a, shape, threads, module.get());
    EXPECT_TRUE(succeeded(l)) << attr.str();
    return *l;
  }

  /// How many (thread, register) pairs hold each element; fails on a
  /// coordinate outside the shape.
  std::map<Coord, int> owners(const RegisterLayout &l, int64_t threads) {
    std::map<Coord, int> count;
    for (int64_t t = 0; t < threads; ++t)
      for (int64_t r = 0; r < l.numRegs(); ++r) {
        Coord c = l.coordOf(t, r);
        for (int64_t d = 0; d < l.rank(); ++d) {
          EXPECT_GE(c[d], 0);
          EXPECT_LT(c[d], l.shape[d]);
        }
        ++count[c];
      }
    return count;
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  /// The accumulator layout (#tile.mma) is the target's: sm_90a's wgmma.
  const TileTarget *sm90 = lookupTileTarget("sm_90a");
};

TEST_F(RegisterLayoutTest, MmaIsTheWgmmaAccumulator) {
  for (int64_t warpgroups : {1, 2}) {
    int64_t rows = 64 * warpgroups, cols = 64, threads = 128 * warpgroups;
    RegisterLayout l =
        layout("#tile.mma<warpgroups = " + std::to_string(warpgroups) + ">",
               {rows, cols}, threads);
    ASSERT_EQ(l.numRegs(), cols / 2);
    for (int64_t t = 0; t < threads; ++t)
      for (int64_t i = 0; i < l.numRegs(); ++i) {
        // PTX ISA: row = 16 * warp + lane / 4 + 8 * (i / 2 % 2), column =
        // 8 * (i / 4) + 2 * (lane % 4) + i % 2, per m64 tile of a warpgroup.
        int64_t lane = t % 32, warp = t / 32;
        Coord want = {16 * warp + lane / 4 + 8 * ((i / 2) % 2),
                      8 * (i / 4) + 2 * (lane % 4) + i % 2};
        ASSERT_EQ(l.coordOf(t, i), want) << "thread " << t << " reg " << i;
      }
    std::map<Coord, int> count = owners(l, threads);
    EXPECT_EQ(static_cast<int64_t>(count.size()), rows * cols);
    for (auto &[c, n] : count)
      EXPECT_EQ(n, 1);
    EXPECT_EQ(l.replicatingThreadBits(), 0);
  }
}

TEST_F(RegisterLayoutTest, BlockedFollowsItsGrids) {
  // 4-element vectors; lanes 4 x 8, warps 4 x 1: a 16 x 32 footprint.
  RegisterLayout l =
      layout("#tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>",
             {64, 128}, 128);
  ASSERT_EQ(l.numRegs(), 64 * 128 / 128);
  for (int64_t t = 0; t < 128; ++t) {
    int64_t lane = t % 32, warp = t / 32;
    EXPECT_EQ(l.coordOf(t, 0), (Coord{lane / 8 + 4 * warp, 4 * (lane % 8)}));
    for (int64_t e = 1; e < 4; ++e) // a vector runs along the last dimension
      EXPECT_EQ(l.coordOf(t, e),
                (Coord{l.coordOf(t, 0)[0], l.coordOf(t, 0)[1] + e}));
  }
  std::map<Coord, int> count = owners(l, 128);
  EXPECT_EQ(static_cast<int64_t>(count.size()), 64 * 128);
  for (auto &[c, n] : count)
    EXPECT_EQ(n, 1);
  EXPECT_EQ(l.laneMasksAlong(1), (SmallVector<int64_t>{1, 2, 4}));
  EXPECT_EQ(l.laneMasksAlong(0), (SmallVector<int64_t>{8, 16}));
  EXPECT_EQ(l.warpBitsAlong(0), (SmallVector<unsigned>{0, 1}));
}

TEST_F(RegisterLayoutTest, BlockedOneDimension) {
  RegisterLayout l = layout(
      "#tile.blocked<vector = 4, lanes = [32], warps = [4]>", {1024}, 128);
  ASSERT_EQ(l.numRegs(), 8);
  std::map<Coord, int> count = owners(l, 128);
  EXPECT_EQ(static_cast<int64_t>(count.size()), 1024);
  EXPECT_EQ(l.coordOf(5, 0), Coord{20});
}

TEST_F(RegisterLayoutTest, SliceKeepsTheParentsRowsAndReplicates) {
  RegisterLayout mma = layout("#tile.mma<warpgroups = 1>", {64, 64}, 128);
  RegisterLayout rows = layout(
      "#tile.slice<dim = 1, parent = #tile.mma<warpgroups = 1>>", {64}, 128);
  EXPECT_EQ(rows, mma.slice(1));
  // Every register of the parent finds its row in the slice, held by the
  // same thread.
  for (int64_t t = 0; t < 128; ++t)
    for (int64_t r = 0; r < mma.numRegs(); ++r) {
      int64_t s = mma.sliceRegister(r, 1, rows);
      ASSERT_GE(s, 0);
      EXPECT_EQ(rows.coordOf(t, s)[0], mma.coordOf(t, r)[0]);
    }
  // The four lanes of a row (lane bits 0 and 1) hold it alike.
  EXPECT_EQ(rows.replicatingThreadBits(), 0b11);
  std::map<Coord, int> count = owners(rows, 128);
  EXPECT_EQ(static_cast<int64_t>(count.size()), 64);
}

TEST_F(RegisterLayoutTest, Equality) {
  RegisterLayout a =
      layout("#tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>",
             {64, 128}, 128);
  RegisterLayout b =
      layout("#tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>",
             {64, 128}, 128);
  RegisterLayout c =
      layout("#tile.blocked<vector = 2, lanes = [4, 8], warps = [4, 1]>",
             {64, 128}, 128);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a, a.slice(1));
}

TEST_F(RegisterLayoutTest, RefusesWhatDoesNotTile) {
  Attribute a = parseAttribute(
      "#tile.blocked<vector = 4, lanes = [32], warps = [4]>", &ctx);
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  EXPECT_TRUE(failed(sm90->getFragmentLayout(a, {64}, 128, module.get())));
  Attribute mma = parseAttribute("#tile.mma<warpgroups = 1>", &ctx);
  EXPECT_TRUE(
      failed(sm90->getFragmentLayout(mma, {64, 64}, 256, module.get())));
}

} // namespace
