//===- Passes.td - Conversions out of the tile dialect -----*- tablegen -*-===//

#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToNVGPU : Pass<"convert-tile-to-nvgpu", "ModuleOp"> {
  let summary = "Lower tile kernels to gpu.func with nvgpu/nvvm for Hopper";
  let description = [{
    Each `tile.kernel` becomes a `gpu.func` in the `gpu.module @tile_kernels`,
    with the kernel ABI of docs/KernelABI.md (bare pointers plus sizes and
    strides, TMA descriptors appended), and its launch metadata is appended to
    the module's `tile.kernel_info` string attribute.

    On sm_90a: global-to-shared copies in a `tile.pipelined` loop become TMA
    loads into a `num_stages`-deep ring of 128-byte-swizzled shared buffers
    guarded by mbarriers; `tile.gemm` becomes warpgroup MMA (`wgmma`) with
    shared-memory descriptors computed here; fragments become per-thread
    register arrays in the tensor-core result layout; a copy of a fragment to
    global memory is a masked store, so tiles that overhang the memref are
    safe.

    Before:
    ```mlir
    tile.kernel @k(%A: memref<?x?xf16>, ...) grid [...] threads 128 { ... }
    ```
    After:
    ```mlir
    module attributes {gpu.container_module, tile.kernel_info = "..."} {
      gpu.module @tile_kernels { gpu.func @k(...) kernel { ... } }
    }
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "The target chip; only sm_90a is supported so far">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

#endif // TILE_CONVERSION_PASSES_TD
