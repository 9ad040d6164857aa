//===- PredicatedAccess.cpp - Masked global accesses without branches -----===//

#include "PredicatedAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/StringExtras.h"
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

/// One inline PTX statement with side effects (so that LLVM keeps it in
/// place relative to barriers and other accesses).
static Value inlinePtx(OpBuilder &b, Location l, Type result,
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

/// `[$1]` or `[$1+N]`.
static std::string addressOperand(int64_t byteOffset) {
  return byteOffset ? llvm::formatv("[$1+{0}]", byteOffset).str() : "[$1]";
}

void tile::emitPredicatedStore(OpBuilder &b, Location l, Value pred,
                               Value address, int64_t byteOffset,
                               ValueRange elements) {
  Type eltType = elements.front().getType();
  unsigned bits = eltType.getIntOrFloatBitWidth() * elements.size();
  // One register for a single element; else 32-bit words (or one 16-bit
  // word for two bytes).
  SmallVector<Value> words;
  if (elements.size() == 1) {
    Value word = arith::BitcastOp::create(b, l, b.getIntegerType(bits),
                                          elements.front());
    if (bits < 16)
      word = arith::ExtUIOp::create(b, l, b.getI16Type(), word);
    words.push_back(word);
  } else {
    unsigned wordBits = std::min(bits, 32u);
    auto vec = vector::FromElementsOp::create(
        b, l, VectorType::get({(int64_t)elements.size()}, eltType), elements);
    auto wordsType = VectorType::get({(int64_t)(bits / wordBits)},
                                     b.getIntegerType(wordBits));
    Value asWords = vector::BitCastOp::create(b, l, wordsType, vec);
    for (unsigned i = 0; i < bits / wordBits; ++i)
      words.push_back(vector::ExtractOp::create(b, l, asWords, i));
  }
  SmallVector<std::string> names, constraints = {"b", "l"};
  for (size_t i = 0; i < words.size(); ++i) {
    names.push_back(llvm::formatv("${0}", i + 2).str());
    constraints.push_back(
        constraintFor(words[i].getType().getIntOrFloatBitWidth()).str());
  }
  std::string ptx;
  if (words.size() == 1)
    ptx = llvm::formatv("@$0 st.global.b{0} {1}, {2};", std::max(bits, 8u),
                        addressOperand(byteOffset), names[0]);
  else
    ptx = llvm::formatv("@$0 st.global.v{0}.b32 {1}, {{{2}};", words.size(),
                        addressOperand(byteOffset), llvm::join(names, ", "));
  SmallVector<Value> operands = {pred, address};
  operands.append(words);
  inlinePtx(b, l, Type(), operands, ptx, llvm::join(constraints, ","));
}

Value tile::emitPredicatedLoad(OpBuilder &b, Location l, Value pred,
                               Value address, int64_t byteOffset, Type type) {
  unsigned bits = type.getIntOrFloatBitWidth();
  unsigned regBits = std::max(bits, 16u);
  Type regType = b.getIntegerType(regBits);
  std::string operand =
      byteOffset ? llvm::formatv("[$2+{0}]", byteOffset).str() : "[$2]";
  std::string ptx = llvm::formatv(
      "mov.b{0} $0, 0;\n\t@$1 ld.global.{1}{2} $0, {3};", regBits,
      bits == 8 ? "u" : "b", bits, operand);
  Value word = inlinePtx(b, l, regType, ValueRange{pred, address}, ptx,
                         ("=" + constraintFor(regBits) + ",b,l").str());
  if (bits < regBits)
    word = arith::TruncIOp::create(b, l, b.getIntegerType(bits), word);
  return arith::BitcastOp::create(b, l, type, word);
}
