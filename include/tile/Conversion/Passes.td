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
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "The PTX features the binary will be built with: `+ptxNN`, "
           "checked against the chip here (LLVM would exit on a version "
           "the chip cannot use)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def TileEstimateResources : Pass<"tile-estimate-resources", "ModuleOp"> {
  let summary = "Record what each kernel needs of the GPU, before any "
                "lowering";
  let description = [{
    Plans every specialised `tile.kernel` as `convert-tile-to-nvgpu` would
    (shared tiles with all their pipeline stages, barriers, reduction
    scratch, the checks of the target), without emitting code, LLVM or
    ptxas, and records the result on the kernel:
    `tile.resources = {shared_bytes, threads, grid}`, where `grid` is the
    launch rule (`[C[1] / 256, C[0] / 128]`). A kernel the target cannot run
    (shared memory over its limit, a tile wgmma cannot take) gets the same
    diagnostic as in the lowering, naming its bindings. Fragment layouts
    must be inferred first; the `tile-resources` pipeline runs
    `tile-specialize`, `tile-infer-layouts` and this pass. The autotuner
    drops configurations with it before compiling them.

    Example, after `tile-resources{kernels=gemm_f16 bind=STAGES=3}`:
    ```mlir
    tile.kernel @gemm_f16(...) grid [...] threads 256 attributes {
        tile.bindings = {...},
        tile.resources = {grid = "[C[1] / 256, C[0] / 128]",
                          shared_bytes = 147456 : i64, threads = 256 : i64}}
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "The target chip; only sm_90a is supported so far">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::nvgpu::NVGPUDialect"];
}

def TileAssembleCubin : Pass<"tile-assemble-cubin", "ModuleOp"> {
  let summary = "Assemble the PTX objects of gpu.binary ops into cubins "
                "with ptxas";
  let description = [{
    Replaces every `#nvvm.target` object in `assembly` (PTX) format, as
    `gpu-module-to-binary{format=isa}` leaves it, with a `bin` object holding
    the cubin that ptxas assembles from it. ptxas is invoked as the NVVM
    target's own serialiser invokes it (`-arch <chip> --opt-level <O>`, then
    the target's `ptxas-cmd-options`) and found as it finds it: on `PATH`,
    else in the `bin/` of the first of `$CUDA_ROOT`, `$CUDA_HOME` and
    `$CUDA_PATH` that is set. The object keeps its target and properties,
    less `O` (a cubin object does not carry it), plus `ISAToBinaryTimeInMs`:
    the same object as `gpu-module-to-binary{format=bin}` makes.

    Unlike that serialiser, every write is checked: a PTX file that cannot
    be written (full disk, file-size limit), a missing ptxas, a ptxas error
    (with its log) or a cubin that cannot be read back is an error at the
    `gpu.binary` and a pass failure, never the end of the process. The
    temporary files are always removed. Objects of other targets and
    formats are left as they are.

    Before:
    ```mlir
    gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90a">,
        properties = {LLVMIRToISATimeInMs = 100 : i64, O = 2 : i32},
        assembly = "...">]
    ```
    After:
    ```mlir
    gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90a">,
        properties = {ISAToBinaryTimeInMs = 300 : i64,
                      LLVMIRToISATimeInMs = 100 : i64},
        bin = "\7FELF...">]
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // TILE_CONVERSION_PASSES_TD
