// RUN: tile-opt %s --split-input-file --tile-expand-shorthands --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// 8-bit float fragments hold one byte a register. They move between global
// memory and registers unconverted, as integers do, and are converted by the
// target: into 8 bits with cvt.rn.satfinite (round to nearest even, saturate
// at the largest finite value), the value in the low byte of the pair.

// CHECK-LABEL: gpu.func @quantize
// CHECK: memref.alloca() : memref<32xf8E4M3FN>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PAIR:.*]] = nvvm.convert.f32x2.to.f8x2 %[[ZERO]], %{{.*}} {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
// CHECK: %[[BYTE:.*]] = arith.trunci %[[PAIR]] : i16 to i8
// CHECK: %[[Q:.*]] = arith.bitcast %[[BYTE]] : i8 to f8E4M3FN
// CHECK: memref.store %[[Q]], %{{.*}} : memref<32xf8E4M3FN>
// CHECK-NOT: arith.truncf %{{.*}} to f8E4M3FN
// CHECK: vector.store %{{.*}} : memref<?x?xf8E4M3FN, strided<[?, 1]>, #gpu.address_space<global>>, vector<8xf8E4M3FN>
tile.kernel @quantize(%X: memref<?x?xf16>, %Q: memref<?x?xf8E4M3FN>, %s: f32) grid [%X[0] / 16] threads 128 {
  %c0 = tile.let 0
  %m0 = tile.let block_id.x * 16
  %x = tile.alloc_fragment : !tile.fragment<16x256xf32>
  %q = tile.alloc_fragment : !tile.fragment<16x256xf8E4M3FN>
  tile.copy %X[%m0, %c0] -> %x
  tile.parallel ins(%v = %x) outs(%o = %q) {
    %d = arith.mulf %v, %s : f32
    arith.truncf %d : f32 to f8E4M3FN
  }
  tile.copy %q -> %Q[%m0, %c0]
}

// -----

// Out of 8 bits through f16, which holds every e4m3 and e5m2 value: the
// byte in both halves of the pair, element 0 taken.
// CHECK-LABEL: gpu.func @dequantize
// CHECK: vector.load %{{.*}} : memref<?x?xf8E5M2, strided<[?, 1]>, #gpu.address_space<global>>, vector<16xf8E5M2>
// CHECK: %[[BYTE:.*]] = arith.bitcast %{{.*}} : f8E5M2 to i8
// CHECK: %[[PAIR:.*]] = vector.broadcast %[[BYTE]] : i8 to vector<2xi8>
// CHECK: %[[HALVES:.*]] = nvvm.convert.f8x2.to.f16x2 %[[PAIR]] : vector<2xi8>(f8E5M2) -> vector<2xf16>
// CHECK: %[[HALF:.*]] = vector.extract %[[HALVES]][0] : f16 from vector<2xf16>
// CHECK: arith.extf %[[HALF]] : f16 to f32
// CHECK-NOT: arith.extf %{{.*}} : f8E5M2
tile.kernel @dequantize(%Q: memref<?x?xf8E5M2>, %Y: memref<?x?xbf16>) grid [%Q[0] / 64] threads 128 {
  %c0 = tile.let 0
  %m0 = tile.let block_id.x * 64
  %q = tile.alloc_fragment : !tile.fragment<64x128xf8E5M2>
  %y = tile.alloc_fragment : !tile.fragment<64x128xf32>
  tile.copy %Q[%m0, %c0] -> %q
  tile.parallel ins(%v = %q) outs(%o = %y) { arith.extf %v : f8E5M2 to f32 }
  tile.copy %y -> %Y[%m0, %c0]
}

// -----

// Copies convert too, wherever a copy converts (in registers): an f32
// fragment written into an 8-bit shared tile feeds an 8-bit wgmma.
// CHECK-LABEL: gpu.func @quantize_into_gemm
// CHECK: nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E4M3FN)
// CHECK: nvvm.wgmma.mma_async {{.*}} A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
tile.kernel @quantize_into_gemm(%A: memref<?x?xf32>, %W: memref<?x?xf8E4M3FN>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<64x128xf32>
  %a = tile.alloc_shared : !tile.shared<64x128xf8E4M3FN>
  %w = tile.alloc_shared : !tile.shared<64x128xf8E4M3FN>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %A[%c0, %c0] -> %f
  tile.copy %f -> %a
  tile.copy %W[%c0, %c0] -> %w
  tile.fill %acc, 0.0
  tile.gemm %a, %w, %acc {transpose_b}
  tile.copy %acc -> %C[%c0, %c0]
}

// -----

// A fill stores the constant's bits: 1.0 is 0x38 in e4m3.
// CHECK-LABEL: gpu.func @fill
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f8E4M3FN
// CHECK: memref.store %[[ONE]], %{{.*}} : memref<16xf8E4M3FN>
tile.kernel @fill(%A: memref<?x?xf8E4M3FN>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<16x128xf8E4M3FN>
  tile.fill %f, 1.0
  tile.copy %f -> %A[%c0, %c0]
}
