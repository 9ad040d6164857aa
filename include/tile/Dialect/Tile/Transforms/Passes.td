//===- Passes.td - Tile transformations --------------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileFinalizeKernelABI : Pass<"tile-finalize-kernel-abi", "ModuleOp"> {
  let summary = "Pass TMA descriptors by value as __grid_constant__ parameters";
  let description = [{
    Runs after `convert-gpu-to-nvvm`. For every `llvm.func` kernel in a
    `gpu.module` whose `tile.tensormap_args` attribute lists parameter indices,
    marks those `!llvm.ptr` parameters as 128-byte by-value, 64-byte aligned
    `nvvm.grid_constant` parameters, so that the PTX has
    `.param .align 64 .b8 p[128]` and the host passes the `CUtensorMap` itself.
    (`gpu.func` cannot carry these attributes: `convert-gpu-to-nvvm` drops
    `llvm.byval` and rejects `nvvm.grid_constant`.)

    Before:
    ```mlir
    llvm.func @k(%arg0: !llvm.ptr, ...) attributes {nvvm.kernel, tile.tensormap_args = array<i64: 0>}
    ```
    After:
    ```mlir
    llvm.func @k(%arg0: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, ...)
        attributes {nvvm.kernel}
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
