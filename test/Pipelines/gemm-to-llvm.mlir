// RUN: tile-opt %tile_src_root/kernels/gemm.mlir --tile-to-llvm | FileCheck %s

// Before serialisation: an NVVM kernel whose TMA descriptor parameters are
// by-value grid constants, and no tile, nvgpu, memref or scf op left.
// CHECK: gpu.module @tile_kernels [#nvvm.target<chip = "sm_90a", features = "+ptx80">]
// CHECK: llvm.mlir.global external @tile_smem() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK: llvm.func @gemm_f16(%{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}
// CHECK-SAME: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-SAME: nvvm.kernel
// CHECK-NOT: {{tile\.|nvgpu\.|memref\.|scf\.}}
