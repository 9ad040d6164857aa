//===- PredicatedAccess.cpp - Masked global accesses without branches -----===//

#include "PredicatedAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

Value tile::globalAddress(OpBuilder &b, Location l, Value memref,
                          ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, l, memref);
  Value linear = meta.getOffset();
  for (auto [index, stride] : llvm::zip(indices, meta.getStrides()))
    linear = arith::AddIOp::create(b, l, linear,
                                   arith::MulIOp::create(b, l, index, stride));
  Type i64 = b.getI64Type();
  int64_t eltBytes = type.getElementTypeBitWidth() / 8;
  Value bytes = arith::MulIOp::create(
      b, l, arith::IndexCastOp::create(b, l, i64, linear),
      arith::ConstantOp::create(b, l, b.getI64IntegerAttr(eltBytes)));
  // A memref in the global address space holds a global pointer; a generic
  // one (a kernel argument not yet marked) is converted once, with
  // cvta.to.global (an addrspacecast). Then byte offsets.
  Value base = arith::IndexCastUIOp::create(
      b, l, i64, memref::ExtractAlignedPointerAsIndexOp::create(b, l, memref));
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

Value tile::inRange(OpBuilder &b, Location l, Value x, Value size) {
  Value zero = arith::ConstantIndexOp::create(b, l, 0);
  Value above = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, x, zero);
  Value below = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, x, size);
  return arith::AndIOp::create(b, l, above, below);
}

Value tile::andIndicesInside(OpBuilder &b, Location l, Value inside,
                             Value memref, ValueRange indices) {
  for (auto [d, i] : llvm::enumerate(indices))
    inside = arith::AndIOp::create(
        b, l, inside, inRange(b, l, i, memref::DimOp::create(b, l, memref, d)));
  return inside;
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
  std::string ptx =
      llvm::formatv("mov.b{0} $0, 0;\n\t@$1 ld.global.{1}{2} $0, {3};", regBits,
                    bits == 8 ? "u" : "b", bits, addressOperand(2, byteOffset));
  Value word = inlinePtx(b, l, regType, ValueRange{pred, address}, ptx,
                         ("=" + constraintFor(regBits) + ",b,l").str());
  if (bits < regBits)
    word = arith::TruncIOp::create(b, l, b.getIntegerType(bits), word);
  return arith::BitcastOp::create(b, l, type, word);
}

/// `{$first, ...}` for `n` words, or `$first` for one.
static std::string wordList(unsigned first, int64_t n) {
  if (n == 1)
    return llvm::formatv("${0}", first).str();
  std::string s = "{";
  for (int64_t i = 0; i < n; ++i)
    s += llvm::formatv("{0}${1}", i ? ", " : "", first + i).str();
  return s + "}";
}

/// `.v2`, `.v4`, or nothing for one word.
static StringRef vectorSuffix(int64_t words) {
  return words == 4 ? ".v4" : words == 2 ? ".v2" : "";
}

SmallVector<Value> tile::emitPredicatedVectorLoad(OpBuilder &b, Location l,
                                                  Value pred, Value address,
                                                  int64_t byteOffset, Type type,
                                                  int64_t width) {
  int64_t bits = type.getIntOrFloatBitWidth();
  int64_t nwords = width * bits / 32;
  Type i32 = b.getI32Type();
  SmallVector<Type> wordTypes(nwords, i32);
  Type result =
      nwords == 1 ? i32
                  : LLVM::LLVMStructType::getLiteral(b.getContext(), wordTypes);
  std::string ptx;
  for (int64_t i = 0; i < nwords; ++i)
    ptx += llvm::formatv("mov.b32 ${0}, 0;\n\t", i).str();
  ptx += llvm::formatv("@${0} ld.global{1}.b32 {2}, {3};", nwords,
                       vectorSuffix(nwords), wordList(0, nwords),
                       addressOperand(nwords + 1, byteOffset))
             .str();
  std::string constraints;
  for (int64_t i = 0; i < nwords; ++i)
    constraints += "=r,";
  constraints += "b,l";
  Value raw =
      inlinePtx(b, l, result, ValueRange{pred, address}, ptx, constraints);
  // The words as one vector of i32, reinterpreted as the elements (two f16
  // per word, one f32, half an f64).
  SmallVector<Value> words;
  for (int64_t i = 0; i < nwords; ++i)
    words.push_back(
        nwords == 1 ? raw
                    : LLVM::ExtractValueOp::create(b, l, raw, i).getResult());
  Value packed = vector::FromElementsOp::create(
      b, l, VectorType::get({nwords}, i32), words);
  Value vec =
      vector::BitCastOp::create(b, l, VectorType::get({width}, type), packed);
  SmallVector<Value> out;
  for (int64_t e = 0; e < width; ++e)
    out.push_back(vector::ExtractOp::create(b, l, vec, e));
  return out;
}

