//===- PredicatedAccess.cpp - Masked global accesses without branches -----===//

#include "PredicatedAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

Value tile::globalAddress(OpBuilder &b, Location l, Value memref,
                          ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, l, memref);
  Value linear = meta.getOffset();
  for (auto [index, stride] : llvm::zip(indices, meta.getStrides()))
    linear = arith::AddIOp::create(
        b, l, linear, arith::MulIOp::create(b, l, index, stride));
  Type i64 = b.getI64Type();
  int64_t eltBytes = type.getElementTypeBitWidth() / 8;
  Value bytes = arith::MulIOp::create(
      b, l, arith::IndexCastOp::create(b, l, i64, linear),
      arith::ConstantOp::create(b, l, b.getI64IntegerAttr(eltBytes)));
  // A memref in the global address space holds a global pointer; a generic
  // one (a kernel argument not yet marked) is converted once, with
  // cvta.to.global (an addrspacecast). Then byte offsets.
  Value base = arith::IndexCastUIOp::create(
      b, l, i64,
      memref::ExtractAlignedPointerAsIndexOp::create(b, l, memref));
  MLIRContext *ctx = b.getContext();
  auto globalPtr = LLVM::LLVMPointerType::get(ctx, 1);
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  Value global;
  if (space && space.getValue() == gpu::AddressSpace::Global)
    global = LLVM::IntToPtrOp::create(b, l, globalPtr, base);
  else
    global = LLVM::AddrSpaceCastOp::create(
        b, l, globalPtr,
        LLVM::IntToPtrOp::create(b, l, LLVM::LLVMPointerType::get(ctx), base));
  return LLVM::GEPOp::create(b, l, globalPtr, b.getI8Type(), global,
                             ValueRange{bytes});
}

Value tile::inlinePtx(OpBuilder &b, Location l, Type result,
                       ValueRange operands, StringRef ptx,
                       StringRef constraints) {
  auto op = LLVM::InlineAsmOp::create(
      b, l, result ? TypeRange{result} : TypeRange{}, operands, ptx,
      constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  return result ? op.getRes() : Value();
}

/// The PTX register constraint of an integer of `bits`.
static StringRef constraintFor(unsigned bits) {
  return bits == 64 ? "l" : bits == 32 ? "r" : "h";
}

/// The address operand `[$N]` or `[$N+offset]`.
static std::string addressOperand(unsigned operand, int64_t byteOffset) {
  return byteOffset ? llvm::formatv("[${0}+{1}]", operand, byteOffset).str()
                    : llvm::formatv("[${0}]", operand).str();
}

void tile::emitPredicatedStore(OpBuilder &b, Location l, Value pred,
                               Value address, int64_t byteOffset,
                               Value element) {
  unsigned bits = element.getType().getIntOrFloatBitWidth();
  Value word = arith::BitcastOp::create(b, l, b.getIntegerType(bits), element);
  if (bits < 16) // PTX has no 8-bit registers
    word = arith::ExtUIOp::create(b, l, b.getI16Type(), word);
  unsigned regBits = std::max(bits, 16u);
  std::string ptx = llvm::formatv("@$0 st.global.b{0} {1}, $2;", bits,
                                  addressOperand(1, byteOffset));
  inlinePtx(b, l, Type(), ValueRange{pred, address, word}, ptx,
            ("b,l," + constraintFor(regBits)).str());
}

Value tile::emitPredicatedLoad(OpBuilder &b, Location l, Value pred,
                               Value address, int64_t byteOffset, Type type) {
  unsigned bits = type.getIntOrFloatBitWidth();
  unsigned regBits = std::max(bits, 16u);
  Type regType = b.getIntegerType(regBits);
  std::string ptx = llvm::formatv(
      "mov.b{0} $0, 0;\n\t@$1 ld.global.{1}{2} $0, {3};", regBits,
      bits == 8 ? "u" : "b", bits, addressOperand(2, byteOffset));
  Value word = inlinePtx(b, l, regType, ValueRange{pred, address}, ptx,
                         ("=" + constraintFor(regBits) + ",b,l").str());
  if (bits < regBits)
    word = arith::TruncIOp::create(b, l, b.getIntegerType(bits), word);
  return arith::BitcastOp::create(b, l, type, word);
}
