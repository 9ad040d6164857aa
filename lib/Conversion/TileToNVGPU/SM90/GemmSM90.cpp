//===- GemmSM90.cpp - tile.gemm as warpgroup MMA (wgmma) ----------------===//
//
// Each warpgroup computes its rows of C with m64nNk16 wgmma instructions
// whose A and B operands are read from shared memory through matrix
// descriptors computed here (PTX ISA 9.7.15.5.1.2), for the 128-byte swizzled
// panel layout that the TMA loads produce (Planning.cpp):
//
//   A (M x K, K-major): a panel holds 64 f16 of K for every row; an m64 tile
//     is 64 rows x 128 B; a k16 step moves 32 B within the panel.
//     LBO unused (16 B), SBO = 1024 B (8 rows).
//   B (K x N, N-major; "transposed" in PTX terms): a panel holds 64 f16 of N
//     for every k row; a k16 step moves 16 rows (2 KB); the N extent spans
//     panels, so LBO = the panel size, SBO = 1024 B (8 k rows).
//   B (N x K, K-major, `transpose_b`): laid out like A.
//
// The accumulator registers go through the instruction as an LLVM struct,
// and through the final wait as tied inline-asm operands, so that no read of
// them can be scheduled before the wgmma that writes them has completed.
// 8-bit operands (e4m3, e5m2, s8) take k32 steps of the same 32 bytes; s8
// products accumulate in s32, whose registers are i32 where f32's are f32.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "SM90.h"
#include "tile/Dialect/Tile/IR/TileHardware.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;

/// The 64-bit wgmma matrix descriptor of the operand at shared address
/// `addr` (i64) with the given leading and stride byte offsets.
static Value index(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIndexOp::create(b, l, v);
}

static Value i64(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIntOp::create(b, l, v, 64);
}

static Value makeDescriptor(OpBuilder &b, Location l, Value addr,
                            int64_t leadingBytes, int64_t strideBytes) {
  Value start = arith::AndIOp::create(
      b, l,
      arith::ShRUIOp::create(b, l, addr, i64(b, l, sm90::kDescAddressShift)),
      i64(b, l, sm90::kDescFieldMask));
  uint64_t fields = (((uint64_t)leadingBytes >> sm90::kDescAddressShift) &
                     sm90::kDescFieldMask)
                        << sm90::kDescLeadingOffsetBit |
                    (((uint64_t)strideBytes >> sm90::kDescAddressShift) &
                     sm90::kDescFieldMask)
                        << sm90::kDescStrideOffsetBit |
                    sm90::kDescSwizzle128B;
  return arith::OrIOp::create(b, l, start, i64(b, l, (int64_t)fields));
}

/// `n` accumulator registers of `elt` (f32, or i32 for i8 operands).
static LLVM::LLVMStructType accumulatorStruct(Type elt, int64_t n) {
  return LLVM::LLVMStructType::getLiteral(elt.getContext(),
                                          SmallVector<Type>(n, elt));
}

/// The element type of the register array `regs`.
static Type registerType(Value regs) {
  return cast<MemRefType>(regs.getType()).getElementType();
}

/// Packs registers [first, first+n) of `regs` into a struct.
static Value loadStruct(OpBuilder &b, Location l, Value regs, int64_t first,
                        int64_t n) {
  Value s =
      LLVM::UndefOp::create(b, l, accumulatorStruct(registerType(regs), n));
  for (int64_t i = 0; i < n; ++i) {
    Value v =
        memref::LoadOp::create(b, l, regs, ValueRange{index(b, l, first + i)});
    s = LLVM::InsertValueOp::create(b, l, s, v, i);
  }
  return s;
}

static void storeStruct(OpBuilder &b, Location l, Value s, Value regs,
                        int64_t first, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    Value v = LLVM::ExtractValueOp::create(b, l, s, i);
    memref::StoreOp::create(b, l, v, regs, ValueRange{index(b, l, first + i)});
  }
}

/// The four 32-bit A registers of one wgmma k-step with A from registers:
/// registers [first, first+8) of the A fragment (the accumulator layout's
/// registers of columns 16k..16k+15, PTX ISA 9.7.15.5.1), two by two.
/// They are all packed before the gemm's wgmma.fence: registers written
/// between wgmmas make ptxas insert fences and serialise them (C7519).

/// One m64nNk16 wgmma with A from registers. The NVVM op takes only a
/// descriptor for A, so this is inline PTX; the accumulator is tied through.
static SmallVector<Value> packRegisterA(OpBuilder &b, Location l, Value aRegs,
                                        int64_t first, Type elt) {
  SmallVector<Value> packed;
  for (int64_t r = 0; r < 4; ++r) {
    Value lo = memref::LoadOp::create(b, l, aRegs,
                                      ValueRange{index(b, l, first + 2 * r)});
    Value hi = memref::LoadOp::create(
        b, l, aRegs, ValueRange{index(b, l, first + 2 * r + 1)});
    Value pair = vector::FromElementsOp::create(b, l, VectorType::get({2}, elt),
                                                ValueRange{lo, hi});
    packed.push_back(
        LLVM::BitcastOp::create(b, l, b.getI32Type(), pair).getResult());
  }
  return packed;
}

