//===- AsyncCopy.cpp - global rows into shared tiles with cp.async --------===//
//
// `tile.copy %X[%r, %c] -> %s[%k, 0]` fills row k of a shared tile with the
// tile's width of X's row r from column c (copy_c6). It does not wait: the
// threads issue 16-byte cp.async copies (each thread every T-th chunk of
// the row) and commit them as one group, so that every row a block copies
// is in flight at once without a register holding it. The tile is read
// only after a wait that tile-plan-waits places (tile.copy_wait rows): the
// first read after the copies, or any read in a loop that also copies into
// the tile, waits for all of them (cp.async.wait_group 0) and synchronises
// the block; a row copy into a tile being read follows a barrier.
//
// A chunk lands at its place in the 128-byte swizzled panel layout of
// every shared tile: row k's 16-byte chunk q of a panel at q ^ (k mod 8).
// A chunk that reaches past the row's end copies only the bytes inside it
// and zero-fills the rest (the src-size operand; with none to copy, the
// source address is the memref's first element); one that starts before
// column 0, or a row whose start is not 16-byte aligned, goes element by
// element with predicated loads instead, so no element outside X is read.
//
//===----------------------------------------------------------------------===//

#include "IndexArith.h"
#include "KernelEmitter.h"
#include "PredicatedAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tile;

/// Bytes of one cp.async copy (the only size of its .cg form).
static constexpr int64_t kChunkBytes = 16;

bool tile::isAsyncRowCopy(CopyOp copy) { return copy.isRowLoad(); }

/// 0 <= x < size; `c` makes index constants.
namespace {
/// How one 16-byte chunk of a global row reaches a row of a shared tile
/// (lowerAsyncRowCopy), given the chunk's first column `col`, its byte
/// offset `dst` in the tile and its global address `from`.
struct RowChunkCopy {
  OpBuilder &b;
  Location l;
  llvm::function_ref<Value(int64_t)> c; ///< index constants
  Type elt;
  int64_t eltBytes;
  Value width;        ///< the row's length, in elements
  Value rowInside;    ///< whether the row exists
  Value origin;       ///< the address of the memref's first element
  Value sharedAddr;   ///< the i64 shared-window address of the tiles
  int64_t tileOffset; ///< the tile's offset in the tiles' window
  Value flat;         ///< the tile as a flat memref of elements

  /// cp.async of the bytes of the chunk inside the row; the rest of the 16
  /// bytes is zero-filled. Needs `from` 16-byte aligned and col >= 0.
  void async(Value col, Value dst, Value from) const {
    // Bytes of the chunk inside the row: (width - col) elements, clamped
    // to [0, 16]; none when the row itself is outside.
    Value left = arith::MulIOp::create(
        b, l, arith::SubIOp::create(b, l, width, col), c(eltBytes));
    Value bytes = arith::MaxSIOp::create(
        b, l, arith::MinSIOp::create(b, l, left, c(kChunkBytes)), c(0));
    bytes = arith::SelectOp::create(b, l, rowInside, bytes, c(0));
    // With nothing to read, the source is the memref's first element,
    // an address inside it (the row's may not be: a row past the end).
    Value source = arith::SelectOp::create(
        b, l,
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, bytes, c(0)),
        from, origin);
    Value to = arith::AddIOp::create(
        b, l, sharedAddr,
        arith::IndexCastOp::create(
            b, l, b.getI64Type(),
            arith::AddIOp::create(b, l, dst, c(tileOffset))));
    inlinePtx(
        b, l, Type(),
        ValueRange{to, source,
                   arith::IndexCastOp::create(b, l, b.getI32Type(), bytes)},
        "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r");
  }

  /// The chunk element by element, each a predicated load (zero outside
  /// the row) stored to the tile.
  void byElement(Value col, Value dst, Value from) const {
    for (int64_t e = 0; e < kChunkBytes / eltBytes; ++e) {
      Value inside = arith::AndIOp::create(
          b, l, rowInside,
          inRange(b, l, arith::AddIOp::create(b, l, col, c(e)), width));
      Value x = emitPredicatedLoad(b, l, inside, from, e * eltBytes, elt);
      Value idx = arith::DivUIOp::create(
          b, l, arith::AddIOp::create(b, l, dst, c(e * eltBytes)), c(eltBytes));
      memref::StoreOp::create(b, l, x, flat, ValueRange{idx});
    }
  }
};
} // namespace

