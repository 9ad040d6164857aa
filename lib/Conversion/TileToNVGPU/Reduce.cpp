//===- Reduce.cpp - tile.reduce and tile.reduction ----------------------===//
//
// Three levels, each only where the layout needs it (RegisterLayout.h):
// the registers of one thread that share a destination element; the lanes
// of a warp whose index bits move the reduced dimension (butterfly
// shuffles); the warps that do (through shared scratch, between barriers).
// A whole-fragment reduction takes every register, lane and warp.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "tile/Dialect/Tile/IR/TileHardware.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;

static Value combine(OpBuilder &b, Location l, ReduceKind kind, Value x,
                     Value y) {
  switch (kind) {
  case ReduceKind::sum:
    return arith::AddFOp::create(b, l, x, y);
  case ReduceKind::max:
  case ReduceKind::absmax:
    return arith::MaxNumFOp::create(b, l, x, y);
  case ReduceKind::min:
    return arith::MinNumFOp::create(b, l, x, y);
  }
  llvm_unreachable("unknown reduction");
}

static Value identity(OpBuilder &b, Location l, ReduceKind kind, Type t) {
  auto ft = cast<FloatType>(t);
  double v = 0.0;
  if (kind == ReduceKind::max)
    v = -std::numeric_limits<double>::infinity();
  if (kind == ReduceKind::min)
    v = std::numeric_limits<double>::infinity();
  return arith::ConstantOp::create(b, l, b.getFloatAttr(ft, v));
}

LogicalResult KernelEmitter::lowerReduce(ReduceOp op) {
  Location l = op.getLoc();
  Fragment src = fragment(op.getSource());
  Fragment dst = fragment(op.getDest());
  // planReduces checked the layouts and the float element type.
  unsigned dim = op.getDim();
  Type t = op.getDest().getType().getElementType();
  ReduceKind kind = op.getKind();

  // 1. Within the thread.
  SmallVector<Value> acc;
  for (int64_t s = 0; s < dst.layout.numRegs(); ++s)
    acc.push_back(identity(b, l, kind, t));
  for (int64_t r = 0; r < src.layout.numRegs(); ++r) {
    int64_t s = src.layout.sliceRegister(r, dim, dst.layout);
    Value x = memref::LoadOp::create(b, l, src.regs, ValueRange{index(r)});
    if (kind == ReduceKind::absmax)
      x = math::AbsFOp::create(b, l, x);
    acc[s] = combine(b, l, kind, acc[s], x);
  }
  // 2. Across the lanes that hold other elements of the same row.
  Value width = arith::ConstantIntOp::create(b, l, kWarpSize, 32);
  for (int64_t mask : src.layout.laneMasksAlong(dim)) {
    Value offset = arith::ConstantIntOp::create(b, l, mask, 32);
    for (Value &a : acc) {
      auto shuffle =
          gpu::ShuffleOp::create(b, l, a, offset, width, gpu::ShuffleMode::XOR);
      a = combine(b, l, kind, a, shuffle.getShuffleResult());
    }
  }
  // 3. Across the warps that do, through shared scratch laid out as
  // [warp position along dim][destination element].
  SmallVector<unsigned> warpBits = src.layout.warpBitsAlong(dim);
  if (!warpBits.empty()) {
    int64_t positions = 1 << warpBits.size();
    int64_t elements = op.getDest().getType().getNumElements();
    Value scratchOffset = index(plan.reduceScratch.lookup(op));
    auto scratchType =
        MemRefType::get({positions, elements}, t, MemRefLayoutAttrInterface(),
                        gpu::AddressSpaceAttr::get(
                            b.getContext(), gpu::AddressSpace::Workgroup));
    Value scratch = memref::ViewOp::create(b, l, scratchType, sharedBase,
                                           scratchOffset, ValueRange{});
    Value lane = arith::RemUIOp::create(b, l, threadId, index(kWarpSize));
    Value warp = arith::DivUIOp::create(b, l, threadId, index(kWarpSize));
    Value position = index(0);
    for (auto [j, bit] : llvm::enumerate(warpBits)) {
      Value set = arith::AndIOp::create(
          b, l, arith::ShRUIOp::create(b, l, warp, index(bit)), index(1));
      position = arith::AddIOp::create(
          b, l, position, arith::ShLIOp::create(b, l, set, index(j)));
    }
    int64_t laneMask = 0;
    for (int64_t m : src.layout.laneMasksAlong(dim))
      laneMask |= m;
    Value leader = arith::CmpIOp::create(
        b, l, arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, l, lane, index(laneMask)), index(0));
    // The element index of each destination register (row-major).
    SmallVector<Value> keys;
    for (int64_t s = 0; s < dst.layout.numRegs(); ++s) {
      Value key = index(0);
      for (int64_t d = 0; d < dst.layout.rank(); ++d) {
        Value c = arith::AddIOp::create(
            b, l, dst.layout.threadCoord(b, l, threadId, d),
            index(dst.layout.regOffset(s)[d]));
        key = arith::AddIOp::create(
            b, l, arith::MulIOp::create(b, l, key, index(dst.layout.shape[d])),
            c);
      }
      keys.push_back(key);
    }
    emitBarrier(); // earlier readers of the scratch are done
    emitIf(leader, [&] {
      for (auto [s, a] : llvm::enumerate(acc))
        memref::StoreOp::create(b, l, a, scratch,
                                ValueRange{position, keys[s]});
    });
    emitBarrier();
    for (auto [s, a] : llvm::enumerate(acc)) {
      a = identity(b, l, kind, t);
      for (int64_t p = 0; p < positions; ++p)
        a = combine(b, l, kind, a,
                    memref::LoadOp::create(b, l, scratch,
                                           ValueRange{index(p), keys[s]}));
    }
  }
  // Combine with the destination unless it is cleared.
  for (auto [s, a] : llvm::enumerate(acc)) {
    Value result = a;
    if (!op.getClear())
      result = combine(
          b, l, kind,
          memref::LoadOp::create(b, l, dst.regs, ValueRange{index(s)}), a);
    memref::StoreOp::create(b, l, result, dst.regs, ValueRange{index(s)});
  }
  return success();
}

