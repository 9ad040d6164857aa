//===- Fragments.cpp - fills and copies of register fragments -----------===//
//
// A fragment is a per-thread register array in its layout (RegisterLayout):
// register r of a thread holds the element at threadCoord + regOffset(r).
// Copies to and from global memory follow that map with masks, and use
// vector accesses for runs of registers that are consecutive in memory.
//
//===----------------------------------------------------------------------===//

#include "FloatConvert.h"
#include "IndexArith.h"
#include "KernelEmitter.h"
#include "PredicatedAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;

/// Bytes of the widest global access (ld/st.global.v4.b32).
static constexpr int64_t kMaxAccessBytes = 16;

LogicalResult KernelEmitter::lowerFill(FillOp op) {
  Fragment f = fragment(op.getDest()); // a fragment (planCopies)
  Type elt = cast<ShapedType>(op.getDest().getType()).getElementType();
  Value value = op.getValue()
                    ? map.lookupOrDefault(op.getValue())
                    : arith::ConstantOp::create(b, loc(), op.getConstantOf(elt))
                          .getResult();
  for (int64_t i = 0, e = f.layout.numRegs(); i < e; ++i)
    memref::StoreOp::create(b, loc(), value, f.regs, ValueRange{index(i)});
  return success();
}

/// The number of consecutive registers that form one contiguous, aligned
/// run of the last dimension in every thread: a power of two, at most 16
/// bytes of `eltBytes` elements.
static int64_t vectorWidth(const RegisterLayout &layout, int64_t eltBytes) {
  int64_t last = layout.rank() - 1;
  for (int64_t v = kMaxAccessBytes / eltBytes; v > 1; v /= 2) {
    bool ok = layout.numRegs() % v == 0;
    for (const Coord &base : layout.laneBases)
      ok &= base[last] % v == 0;
    for (const Coord &base : layout.warpBases)
      ok &= base[last] % v == 0;
    for (int64_t r = 0; ok && r < layout.numRegs(); r += v) {
      const Coord &start = layout.regOffset(r);
      ok &= start[last] % v == 0;
      for (int64_t e = 1; ok && e < v; ++e) {
        Coord expect = start;
        expect[last] += e;
        ok &= layout.regOffset(r + e) == expect;
      }
    }
    if (ok)
      return v;
  }
  return 1;
}

