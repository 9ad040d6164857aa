//===- SwizzledPanels.h - Swizzled panels of shared tiles -----*- C++ -*-===//
//
// A 2-d shared tile is stored as column panels: panel p holds columns
// [p * panelCols, (p + 1) * panelCols), each of its rows `swizzleBytes`
// long, the panels one after the other. Within a panel, rows are grouped
// in atoms of `atomRows` (8), and with 128-byte rows row r's 16-byte chunk
// c is stored at chunk c ^ (r mod 8); 64- and 32-byte rows XOR with
// (r mod 8) / 2 and / 4. That is the swizzle that spreads a column's
// elements over the shared-memory banks, and that the tensor cores' operand
// descriptors and the copy engine's tensor maps describe (sm_90a uses
// 128-byte rows: PTX ISA 9.7.15.5.1, CU_TENSOR_MAP_SWIZZLE_128B).
//
// The offsets are written once, as templates over an arithmetic: plain
// integers (IntArith, what the planner and the unit tests compute), or the
// ops that compute them at run time (the lowering's emitter).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_SWIZZLEDPANELS_H
#define TILE_DIALECT_TILE_IR_SWIZZLEDPANELS_H

#include <cstdint>

namespace mlir::tile {

/// Integers as the arithmetic of SwizzledPanels: the offsets at planning
/// time and in tests. Division and remainder are unsigned, as the emitted
/// ones are (indices are never negative).
struct IntArith {
  using Value = int64_t;
  Value constant(int64_t v) const { return v; }
  Value add(Value a, Value b) const { return a + b; }
  Value mul(Value a, Value b) const { return a * b; }
  Value div(Value a, Value b) const {
    return static_cast<int64_t>(static_cast<uint64_t>(a) /
                                static_cast<uint64_t>(b));
  }
  Value rem(Value a, Value b) const {
    return static_cast<int64_t>(static_cast<uint64_t>(a) %
                                static_cast<uint64_t>(b));
  }
  Value bitXor(Value a, Value b) const { return a ^ b; }
};

/// The layout of a `rows` x `cols` tile of `eltBytes`-byte elements.
struct SwizzledPanels {
  int64_t rows = 0, cols = 0, eltBytes = 0;
  /// A panel row's bytes, which is the swizzle's width.
  int64_t swizzleBytes = 128;
  /// Rows of one swizzle atom.
  int64_t atomRows = 8;
  /// The unit the swizzle moves.
  static constexpr int64_t kChunkBytes = 16;
  /// The bytes of rows that one value of the swizzle's XOR term covers.
  static constexpr int64_t kPatternRowBytes = 128;

  int64_t panelCols() const { return swizzleBytes / eltBytes; }
  int64_t panelBytes() const { return rows * swizzleBytes; }
  int64_t chunksPerPanelRow() const { return swizzleBytes / kChunkBytes; }
  int64_t atomBytes() const { return swizzleBytes * atomRows; }
  /// The whole tile (one stage of it).
  int64_t bytes() const { return rows * cols * eltBytes; }

  /// The byte offset, before the swizzle, of element (`row`, `col`): its
  /// panel, then the row-major place in it. A tensor-core operand descriptor
  /// or a copy-engine box starting at the element points there, and the
  /// hardware applies the swizzle from the address bits (so the tile and
  /// its stages are atom-aligned).
  int64_t unswizzledOffset(int64_t row, int64_t col) const {
    int64_t colByte = col * eltBytes;
    return colByte / swizzleBytes * panelBytes() + row * swizzleBytes +
           colByte % swizzleBytes;
  }

  /// Where chunk `chunk` of a row whose place in its atom is `rowInAtom`
  /// lands within the panel row: the swizzle. The hardware XORs the chunk
  /// bits of a byte offset with its bits 7 and up (CuTe's Swizzle<B, 4, 3>,
  /// B = log2 of the chunks a row holds), so rows narrower than 128 bytes
  /// share a pattern two (64-byte) or four (32-byte) at a time.
  template <typename Arith>
  typename Arith::Value swizzle(Arith &a, typename Arith::Value chunk,
                                typename Arith::Value rowInAtom) const {
    int64_t rowsPerPattern = kPatternRowBytes / swizzleBytes;
    if (rowsPerPattern <= 1)
      return a.bitXor(chunk, rowInAtom);
    return a.bitXor(chunk, a.div(rowInAtom, a.constant(rowsPerPattern)));
  }

  /// The byte offset in the tile of element (`row`, `col`).
  template <typename Arith>
  typename Arith::Value elementOffset(Arith &a, typename Arith::Value row,
                                      typename Arith::Value col) const {
    using V = typename Arith::Value;
    V panel = a.div(col, a.constant(panelCols()));
    V colByte =
        a.mul(a.rem(col, a.constant(panelCols())), a.constant(eltBytes));
    V chunk = swizzle(a, a.div(colByte, a.constant(kChunkBytes)),
                      a.rem(row, a.constant(atomRows)));
    return a.add(a.add(a.mul(panel, a.constant(panelBytes())),
                       a.mul(row, a.constant(swizzleBytes))),
                 a.add(a.mul(chunk, a.constant(kChunkBytes)),
                       a.rem(colByte, a.constant(kChunkBytes))));
  }

  /// What chunkOffset needs of a row, computed once per row.
  template <typename Arith> struct RowTerms {
    typename Arith::Value inAtom; ///< row mod atomRows
    typename Arith::Value base;   ///< row * swizzleBytes
  };
  template <typename Arith>
  RowTerms<Arith> rowTerms(Arith &a, typename Arith::Value row) const {
    RowTerms<Arith> t;
    t.inAtom = a.rem(row, a.constant(atomRows));
    t.base = a.mul(row, a.constant(swizzleBytes));
    return t;
  }

  /// The byte offset in the tile of chunk `q` (16 bytes from column
  /// q * 16 / eltBytes) of the row `row` describes.
  template <typename Arith>
  typename Arith::Value chunkOffset(Arith &a, const RowTerms<Arith> &row,
                                    typename Arith::Value q) const {
    using V = typename Arith::Value;
    V panel = a.div(q, a.constant(chunksPerPanelRow()));
    V inPanel =
        swizzle(a, a.rem(q, a.constant(chunksPerPanelRow())), row.inAtom);
    return a.add(row.base, a.add(a.mul(panel, a.constant(panelBytes())),
                                 a.mul(inPanel, a.constant(kChunkBytes))));
  }
};

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_SWIZZLEDPANELS_H