LogicalResult KernelEmitter::lowerReduction(ReductionOp op) {
  Location l = op.getLoc();
  Fragment src = fragment(op.getSource());
  const RegisterLayout &layout = src.layout;
  Type t = op.getType();
  ReduceKind kind = op.getKind();
  // 1. Within the thread. A sum counts a replicated element once: only in
  // the thread whose replicating index bits (lane or warp bits that move
  // no coordinate) are all zero.
  Value acc = identity(b, l, kind, t);
  for (int64_t r = 0; r < layout.numRegs(); ++r) {
    Value x = memref::LoadOp::create(b, l, src.regs, ValueRange{index(r)});
    if (kind == ReduceKind::absmax)
      x = math::AbsFOp::create(b, l, x);
    acc = combine(b, l, kind, acc, x);
  }
  if (kind == ReduceKind::sum && layout.replicatingThreadBits())
    acc = arith::SelectOp::create(b, l, layout.isOwner(b, l, threadId), acc,
                                  identity(b, l, kind, t));
  // 2. Across the warp's lanes.
  Value width = arith::ConstantIntOp::create(b, l, kWarpSize, 32);
  for (int64_t mask = kWarpSize / 2; mask >= 1; mask /= 2) {
    Value offset = arith::ConstantIntOp::create(b, l, mask, 32);
    auto shuffle =
        gpu::ShuffleOp::create(b, l, acc, offset, width, gpu::ShuffleMode::XOR);
    acc = combine(b, l, kind, acc, shuffle.getShuffleResult());
  }
  // 3. Across the warps, through one value per warp in shared scratch.
  int64_t warps = kernel.getThreadCount() / kWarpSize;
  if (warps > 1) {
    auto scratchType =
        MemRefType::get({warps}, t, MemRefLayoutAttrInterface(),
                        gpu::AddressSpaceAttr::get(
                            b.getContext(), gpu::AddressSpace::Workgroup));
    Value scratch = memref::ViewOp::create(b, l, scratchType, sharedBase,
                                           index(plan.reduceScratch.lookup(op)),
                                           ValueRange{});
    Value lane = arith::RemUIOp::create(b, l, threadId, index(kWarpSize));
    Value warp = arith::DivUIOp::create(b, l, threadId, index(kWarpSize));
    Value first =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, lane, index(0));
    emitBarrier(); // earlier readers of the scratch are done
    emitIf(first, [&] {
      memref::StoreOp::create(b, l, acc, scratch, ValueRange{warp});
    });
    emitBarrier();
    acc = identity(b, l, kind, t);
    for (int64_t w = 0; w < warps; ++w)
      acc =
          combine(b, l, kind, acc,
                  memref::LoadOp::create(b, l, scratch, ValueRange{index(w)}));
  }
  // 4. Across the blocks of the cluster: each block's value in its shared
  // word, the cluster's barrier (release, then acquire), every thread reads
  // every block's word through its cluster address (mapa), and the barrier
  // again, so that no block leaves, or writes the word again, while
  // another still reads it.
  if (op.getAcrossCluster()) {
    MLIRContext *ctx = b.getContext();
    Value word = arith::AddIOp::create(b, l, sharedAddr,
                                       i64(plan.clusterScratch.lookup(op)));
    Value local = LLVM::IntToPtrOp::create(
        b, l,
        LLVM::LLVMPointerType::get(
            ctx, static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared)),
        word);
    emitIf(isLeader(), [&] { LLVM::StoreOp::create(b, l, acc, local); });
    emitClusterBarrier();
    acc = identity(b, l, kind, t);
    auto clusterPtr = LLVM::LLVMPointerType::get(
        ctx, static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
    for (int64_t rank = 0, blocks = clusterBlocks(kernel); rank < blocks;
         ++rank) {
      Value remote =
          NVVM::MapaOp::create(b, l, clusterPtr, local, i32(rank)).getRes();
      acc = combine(b, l, kind, acc, LLVM::LoadOp::create(b, l, t, remote));
    }
    emitClusterBarrier();
  }
  map.map(op.getResult(), acc);
  return success();
}