void tile::emitPredicatedVectorStore(OpBuilder &b, Location l, Value pred,
                                     Value address, int64_t byteOffset,
                                     ValueRange elements) {
  Type type = elements.front().getType();
  int64_t width = elements.size();
  int64_t nwords = width * type.getIntOrFloatBitWidth() / 32;
  Type i32 = b.getI32Type();
  Value vec = vector::FromElementsOp::create(
      b, l, VectorType::get({width}, type), elements);
  Value words =
      vector::BitCastOp::create(b, l, VectorType::get({nwords}, i32), vec);
  SmallVector<Value> operands{pred, address};
  for (int64_t i = 0; i < nwords; ++i)
    operands.push_back(vector::ExtractOp::create(b, l, words, i));
  std::string ptx =
      llvm::formatv("@$0 st.global{0}.b32 {1}, {2};", vectorSuffix(nwords),
                    addressOperand(1, byteOffset), wordList(2, nwords))
          .str();
  std::string constraints = "b,l";
  for (int64_t i = 0; i < nwords; ++i)
    constraints += ",r";
  inlinePtx(b, l, Type(), operands, ptx, constraints);
}

int64_t tile::reductionWidth(Type type, AtomicKind kind) {
  return kind == AtomicKind::add && (type.isF16() || type.isBF16()) ? 2 : 1;
}

void tile::emitPredicatedReduction(OpBuilder &b, Location l, Value pred,
                                   Value address, int64_t byteOffset,
                                   ValueRange elements, AtomicKind kind) {
  Type type = elements.front().getType();
  std::string at = addressOperand(1, byteOffset);
  if (type.isF16() || type.isBF16()) {
    // add only (AtomicOp::verify): one half, or two packed in a word.
    StringRef name = type.isF16() ? "f16" : "bf16";
    if (elements.size() == 1) {
      Value half = arith::BitcastOp::create(b, l, b.getI16Type(), elements[0]);
      inlinePtx(b, l, Type(), ValueRange{pred, address, half},
                llvm::formatv("@$0 red.global.add.noftz.{0} {1}, $2;", name, at)
                    .str(),
                "b,l,h");
      return;
    }
    Value pair = vector::FromElementsOp::create(
        b, l, VectorType::get({2}, type), elements);
    Value word = vector::ExtractOp::create(
        b, l,
        vector::BitCastOp::create(b, l, VectorType::get({1}, b.getI32Type()),
                                  pair),
        0);
    inlinePtx(b, l, Type(), ValueRange{pred, address, word},
              llvm::formatv("@$0 red.global.add.noftz.{0}x2 {1}, $2;", name, at)
                  .str(),
              "b,l,r");
    return;
  }
  StringRef op = kind == AtomicKind::add   ? "add"
                 : kind == AtomicKind::max ? "max"
                                           : "min";
  if (type.isInteger(32)) {
    inlinePtx(b, l, Type(), ValueRange{pred, address, elements[0]},
              llvm::formatv("@$0 red.global.{0}.s32 {1}, $2;", op, at).str(),
              "b,l,r");
    return;
  }
  if (kind == AtomicKind::add) {
    inlinePtx(b, l, Type(), ValueRange{pred, address, elements[0]},
              llvm::formatv("@$0 red.global.add.f32 {0}, $2;", at).str(),
              "b,l,f");
    return;
  }
  // f32 max (min): the bits of a value with the sign clear order as signed
  // integers, those of a negative value in reverse as unsigned ones; the
  // memory's value is either, and each case picks the right one of the
  // two comparisons.
  Value bits = arith::BitcastOp::create(b, l, b.getI32Type(), elements[0]);
  StringRef positive = kind == AtomicKind::max ? "max" : "min";
  StringRef negative = kind == AtomicKind::max ? "min" : "max";
  inlinePtx(b, l, Type(), ValueRange{pred, address, bits},
            llvm::formatv("{{\n\t.reg .pred pos, neg;\n\t"
                          "setp.ge.s32 pos, $2, 0;\n\t"
                          "and.pred neg, $0, !pos;\n\t"
                          "and.pred pos, $0, pos;\n\t"
                          "@pos red.global.{0}.s32 {2}, $2;\n\t"
                          "@neg red.global.{1}.u32 {2}, $2;\n\t}",
                          positive, negative, at)
                .str(),
            "b,l,r");
}