LogicalResult KernelEmitter::lowerGlobalAccess(Location l, Value frag,
                                               Value memref, ValueRange offsets,
                                               bool load,
                                               std::optional<AtomicKind> atomic,
                                               ValueRange bounds) {
  Fragment f = fragment(frag);
  const RegisterLayout &layout = f.layout;
  auto memType = cast<MemRefType>(memref.getType());
  Type gType = memType.getElementType();
  Type fType = cast<FragmentType>(frag.getType()).getElementType();
  Value view = map.lookup(memref);
  int64_t rank = layout.rank();
  int64_t lead = memType.getRank() - rank; // dimensions the tile does not span
  SmallVector<Value> dims, base;
  for (int64_t d = 0; d < memType.getRank(); ++d) {
    dims.push_back(memref::DimOp::create(b, l, view, d));
    // A bound clips the extent (signed: a negative one leaves nothing).
    if (!bounds.empty())
      dims.back() =
          arith::MinSIOp::create(b, l, dims.back(), map.lookup(bounds[d]));
  }
  for (int64_t d = 0; d < rank; ++d)
    base.push_back(
        arith::AddIOp::create(b, l, map.lookup(offsets[lead + d]),
                              layout.threadCoord(b, l, threadId, d)));
  // The dimensions the tile does not span are indexed once: an index past
  // one of them puts the whole tile outside (nothing read or written).
  SmallVector<Value> leadIndices;
  Value leadInside;
  for (int64_t d = 0; d < lead; ++d) {
    leadIndices.push_back(map.lookup(offsets[d]));
    Value in = arith::AndIOp::create(
        b, l,
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge,
                              leadIndices.back(), index(0)),
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt,
                              leadIndices.back(), dims[d]));
    leadInside = leadInside
                     ? arith::AndIOp::create(b, l, leadInside, in).getResult()
                     : in;
  }

  int64_t v = vectorWidth(layout, gType.getIntOrFloatBitWidth() / 8);
  // An element that the layout replicates over threads is combined once,
  // by its owner (a store may write it from each).
  Value owner;
  if (atomic) {
    v = std::min(v, reductionWidth(gType, *atomic));
    owner = layout.isOwner(b, l, threadId);
  }
  // A vector access of w elements also needs every row of the tile to start
  // on a multiple of w (the memref's base is 16-byte aligned): the tile's
  // first element, as a linear offset, and, when the tile spans several
  // rows, the strides between them. Uniform over the block. A tile of one
  // row of a memref whose rows are not multiples of the vector (a softmax
  // row of 50257) is aligned when the kernel starts it on a multiple, even
  // before the row (those columns are masked). Rows of 500 halves are
  // aligned to 4 elements, not 8: the masked path below then takes the
  // widest w they allow. `w` is a power of two, so `& (w - 1)` is the
  // remainder of negative offsets too.
  Value alignBits; // zero in its low bits where every term is
  if (v > 1) {
    auto meta = memref::ExtractStridedMetadataOp::create(b, l, view);
    Value first = meta.getOffset();
    for (int64_t d = 0; d < memType.getRank(); ++d)
      first = arith::AddIOp::create(
          b, l, first,
          arith::MulIOp::create(b, l, map.lookup(offsets[d]),
                                meta.getStrides()[d]));
    SmallVector<Value> terms{first};
    for (int64_t d = 0; d + 1 < rank; ++d)
      if (layout.shape[d] > 1)
        terms.push_back(meta.getStrides()[lead + d]);
    alignBits = terms.front();
    for (Value t : llvm::drop_begin(terms))
      alignBits = arith::OrIOp::create(b, l, alignBits, t);
  }
  auto alignedTo = [&](int64_t w) -> Value {
    return arith::CmpIOp::create(
        b, l, arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, l, alignBits, index(w - 1)), index(0));
  };
  Value aligned = v > 1 ? alignedTo(v) : Value(); // to the widest vector

  auto indicesAt = [&](const SmallVector<Value> &coord) {
    SmallVector<Value> idx(leadIndices);
    idx.append(coord.begin(), coord.end());
    return idx;
  };
  // Bounds are tested as `-base <= offset < dim - base`: two values per
  // thread and dimension, compared with each register's constant offset, so
  // no per-element coordinate stays live (signed: a tile may start before
  // the memref, and threads may start past its end).
  SmallVector<Value> room, before;
  for (int64_t d = 0; d < rank; ++d) {
    room.push_back(arith::SubIOp::create(b, l, dims[lead + d], base[d]));
    before.push_back(arith::SubIOp::create(b, l, index(0), base[d]));
  }
  // Register offsets are not negative: no room leaves every element out.
  if (leadInside)
    room[0] = arith::SelectOp::create(b, l, leadInside, room[0], index(0));
  // The element at `offset` along dimension d is inside.
  auto within = [&](int64_t d, int64_t offset) {
    return arith::AndIOp::create(
        b, l,
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::sle, before[d],
                              index(offset)),
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, index(offset),
                              room[d]));
  };
  // Masked accesses address register r from the thread's first element:
  // one address register per distinct offset along the leading tile
  // dimensions, and the offset along the last one (contiguous in a memref
  // of identity layout) as the instruction's immediate. Set up where the
  // masked path starts.
  int64_t eltBytes = gType.getIntOrFloatBitWidth() / 8;
  bool identity = memType.getLayout().isIdentity();
  Value threadBase;
  SmallVector<Value> rowBytes;
  // The coordinates of register group r's first element.
  auto groupCoord = [&](int64_t r) {
    SmallVector<Value> coord;
    for (int64_t d = 0; d < rank; ++d)
      coord.push_back(
          arith::AddIOp::create(b, l, base[d], index(layout.regOffset(r)[d])));
    return coord;
  };
  auto addressOf = [&](int64_t r) -> std::pair<Value, int64_t> {
    if (!identity)
      return {globalAddress(b, l, view, indicesAt(groupCoord(r))), 0};
    ArrayRef<int64_t> at = layout.regOffset(r);
    Value rowOffset;
    for (int64_t d = 0; d + 1 < rank; ++d) {
      if (!at[d])
        continue;
      Value term = arith::MulIOp::create(
          b, l, rowBytes[d],
          arith::ConstantOp::create(b, l, b.getI64IntegerAttr(at[d])));
      rowOffset =
          rowOffset ? arith::AddIOp::create(b, l, rowOffset, term) : term;
    }
    Value address = threadBase;
    if (rowOffset)
      address = LLVM::GEPOp::create(b, l, threadBase.getType(), b.getI8Type(),
                                    threadBase, ValueRange{rowOffset});
    return {address, at.back() * eltBytes};
  };

  // Register r's element under a mask: a predicated instruction, no branch
  // (PredicatedAccess.h).
  auto scalarAccess = [&](int64_t r, Value inside) {
    auto [address, offset] = addressOf(r);
    if (load) {
      Value x = emitPredicatedLoad(b, l, inside, address, offset, gType);
      memref::StoreOp::create(b, l, convertFloat(b, l, x, fType), f.regs,
                              ValueRange{index(r)});
      return;
    }
    Value x = convertFloat(
        b, l, memref::LoadOp::create(b, l, f.regs, ValueRange{index(r)}),
        gType);
    if (atomic)
      emitPredicatedReduction(b, l, arith::AndIOp::create(b, l, inside, owner),
                              address, offset, x, *atomic);
    else
      emitPredicatedStore(b, l, inside, address, offset, x);
  };

  // Registers [r, r + width) as the memref's element type, to store.
  auto storedElements = [&](int64_t r, int64_t width) {
    SmallVector<Value> elements;
    for (int64_t e = 0; e < width; ++e)
      elements.push_back(convertFloat(
          b, l, memref::LoadOp::create(b, l, f.regs, ValueRange{index(r + e)}),
          gType));
    return elements;
  };

  // One unmasked vector access of registers [r, r + width) at `coord`.
  auto vectorAccess = [&](int64_t r, int64_t width,
                          const SmallVector<Value> &coord) {
    auto vecType = VectorType::get({width}, gType);
    int64_t alignment = width * gType.getIntOrFloatBitWidth() / 8;
    if (load) {
      auto vec = vector::LoadOp::create(b, l, vecType, view, indicesAt(coord));
      vec.setAlignment(alignment);
      for (int64_t e = 0; e < width; ++e)
        memref::StoreOp::create(
            b, l,
            convertFloat(b, l, vector::ExtractOp::create(b, l, vec, e), fType),
            f.regs, ValueRange{index(r + e)});
      return;
    }
    SmallVector<Value> elements = storedElements(r, width);
    if (atomic) {
      emitPredicatedReduction(b, l, owner,
                              globalAddress(b, l, view, indicesAt(coord)), 0,
                              elements, *atomic);
      return;
    }
    auto store = vector::StoreOp::create(
        b, l, vector::FromElementsOp::create(b, l, vecType, elements), view,
        indicesAt(coord));
    store.setAlignment(alignment);
  };

  // Test once whether the whole tile is inside the memref and aligned: then
  // every group is one unmasked vector access, and only tiles at the edges
  // take the masked element-by-element path below.
  std::optional<OpBuilder::InsertionGuard> fastPathGuard;
  if (v > 1) {
    Value inside =
        leadInside
            ? arith::AndIOp::create(b, l, aligned, leadInside).getResult()
            : aligned;
    for (int64_t d = 0; d < rank; ++d) {
      Value origin = map.lookup(offsets[lead + d]);
      Value end = arith::AddIOp::create(b, l, origin, index(layout.shape[d]));
      inside = arith::AndIOp::create(
          b, l, inside,
          arith::AndIOp::create(
              b, l,
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, origin,
                                    index(0)),
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::sle, end,
                                    dims[lead + d])));
    }
    auto split = scf::IfOp::create(b, l, inside, /*withElseRegion=*/true);
    fastPathGuard.emplace(b);
    b.setInsertionPoint(split.thenYield());
    for (int64_t r = 0; r < layout.numRegs(); r += v)
      vectorAccess(r, v, groupCoord(r));
    b.setInsertionPoint(split.elseYield());
  }

  // Element by element, each under its mask.
  if (identity) {
    threadBase = globalAddress(b, l, view, indicesAt(base));
    auto meta = memref::ExtractStridedMetadataOp::create(b, l, view);
    for (int64_t d = 0; d + 1 < rank; ++d)
      rowBytes.push_back(arith::MulIOp::create(
          b, l,
          arith::IndexCastOp::create(b, l, b.getI64Type(),
                                     meta.getStrides()[lead + d]),
          arith::ConstantOp::create(b, l, b.getI64IntegerAttr(eltBytes))));
  }
  // Register r's element is inside the memref.
  auto elementInside = [&](ArrayRef<int64_t> at, int64_t extra) {
    Value inside;
    for (int64_t d = 0; d < rank; ++d) {
      Value in = within(d, at[d] + (d + 1 == rank ? extra : 0));
      inside = inside ? arith::AndIOp::create(b, l, inside, in) : in;
    }
    return inside;
  };
  auto scalarAccesses = [&] {
    for (int64_t r = 0; r < layout.numRegs(); ++r)
      scalarAccess(r, elementInside(layout.regOffset(r), 0));
  };
  if (v == 1 || !identity) {
    scalarAccesses();
    return success();
  }
  // An edge tile (a row shorter than the tile, the last rows), or a tile
  // aligned to fewer elements than v: registers go in groups of w, the
  // widest the tile's alignment allows, chosen once per block. Each group
  // wholly inside is one vector access under its predicate; only the
  // elements of groups that straddle the edge go one by one. Both are
  // predicated, exclusively, so nothing branches within a width.
  Value one = arith::ConstantIntOp::create(b, l, 1, 1);
  auto maskedGroups = [&](int64_t w) {
    for (int64_t r = 0; r < layout.numRegs(); r += w) {
      ArrayRef<int64_t> at = layout.regOffset(r);
      Value whole = arith::AndIOp::create(b, l, elementInside(at, 0),
                                          elementInside(at, w - 1));
      Value partial = arith::XOrIOp::create(b, l, whole, one);
      auto [address, offset] = addressOf(r);
      if (load) {
        SmallVector<Value> vec =
            emitPredicatedVectorLoad(b, l, whole, address, offset, gType, w);
        for (int64_t e = 0; e < w; ++e) {
          Value in = arith::AndIOp::create(
              b, l, partial, elementInside(layout.regOffset(r + e), 0));
          Value x = emitPredicatedLoad(b, l, in, address, offset + e * eltBytes,
                                       gType);
          Value pick = arith::SelectOp::create(b, l, whole, vec[e], x);
          memref::StoreOp::create(b, l, convertFloat(b, l, pick, fType), f.regs,
                                  ValueRange{index(r + e)});
        }
        continue;
      }
      SmallVector<Value> elements = storedElements(r, w);
      if (atomic)
        emitPredicatedReduction(b, l, arith::AndIOp::create(b, l, whole, owner),
                                address, offset, elements, *atomic);
      else
        emitPredicatedVectorStore(b, l, whole, address, offset, elements);
      for (int64_t e = 0; e < w; ++e) {
        Value in = arith::AndIOp::create(
            b, l, partial, elementInside(layout.regOffset(r + e), 0));
        if (atomic)
          emitPredicatedReduction(b, l, arith::AndIOp::create(b, l, in, owner),
                                  address, offset + e * eltBytes, elements[e],
                                  *atomic);
        else
          emitPredicatedStore(b, l, in, address, offset + e * eltBytes,
                              elements[e]);
      }
    }
  };
  // Vector accesses are 4 to 16 bytes (PredicatedAccess.h); the insertion
  // point goes back after the fast path's split when fastPathGuard ends.
  for (int64_t w = v; w > 1 && w * eltBytes >= 4; w /= 2) {
    Value ok = w == v ? aligned : alignedTo(w);
    auto split = scf::IfOp::create(b, l, ok, /*withElseRegion=*/true);
    b.setInsertionPoint(split.thenYield());
    maskedGroups(w);
    b.setInsertionPoint(split.elseYield());
  }
  scalarAccesses();
  return success();
}

