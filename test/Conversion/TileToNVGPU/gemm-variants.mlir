// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-keep-gemms-in-flight --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// K-major B (`transpose_b`, the Q.K^T layout): B is N x K, laid out like A,
// so its descriptor is K-major (`col`) and a k16 step moves 32 bytes.
// Two warpgroups split M: each issues one m64 row of wgmma per k16 step.
// CHECK-LABEL: gpu.func @gemm_nt
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK: scf.for
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: arith.truncf %{{.*}} : f32 to bf16
tile.kernel @gemm_nt(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xbf16>)
    grid [%C[1] / 128, %C[0] / 128] threads 256 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %bx = tile.block_id x
  %by = tile.block_id y
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c128 : index
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %kt = arith.ceildivui %K, %c64 : index
  %a = tile.alloc_shared : !tile.shared<128x64xbf16>
  %b = tile.alloc_shared : !tile.shared<128x64xbf16>
  %acc = tile.alloc_fragment : !tile.fragment<128x128xf32>
  tile.fill %acc, %zero : !tile.fragment<128x128xf32>, f32
  tile.pipelined %k = %c0 to %kt step %c1 num_stages 2 {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%m0, %k0] -> %a : memref<?x?xbf16> -> !tile.shared<128x64xbf16>
    tile.copy %B[%n0, %k0] -> %b : memref<?x?xbf16> -> !tile.shared<128x64xbf16>
    tile.gemm %a, %b, %acc {transpose_b} : !tile.shared<128x64xbf16>, !tile.shared<128x64xbf16>, !tile.fragment<128x128xf32>
  }
  tile.copy %acc -> %C[%m0, %n0] : !tile.fragment<128x128xf32> -> memref<?x?xbf16>
}

// -----

// When the loop body reads the accumulator after the gemm, the gemm waits
// for its own group (wait_group 0) instead of leaving it in flight.
// CHECK-LABEL: gpu.func @gemm_then_read
// CHECK: scf.for
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NOT: wgmma.wait_group.sync.aligned 1;
tile.kernel @gemm_then_read(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>)
    grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %B[%k, %c0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %b, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
  }
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// min_blocks_per_sm becomes the kernel's minimum resident blocks.
// CHECK-LABEL: gpu.func @occupancy
// CHECK-SAME: nvvm.minctasm = 4 : i32
tile.kernel @occupancy(%X: memref<?x?xf32>) grid [1] threads 128 attributes {min_blocks_per_sm = 4 : i64} {
}

// -----

// A from registers: an f16 fragment in the accumulator layout feeds the
// wgmma's A registers; B stays in shared memory.
// CHECK-LABEL: gpu.func @register_a
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 1;
// CHECK: nvvm.wgmma.commit.group.sync.aligned
tile.kernel @register_a(%B: memref<?x?xf16>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %s = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %p = tile.alloc_fragment : !tile.fragment<64x64xf16>
  %o = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %B[%c0, %c0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
  tile.fill %s, %zero : !tile.fragment<64x64xf32>, f32
  tile.gemm %b, %b, %s : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.copy %s -> %p : !tile.fragment<64x64xf32> -> !tile.fragment<64x64xf16>
  tile.fill %o, %zero : !tile.fragment<64x64xf32>, f32
  tile.gemm %p, %b, %o : !tile.fragment<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.copy %o -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// zero_init: the first wgmma of the k-steps computes D = A.B (scale-d
// zero) from undefined registers, the others accumulate; without it (the
// conversion folds no fill itself), the accumulator's registers are loaded
// and every wgmma accumulates.
// CHECK-LABEL: gpu.func @zero_init
// CHECK: llvm.mlir.undef : !llvm.struct<(f32
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async {{.*}} D[<f32>, <zero>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-LABEL: gpu.func @accumulate
// CHECK-COUNT-32: llvm.insertvalue
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK-NOT: D[<f32>, <zero>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
tile.kernel @zero_init(%B: memref<?x?xf16>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %s = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %B[%c0, %c0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
  tile.gemm %b, %b, %s {zero_init} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.copy %s -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}
tile.kernel @accumulate(%B: memref<?x?xf16>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %s = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %B[%c0, %c0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
  tile.fill %s, %zero : !tile.fragment<64x64xf32>, f32
  tile.gemm %b, %b, %s : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.copy %s -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// i8 operands: s8 x s8 wgmma (k32) into an s32 accumulator of i32
// registers, tied through the waits as 32-bit integers ("r").
// CHECK-LABEL: gpu.func @gemm_i8
// CHECK: memref.alloca() : memref<64xi32>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<s32>, <one>], A[<s8>, <one>, <row>], B[<s8>, <one>, <col>] : !llvm.struct<(i32,
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 1;", "=r,=r,
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;", "=r,=r,
tile.kernel @gemm_i8(%A: memref<?x?xi8>, %W: memref<?x?xi8>, %C: memref<?x?xi32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %a = tile.alloc_shared : !tile.shared<64x128xi8>
  %w = tile.alloc_shared : !tile.shared<128x128xi8>
  %acc = tile.alloc_fragment : !tile.fragment<64x128xi32>
  tile.fill %acc, 0 : !tile.fragment<64x128xi32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 3 {
    %k0 = arith.muli %k, %c128 : index
    tile.copy %A[%c0, %k0] -> %a : memref<?x?xi8> -> !tile.shared<64x128xi8>
    tile.copy %W[%c0, %k0] -> %w : memref<?x?xi8> -> !tile.shared<128x128xi8>
    tile.gemm %a, %w, %acc {transpose_b} : !tile.shared<64x128xi8>, !tile.shared<128x128xi8>, !tile.fragment<64x128xi32>
  }
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x128xi32> -> memref<?x?xi32>
}

// -----

// A module without kernels is left alone.
// CHECK-LABEL: func.func @not_a_kernel
// CHECK-NOT: gpu.module
func.func @not_a_kernel() {
  return
}

