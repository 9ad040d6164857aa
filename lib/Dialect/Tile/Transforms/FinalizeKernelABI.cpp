//===- FinalizeKernelABI.cpp - TMA descriptors as grid constants --------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEFINALIZEKERNELABI
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

/// Name of the function attribute listing the TMA descriptor parameters.
static constexpr llvm::StringLiteral kTensorMapArgs = "tile.tensormap_args";
/// sizeof(CUtensorMap) and its alignment (cuda.h: CU_TENSOR_MAP_NUM_QWORDS).
static constexpr int64_t kTensorMapBytes = 128;
static constexpr int64_t kTensorMapAlign = 64;

namespace {
struct FinalizeKernelABIPass
    : tile::impl::TileFinalizeKernelABIBase<FinalizeKernelABIPass> {
  void runOnOperation() override {
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto args = func->getAttrOfType<DenseI64ArrayAttr>(kTensorMapArgs);
      if (!args)
        return;
      func->removeAttr(kTensorMapArgs);
      // Grid constants exist only on kernel parameters (NVVM's verifier).
      if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName())) {
        func.emitOpError("has tensormap parameters but is not a kernel (")
            << NVVM::NVVMDialect::getKernelFuncAttrName()
            << "): TMA descriptors are parameters of kernels";
        return signalPassFailure();
      }
      Builder b(func.getContext());
      for (int64_t i : args.asArrayRef()) {
        if (i < 0 || i >= (int64_t)func.getNumArguments() ||
            !isa<LLVM::LLVMPointerType>(func.getArgumentTypes()[i])) {
          func.emitOpError("tensormap parameter #")
              << i << " must be an !llvm.ptr parameter of the kernel";
          return signalPassFailure();
        }
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(LLVM::LLVMArrayType::get(
                            b.getI8Type(), kTensorMapBytes)));
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(kTensorMapAlign));
        func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        b.getUnitAttr());
      }
    });
  }
};
} // namespace