/// A fragment is combined element by element as it would be stored; a
/// scalar once, by one thread of the block.
LogicalResult KernelEmitter::lowerAtomic(AtomicOp op) {
  if (plan.fragments.count(op.getValue()))
    return lowerGlobalAccess(op.getLoc(), op.getValue(), op.getDest(),
                             op.getOffsets(), /*load=*/false, op.getKind());
  Location l = op.getLoc();
  SmallVector<Value> indices;
  for (Value v : op.getOffsets())
    indices.push_back(map.lookup(v));
  Value address = globalAddress(b, l, map.lookup(op.getDest()), indices);
  Value inside =
      andIndicesInside(b, l, isLeader(), map.lookup(op.getDest()), indices);
  emitPredicatedReduction(b, l, inside, address, 0,
                          map.lookupOrDefault(op.getValue()), op.getKind());
  return success();
}

void KernelEmitter::emitOneShotTmaCopy(CopyOp op) {
  Location l = op.getLoc();
  MLIRContext *ctx = b.getContext();
  auto barType = nvgpu::MBarrierGroupType::get(
      ctx, gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup), 1);
  Value bars = nvgpu::MBarrierCreateOp::create(b, l, barType);
  Value leader = isLeader();
  emitIf(leader, [&] {
    nvgpu::MBarrierInitOp::create(b, l, bars, index(1), index(0), Value());
  });
  emitBarrier();
  SmallVector<Value> offsets;
  for (Value v : op.getSourceOffsets())
    offsets.push_back(map.lookup(v));
  emitIf(leader, [&] {
    nvgpu::MBarrierArriveExpectTxOp::create(
        b, l, bars, index(plan.sharedTiles.lookup(op.getDest()).stageBytes()),
        index(0), Value());
    emitTmaCopy(op, bars, index(0), index(0), offsets);
  });
  Value phase = arith::ConstantIntOp::create(b, l, 0, 1);
  nvgpu::MBarrierTryWaitParityOp::create(b, l, bars, phase,
                                         index(kMbarrierWaitTicks), index(0));
}

