//===- SwizzledPanelsTest.cpp - The swizzled panel layout's offsets -------===//
//
// SwizzledPanels against an independent statement of the 32-, 64- and
// 128-byte swizzles (CuTe's Swizzle<B, 4, 3> on each panel's row-major
// bytes), for every element type width, plus the
// properties the lowering relies on: every element has its own place in
// the tile, a 16-byte chunk stays contiguous, the chunk and element forms
// agree, and an atom's rows spread one column over distinct chunks.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/SwizzledPanels.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir::tile;

namespace {

/// CuTe's Swizzle<B, 4, 3> of a byte offset: bits 4 to 4 + B - 1 XOR
/// bits 7 to 7 + B - 1 (CU_TENSOR_MAP_SWIZZLE_32B, _64B, _128B for B = 1,
/// 2, 3).
int64_t cuteSwizzle(int64_t bits, int64_t offset) {
  int64_t mask = (1 << bits) - 1;
  return offset ^ (((offset >> 7) & mask) << 4);
}

/// The 128-byte swizzle of a byte offset within a panel of 128-byte rows.
int64_t swizzle128(int64_t offset) { return cuteSwizzle(3, offset); }

SwizzledPanels tile(int64_t rows, int64_t cols, int64_t eltBytes) {
  return SwizzledPanels{rows, cols, eltBytes, /*swizzleBytes=*/128,
                        /*atomRows=*/8};
}

class SwizzledPanelsWidth : public ::testing::TestWithParam<int64_t> {};

TEST_P(SwizzledPanelsWidth, GivesEveryElementItsOwnPlace) {
  int64_t eltBytes = GetParam();
  SwizzledPanels p = tile(16, 2 * 128 / eltBytes, eltBytes);
  IntArith a;
  std::set<int64_t> seen;
  for (int64_t r = 0; r < p.rows; ++r)
    for (int64_t c = 0; c < p.cols; ++c) {
      int64_t at = p.elementOffset(a, r, c);
      EXPECT_EQ(at % eltBytes, 0);
      EXPECT_GE(at, 0);
      EXPECT_LT(at, p.bytes());
      EXPECT_TRUE(seen.insert(at).second) << "row " << r << " column " << c;
    }
  EXPECT_EQ(static_cast<int64_t>(seen.size()), p.rows * p.cols);
}

TEST_P(SwizzledPanelsWidth, KeepsEachChunkContiguous) {
  int64_t eltBytes = GetParam();
  SwizzledPanels p = tile(8, 128 / eltBytes, eltBytes);
  IntArith a;
  int64_t perChunk = SwizzledPanels::kChunkBytes / eltBytes;
  for (int64_t r = 0; r < p.rows; ++r)
    for (int64_t c = 0; c + 1 < p.cols; ++c)
      if ((c + 1) % perChunk != 0)
        EXPECT_EQ(p.elementOffset(a, r, c + 1),
                  p.elementOffset(a, r, c) + eltBytes);
}

TEST_P(SwizzledPanelsWidth, AgreesChunkByChunk) {
  int64_t eltBytes = GetParam();
  SwizzledPanels p = tile(24, 4 * 128 / eltBytes, eltBytes);
  IntArith a;
  int64_t chunks = p.cols * eltBytes / SwizzledPanels::kChunkBytes;
  for (int64_t r = 0; r < p.rows; ++r) {
    SwizzledPanels::RowTerms<IntArith> row = p.rowTerms(a, r);
    for (int64_t q = 0; q < chunks; ++q)
      EXPECT_EQ(
          p.chunkOffset(a, row, q),
          p.elementOffset(a, r, q * SwizzledPanels::kChunkBytes / eltBytes))
          << "row " << r << " chunk " << q;
  }
}

TEST_P(SwizzledPanelsWidth, SwizzlesTheDescriptorsAddress) {
  // A descriptor points at the unswizzled address; the swizzle of its
  // place in the panel is where the element is stored, and an atom's first
  // row is not moved.
  int64_t eltBytes = GetParam();
  SwizzledPanels p = tile(32, 2 * 128 / eltBytes, eltBytes);
  IntArith a;
  for (int64_t r = 0; r < p.rows; ++r)
    for (int64_t c = 0; c < p.cols; ++c) {
      int64_t base = c / p.panelCols() * p.panelBytes();
      int64_t linear = p.unswizzledOffset(r, c);
      EXPECT_EQ(p.elementOffset(a, r, c), base + swizzle128(linear - base));
      if (r % p.atomRows == 0)
        EXPECT_EQ(p.elementOffset(a, r, c), linear);
    }
}

INSTANTIATE_TEST_SUITE_P(ElementBytes, SwizzledPanelsWidth,
                         ::testing::Values(1, 2, 4, 8));

TEST(SwizzledPanels, SpreadsAColumnOverTheAtomsChunks) {
  // A column read by 8 rows of an atom (a wgmma operand, a fragment's
  // store) touches 8 different 16-byte chunks: no two share banks.
  SwizzledPanels p = tile(64, 64, 2);
  IntArith a;
  for (int64_t c = 0; c < p.cols; ++c)
    for (int64_t atom = 0; atom < p.rows / p.atomRows; ++atom) {
      std::set<int64_t> chunks;
      for (int64_t r = 0; r < p.atomRows; ++r)
        chunks.insert((p.elementOffset(a, atom * p.atomRows + r, c) % 128) /
                      SwizzledPanels::kChunkBytes);
      EXPECT_EQ(static_cast<int64_t>(chunks.size()), p.atomRows);
    }
}

/// Each swizzle width the copy engine has, on every element width: the
/// panel's row-major bytes through CuTe's statement of it; each element
/// once; an 8-row atom of swizzleBytes * 8 bytes.
class SwizzleCase
    : public ::testing::TestWithParam<std::tuple<int64_t, int64_t>> {};

TEST_P(SwizzleCase, MatchesCuTesSwizzle) {
  auto [swizzleBytes, eltBytes] = GetParam();
  int64_t bits = swizzleBytes == 128 ? 3 : swizzleBytes == 64 ? 2 : 1;
  SwizzledPanels p{32, 3 * swizzleBytes / eltBytes, eltBytes, swizzleBytes,
                   /*atomRows=*/8};
  IntArith a;
  std::set<int64_t> seen;
  for (int64_t r = 0; r < p.rows; ++r)
    for (int64_t c = 0; c < p.cols; ++c) {
      int64_t panel = c / p.panelCols();
      int64_t inPanel = r * swizzleBytes + (c % p.panelCols()) * eltBytes;
      int64_t at = p.elementOffset(a, r, c);
      ASSERT_EQ(at, panel * p.panelBytes() + cuteSwizzle(bits, inPanel))
          << swizzleBytes << "-byte swizzle, row " << r << " column " << c;
      EXPECT_TRUE(seen.insert(at).second);
      // The pattern repeats every atom.
      if (r >= p.atomRows)
        EXPECT_EQ(at - p.elementOffset(a, r - p.atomRows, c), p.atomBytes());
    }
  SwizzledPanels::RowTerms<IntArith> row = p.rowTerms(a, 5);
  EXPECT_EQ(p.chunkOffset(a, row, 1),
            p.elementOffset(a, 5, SwizzledPanels::kChunkBytes / eltBytes));
}

INSTANTIATE_TEST_SUITE_P(Widths, SwizzleCase,
                         ::testing::Combine(::testing::Values(32, 64, 128),
                                            ::testing::Values(1, 2, 4, 8)));

TEST(SwizzledPanels, Sizes) {
  SwizzledPanels f16 = tile(128, 64, 2);
  EXPECT_EQ(f16.panelCols(), 64);
  EXPECT_EQ(f16.panelBytes(), 128 * 128);
  EXPECT_EQ(f16.bytes(), 128 * 64 * 2);
  EXPECT_EQ(f16.atomBytes(), 1024);
  EXPECT_EQ(f16.chunksPerPanelRow(), 8);
  SwizzledPanels f32 = tile(64, 256, 4);
  EXPECT_EQ(f32.panelCols(), 32);
  EXPECT_EQ(f32.bytes(), 8 * f32.panelBytes());
}

} // namespace
