// RUN: tile-opt %tile_src_root/kernels/gemm.mlir --tile-to-cubin | FileCheck %s
// RUN: tile-opt %tile_src_root/kernels/gemm.mlir --tile-to-cubin='chip=sm_90a features=+ptx86 opt-level=2' | FileCheck %s --check-prefix=OPTS

// Down to a cubin assembled by ptxas; the launch metadata stays on the module.
// The first kernel writes C with TMA stores, the last (whose record ends the
// text) with the accumulator's masked stores: C is written, A and B read.
// CHECK: module attributes {gpu.container_module, tile.kernel_info = "tile-kernel-info 1\0Akernel gemm_f16\0Ablock 256 1 1\0Asmem 212992\0Agrid 0 2 1 256\0Agrid 1 2 0 128\0A
// CHECK-SAME: param tensormap 2 f16 2 box 64 128 swizzle 128\0Aaccess 0 read\0Aaccess 1 read\0Aaccess 2 write\0Arequire
// CHECK-SAME: param tensormap 0 f16 2 box 64 128 swizzle 128\0Aparam tensormap 1 f16 2 box 64 64 swizzle 128\0Aaccess 0 read\0Aaccess 1 read\0Aaccess 2 write\0Arequire eq 1:0:B 0:1:A\0Arequire eq 2:0:C 0:0:A\0Arequire eq 2:1:C 1:1:B\0Aend\0A"
// CHECK: gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90a", features = "+ptx80">
// CHECK-SAME: bin = "\7FELF
// CHECK-NOT: gpu.module
// CHECK-NOT: tile.kernel @

// O = 2 is the target default and is not printed.
// OPTS: #nvvm.target<chip = "sm_90a", features = "+ptx86">