LogicalResult KernelEmitter::lowerAsyncRowCopy(CopyOp op) {
  Location l = op.getLoc();
  const SharedTilePlan &p = plan.sharedTiles.lookup(op.getDest());
  Value src = map.lookup(op.getSource());
  auto srcType = cast<MemRefType>(op.getSource().getType());
  int64_t rank = srcType.getRank();
  Type elt = srcType.getElementType();
  int64_t eltBytes = p.eltBytes();
  int64_t perChunk = kChunkBytes / eltBytes;
  int64_t chunks = p.cols() * eltBytes / kChunkBytes;
  auto c = [&](int64_t v) { return index(v); };
  auto i64c = [&](int64_t v) { return i64(v); };

  SmallVector<Value> offsets;
  for (Value v : op.getSourceOffsets())
    offsets.push_back(map.lookup(v));
  Value row = map.lookup(op.getDestOffsets()[0]);
  // The leading offsets select the row; it exists if each is in range.
  Value rowInside =
      andIndicesInside(b, l, arith::ConstantIntOp::create(b, l, 1, 1), src,
                       ArrayRef<Value>(offsets).drop_back());
  Value width = memref::DimOp::create(b, l, src, rank - 1);
  // The address of the row's first element (column `offsets.back()`,
  // possibly negative: it is only computed, not read) and whether it is
  // 16-byte aligned, which every chunk then is.
  Value first = globalAddress(b, l, src, offsets);
  Type ptrType = first.getType();
  Value firstInt = LLVM::PtrToIntOp::create(b, l, b.getI64Type(), first);
  Value aligned = arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, l, firstInt, i64c(kChunkBytes)), i64c(0));
  Value col0 = offsets.back();
  Value origin = globalAddress(b, l, src, SmallVector<Value>(rank, c(0)));

  // Byte offset in the tile of the row's chunk q: its panel, then the
  // swizzled chunk within the panel's row.
  SwizzledPanels layout = p.layout;
  IndexArith arith{b, l, c};
  SwizzledPanels::RowTerms<IndexArith> rowTerms = layout.rowTerms(arith, row);
  auto offsetInTile = [&](Value q) -> Value {
    return layout.chunkOffset(arith, rowTerms, q);
  };
  auto flatType = MemRefType::get(
      {p.stageBytes() / eltBytes}, elt, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  Value flat = memref::ViewOp::create(b, l, flatType, sharedBase, c(p.offset),
                                      ValueRange{});

  // The global address of the row's chunk q.
  auto chunkAddress = [&](Value q) -> Value {
    Value bytes = arith::MulIOp::create(b, l, q, c(kChunkBytes));
    return LLVM::GEPOp::create(
        b, l, ptrType, b.getI8Type(), first,
        ValueRange{arith::IndexCastOp::create(b, l, b.getI64Type(), bytes)});
  };

  RowChunkCopy chunk{b,         l,      c,          elt,      eltBytes, width,
                     rowInside, origin, sharedAddr, p.offset, flat};
  int64_t rounds = llvm::divideCeil(chunks, threads);
  emitFor(c(0), c(rounds), [&](Value round) {
    Value q = arith::AddIOp::create(
        b, l, threadId, arith::MulIOp::create(b, l, round, c(threads)));
    Value mine =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, q, c(chunks));
    emitIf(mine, [&] {
      Value col = arith::AddIOp::create(
          b, l, col0, arith::MulIOp::create(b, l, q, c(perChunk)));
      Value dst = offsetInTile(q);
      Value from = chunkAddress(q);
      Value headInside =
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, col, c(0));
      Value fast = arith::AndIOp::create(b, l, aligned, headInside);
      auto ifOp = scf::IfOp::create(b, l, fast, /*withElse=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifOp.thenYield());
      chunk.async(col, dst, from);
      b.setInsertionPoint(ifOp.elseYield());
      chunk.byElement(col, dst, from);
    });
  });
  inlinePtx(b, l, Type(), ValueRange{}, "cp.async.commit_group;", "");
  return success();
}