/// fragment <-> shared: each thread stores (or loads) its elements at their
/// place in the 128-byte-swizzled panel layout that TMA and wgmma use: in a
/// panel, row r's 16-byte chunk c sits at chunk c ^ (r mod 8) (PTX ISA
/// 9.7.15.5.1, the 128B swizzle). With offsets, the fragment is the window
/// of the shared tile at them. After a store the writes are made visible to
/// the async proxy (wgmma, TMA) and the block synchronises, so any thread
/// may read them next.
LogicalResult KernelEmitter::copySharedFragment(CopyOp op, bool store) {
  Location l = op.getLoc();
  Value frag = store ? op.getSource() : op.getDest();
  Value tile = store ? op.getDest() : op.getSource();
  ValueRange offsets = store ? op.getDestOffsets() : op.getSourceOffsets();
  Fragment f = fragment(frag);
  const SharedTilePlan &p = plan.sharedTiles.lookup(tile);
  // 2-d, or 1-d read from a row of the tile at the offsets (planCopies).
  const RegisterLayout &layout = f.layout;
  bool fromRow = layout.rank() == 1;
  Type t = cast<SharedType>(tile.getType()).getElementType();
  Type fragT = cast<FragmentType>(frag.getType()).getElementType();
  int64_t eltBytes = p.eltBytes();
  auto space =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  // A pipelined tile is read from the stage of the iteration being lowered
  // (inside the loop that fills it: planCopies).
  Value shift = index(p.offset);
  if (p.stages > 1)
    shift = arith::AddIOp::create(
        b, l, shift,
        arith::MulIOp::create(b, l, currentStage, index(p.stageBytes())));
  Value flat = memref::ViewOp::create(
      b, l,
      MemRefType::get({p.stageBytes() / eltBytes}, t,
                      MemRefLayoutAttrInterface(), space),
      sharedBase, shift, ValueRange{});
  // A vector stays inside one 16-byte chunk (the unit the swizzle moves)
  // only if the window starts on a multiple of its width.
  int64_t v = vectorWidth(layout, eltBytes);
  if (!offsets.empty()) {
    APInt col;
    if (!matchPattern(offsets[1], m_ConstantInt(&col)) ||
        col.getSExtValue() % v != 0)
      v = 1;
  }
  Value rowT = fromRow ? index(0) : layout.threadCoord(b, l, threadId, 0);
  Value colT = layout.threadCoord(b, l, threadId, fromRow ? 0 : 1);
  if (!offsets.empty()) {
    rowT = arith::AddIOp::create(b, l, rowT, map.lookup(offsets[0]));
    colT = arith::AddIOp::create(b, l, colT, map.lookup(offsets[1]));
  }
  auto c = [&](int64_t x) { return index(x); };
  IndexArith arith{b, l, c};
  for (int64_t r = 0; r < layout.numRegs(); r += v) {
    const Coord &at = layout.regOffset(r);
    Value row = fromRow ? rowT : arith::AddIOp::create(b, l, rowT, c(at[0]));
    Value col = arith::AddIOp::create(b, l, colT, c(at.back()));
    Value byte = p.layout.elementOffset(arith, row, col);
    Value idx = arith::DivUIOp::create(b, l, byte, c(eltBytes));
    if (!store) {
      SmallVector<Value> elements;
      if (v == 1) {
        elements.push_back(memref::LoadOp::create(b, l, flat, ValueRange{idx}));
      } else {
        auto load = vector::LoadOp::create(b, l, VectorType::get({v}, t), flat,
                                           ValueRange{idx});
        load.setAlignment(v * eltBytes);
        for (int64_t e = 0; e < v; ++e)
          elements.push_back(vector::ExtractOp::create(b, l, load, e));
      }
      for (int64_t e = 0; e < v; ++e)
        memref::StoreOp::create(b, l, convertFloat(b, l, elements[e], fragT),
                                f.regs, ValueRange{c(r + e)});
      continue;
    }
    SmallVector<Value> elements;
    for (int64_t e = 0; e < v; ++e)
      elements.push_back(convertFloat(
          b, l, memref::LoadOp::create(b, l, f.regs, ValueRange{c(r + e)}), t));
    if (v == 1) {
      memref::StoreOp::create(b, l, elements[0], flat, ValueRange{idx});
      continue;
    }
    Value vec =
        vector::FromElementsOp::create(b, l, VectorType::get({v}, t), elements);
    auto vstore = vector::StoreOp::create(b, l, vec, flat, ValueRange{idx});
    vstore.setAlignment(v * eltBytes);
  }
  if (!store)
    return success();
  NVVM::FenceProxyOp::create(
      b, l,
      NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  emitBarrier();
  return success();
}

/// shared -> global: the leader issues one TMA store per panel of the tile
/// and commits them as a bulk group; the block does not wait. The tile's
/// contents were made visible to the async proxy by whoever wrote them
/// (copySharedFragment fences and synchronises; TMA loads are async-proxy
/// writes already).
void KernelEmitter::emitTmaStore(CopyOp op) {
  const SharedTilePlan &p = plan.sharedTiles.lookup(op.getSource());
  unsigned tma = plan.copyTensorMap.lookup(op);
  const TensorMapPlan &t = plan.tensorMaps[tma];
  SmallVector<Value> offsets;
  for (Value v : op.getDestOffsets())
    offsets.push_back(map.lookup(v));
  emitIf(isLeader(), [&] {
    for (int64_t panel = 0; panel < p.cols() / p.panelCols(); ++panel) {
      Value view = sharedPanelView(op.getSource(), index(0), panel, t.rank);
      // TMA coordinates are innermost first; elements outside the tensor
      // are not written.
      SmallVector<Value> coords{arith::AddIOp::create(
          b, loc(), offsets.back(), index(panel * p.panelCols()))};
      for (int64_t d = t.rank - 2; d >= 0; --d)
        coords.push_back(offsets[d]);
      nvgpu::TmaAsyncStoreOp::create(b, loc(), view, tensorMapArgs[tma], coords,
                                     Value());
    }
    NVVM::CpAsyncBulkCommitGroupOp::create(b, loc());
  });
}

LogicalResult KernelEmitter::lowerCopyWait(CopyWaitOp op) {
  switch (op.getKind()) {
  case CopyWaitKind::rows:
    inlinePtx(b, loc(), Type(), ValueRange{}, "cp.async.wait_group 0;", "");
    break;
  case CopyWaitKind::store_reads:
    // The thread that issued the stores waits for them.
    emitIf(isLeader(), [&] {
      NVVM::CpAsyncBulkWaitGroupOp::create(b, loc(), b.getI32IntegerAttr(0),
                                           b.getUnitAttr());
    });
    break;
  }
  if (op.getBarrier())
    emitBarrier();
  return success();
}

LogicalResult KernelEmitter::lowerCopy(CopyOp op) {
  // An `after_loops` tile may lie over a loop's stages that other warps
  // still read (their last wgmma, a row of the last stage): every thread
  // that runs the code after the loops is past them first.
  if (isa<SharedType>(op.getDest().getType()) &&
      plan.sharedTiles.lookup(op.getDest()).afterLoops)
    emitBarrier();
  switch (plan.copyPaths.lookup(op)) {
  case CopyPath::AsyncRows:
    return lowerAsyncRowCopy(op);
  case CopyPath::TmaStore:
    emitTmaStore(op);
    return success();
  case CopyPath::TmaLoad:
    if (!isa<PipelinedOp>(op->getParentOp()))
      emitOneShotTmaCopy(op);
    return success(); // else issued by the enclosing pipelined loop
  case CopyPath::FragmentToShared:
    return copySharedFragment(op, /*store=*/true);
  case CopyPath::SharedToFragment:
    return copySharedFragment(op, /*store=*/false);
  case CopyPath::GlobalToFragment:
    return lowerGlobalAccess(op.getLoc(), op.getDest(), op.getSource(),
                             op.getSourceOffsets(), /*load=*/true,
                             /*atomic=*/{}, op.getBounds());
  case CopyPath::FragmentToGlobal:
    return lowerGlobalAccess(op.getLoc(), op.getSource(), op.getDest(),
                             op.getDestOffsets(), /*load=*/false,
                             /*atomic=*/{}, op.getBounds());
  case CopyPath::FragmentToFragment:
    break;
  }
  Fragment from = fragment(op.getSource());
  Fragment to = fragment(op.getDest());
  Type toType = cast<FragmentType>(op.getDest().getType()).getElementType();
  for (int64_t r = 0; r < from.layout.numRegs(); ++r) {
    Value x = memref::LoadOp::create(b, loc(), from.regs, ValueRange{index(r)});
    memref::StoreOp::create(b, loc(), convertFloat(b, loc(), x, toType),
                            to.regs, ValueRange{index(r)});
  }
  return success();
}