static Value emitRegisterWgmma(OpBuilder &b, Location l, Value acc,
                               ArrayRef<Value> aPacked, Value bDesc, int64_t n,
                               Type elt, bool scaleD, bool transposeB) {
  int64_t count = n / 2;
  SmallVector<Value> operands;
  for (int64_t i = 0; i < count; ++i)
    operands.push_back(LLVM::ExtractValueOp::create(b, l, acc, i));
  operands.append(aPacked.begin(), aPacked.end());
  operands.push_back(bDesc);
  std::string type = elt.isF16() ? "f16" : "bf16";
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, " +
                     std::to_string(scaleD ? 1 : 0) +
                     ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
                     std::to_string(n) + "k16.f32." + type + "." + type + " {";
  std::string constraints;
  for (int64_t i = 0; i < count; ++i) {
    text += (i ? ", $" : "$") + std::to_string(i);
    constraints += "=f,";
  }
  for (int64_t i = 0; i < count; ++i)
    constraints += std::to_string(i) + ",";
  constraints += "r,r,r,r,l";
  int64_t a0 = 2 * count;
  text += "}, {$" + std::to_string(a0) + ", $" + std::to_string(a0 + 1) +
          ", $" + std::to_string(a0 + 2) + ", $" + std::to_string(a0 + 3) +
          "}, $" + std::to_string(a0 + 4) + ", p, 1, 1, " +
          std::to_string(transposeB ? 1 : 0) + ";\n}";
  auto asmOp = LLVM::InlineAsmOp::create(
      b, l, acc.getType(), operands, text, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  return asmOp.getRes();
}

void KernelEmitter::emitWgmmaWait(int64_t pending,
                                  ArrayRef<Value> accumulators) {
  SmallVector<Value> values;
  SmallVector<std::pair<Value, int64_t>> slots;
  for (Value acc : accumulators) {
    Fragment f = fragment(acc);
    for (int64_t i = 0, e = f.layout.numRegs(); i < e; ++i) {
      values.push_back(
          memref::LoadOp::create(b, loc(), f.regs, ValueRange{index(i)}));
      slots.push_back({f.regs, i});
    }
  }
  // Tied through the wait: f32 registers as .f32 ("f"), i32 as .b32 ("r").
  std::string constraints;
  for (Value v : values)
    constraints += v.getType().isF32() ? "=f," : "=r,";
  for (size_t i = 0; i < values.size(); ++i)
    constraints += std::to_string(i) + (i + 1 < values.size() ? "," : "");
  if (values.empty())
    constraints = "";
  std::string text =
      "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";";
  Type result =
      values.empty()
          ? Type()
          : LLVM::LLVMStructType::getLiteral(
                b.getContext(), llvm::to_vector(ValueRange(values).getTypes()));
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc(), result, values, text, constraints, /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  for (auto [i, slot] : llvm::enumerate(slots)) {
    Value v = LLVM::ExtractValueOp::create(b, loc(), asmOp.getRes(), i);
    memref::StoreOp::create(b, loc(), v, slot.first,
                            ValueRange{index(slot.second)});
  }
}

LogicalResult KernelEmitter::lowerGemm(GemmOp op) {
  MLIRContext *ctx = b.getContext();
  Fragment acc = fragment(op.getC());
  auto cType = cast<FragmentType>(op.getC().getType());
  int64_t warpgroups = threads / kWarpgroupSize;
  // A is a shared tile (a descriptor) or a fragment (registers).
  bool aInRegisters = isa<FragmentType>(op.getA().getType());
  const SharedTilePlan &a = plan.sharedTiles.lookup(op.getA());
  const SharedTilePlan &bt = plan.sharedTiles.lookup(op.getB());
  auto aType = cast<ShapedType>(op.getA().getType());
  Type elt = aType.getElementType();
  int64_t eltBytes = elt.getIntOrFloatBitWidth() / 8;
  NVVM::WGMMATypes inType = elt.isF16()        ? NVVM::WGMMATypes::f16
                            : elt.isBF16()     ? NVVM::WGMMATypes::bf16
                            : elt.isInteger(8) ? NVVM::WGMMATypes::s8
                            : isa<Float8E4M3FNType>(elt)
                                ? NVVM::WGMMATypes::e4m3
                                : NVVM::WGMMATypes::e5m2;
  // i8 operands accumulate exactly in s32, the others in f32 (gemm_c4).
  NVVM::WGMMATypes outType =
      elt.isInteger(8) ? NVVM::WGMMATypes::s32 : NVVM::WGMMATypes::f32;
  int64_t n = cType.getShape()[1];
  int64_t regsPerTile = n / 2;
  int64_t kBytes = aType.getShape()[1] * eltBytes;
  int64_t kSteps = kBytes / sm90::kWgmmaKBytes;
  int64_t rowsPerWarpgroup = cType.getShape()[0] / warpgroups;
  int64_t mTiles = rowsPerWarpgroup / sm90::kWgmmaM;
  bool kMajorB = op.transposesB();

  // This warpgroup's rows of A start rowsPerWarpgroup * 128 B into a panel.
  Value warpgroup =
      arith::DivUIOp::create(b, loc(), threadId, index(kWarpgroupSize));
  Value rowOffset = arith::IndexCastOp::create(
      b, loc(), b.getI64Type(),
      arith::MulIOp::create(b, loc(), warpgroup,
                            index(rowsPerWarpgroup * sm90::kSwizzleBytes)));
  Value aBase = aInRegisters
                    ? Value()
                    : arith::AddIOp::create(
                          b, loc(), sharedTileAddress(op.getA()), rowOffset)
                          .getResult();
  Value bBase = sharedTileAddress(op.getB());

  // zero_init (tile-fold-accumulator-fills): the first wgmma computes
  // D = A.B (scale-d 0), so the old registers are not loaded.
  bool zeroed = op.getZeroInit();
  SmallVector<Value> accs;
  for (int64_t mt = 0; mt < mTiles; ++mt)
    accs.push_back(
        zeroed ? LLVM::UndefOp::create(
                     b, loc(),
                     accumulatorStruct(cType.getElementType(), regsPerTile))
                     .getResult()
               : loadStruct(b, loc(), acc.regs, mt * regsPerTile, regsPerTile));

  SmallVector<SmallVector<Value>> aPacked;
  if (aInRegisters) {
    Fragment fa = fragment(op.getA());
    for (int64_t kk = 0; kk < kSteps; ++kk)
      for (int64_t mt = 0; mt < mTiles; ++mt)
        aPacked.push_back(packRegisterA(
            b, loc(), fa.regs, mt * (aType.getShape()[1] / 2) + 8 * kk, elt));
  }
  NVVM::WgmmaFenceAlignedOp::create(b, loc());
  auto shape = NVVM::MMAShapeAttr::get(ctx, sm90::kWgmmaM, n,
                                       sm90::kWgmmaKBytes / eltBytes);
  auto one = NVVM::WGMMAScaleIn::one;
  SwizzledPanels aLayout = a.layout, bLayout = bt.layout;
  for (int64_t kk = 0; kk < kSteps; ++kk) {
    // Each k step's operands start at its columns of A (and rows or
    // columns of B): descriptors take the unswizzled address.
    int64_t kByte = kk * sm90::kWgmmaKBytes;
    Value bDesc;
    if (kMajorB) {
      Value addr = arith::AddIOp::create(
          b, loc(), bBase,
          i64(bLayout.unswizzledOffset(0, kByte / bt.eltBytes())));
      bDesc = makeDescriptor(b, loc(), addr, 16, bLayout.atomBytes());
    } else {
      Value addr = arith::AddIOp::create(
          b, loc(), bBase,
          i64(bLayout.unswizzledOffset(kByte / bt.eltBytes(), 0)));
      bDesc = makeDescriptor(b, loc(), addr, bLayout.panelBytes(),
                             bLayout.atomBytes());
    }
    for (int64_t mt = 0; mt < mTiles; ++mt) {
      bool scaleD = !(zeroed && kk == 0);
      if (aInRegisters) {
        accs[mt] =
            emitRegisterWgmma(b, loc(), accs[mt], aPacked[kk * mTiles + mt],
                              bDesc, n, elt, scaleD, !kMajorB);
        continue;
      }
      int64_t aOff =
          aLayout.unswizzledOffset(mt * sm90::kWgmmaM, kByte / a.eltBytes());
      Value aDesc = makeDescriptor(
          b, loc(), arith::AddIOp::create(b, loc(), aBase, i64(aOff)), 16,
          aLayout.atomBytes());
      accs[mt] = NVVM::WgmmaMmaAsyncOp::create(
          b, loc(), accs[mt].getType(), accs[mt], aDesc, bDesc, shape, inType,
          inType, outType,
          scaleD ? NVVM::WGMMAScaleOut::one : NVVM::WGMMAScaleOut::zero, one,
          one, NVVM::MMALayout::row,
          kMajorB ? NVVM::MMALayout::col : NVVM::MMALayout::row,
          NVVM::MMAIntOverflowAttr());
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc());
  for (int64_t mt = 0; mt < mTiles; ++mt)
    storeStruct(b, loc(), accs[mt], acc.regs, mt * regsPerTile, regsPerTile);
  return success();
}

LogicalResult KernelEmitter::lowerMmaWait(MmaWaitOp op) {
  emitWgmmaWait(op.getPending(), llvm::to_vector(op.getAccumulators()));
  if (freePreviousStage && op->hasAttr(kFreesPreviousStageAttr))
    freePreviousStage();
  return success();
}
