// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %s --tile-fold-accumulator-fills | FileCheck %s --check-prefix=FOLD
// RUN: tile-opt %s --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s --check-prefix=LOWER

// tile.fill takes a literal in place of an SSA value: decimals, inf, -inf,
// nan and integers, converted to the tile's element type.

// CHECK-LABEL: tile.kernel @literals
// CHECK: tile.fill %{{.*}}, 0.000000e+00 : !tile.fragment<64x64xf32>
// CHECK: tile.fill %{{.*}}, -inf : !tile.fragment<128xf32>
// CHECK: tile.fill %{{.*}}, inf : !tile.fragment<128xf32>
// CHECK: tile.fill %{{.*}}, nan : !tile.fragment<128xf32>
// CHECK: tile.fill %{{.*}}, -2.500000e-03 : !tile.fragment<128xf32>
// CHECK: tile.fill %{{.*}}, 1 : !tile.fragment<128xf32>
// CHECK: tile.fill %{{.*}}, -7 : !tile.fragment<128xi32>

// A literal zero folds into the gemm as a zero operand does.
// FOLD-LABEL: tile.kernel @literals
// FOLD-NOT: tile.fill %{{.*}}, 0.000000e+00
// FOLD: tile.gemm {{.*}} {zero_init}

// The lowering materialises each literal once, in the element type.
// LOWER-LABEL: gpu.func @literals
// LOWER-DAG: arith.constant 0xFF800000 : f32
// LOWER-DAG: arith.constant 0x7F800000 : f32
// LOWER-DAG: arith.constant 0x7FC00000 : f32
// LOWER-DAG: arith.constant -2.500000e-03 : f32
// LOWER-DAG: arith.constant 1.000000e+00 : f32
// LOWER-DAG: arith.constant -7 : i32
tile.kernel @literals(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : !tile.shared<64x64xf16>
  %a = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %m = tile.alloc_fragment : !tile.fragment<128xf32>
  %i = tile.alloc_fragment : !tile.fragment<128xi32>
  tile.copy %A[%c0, %c0] -> %s : memref<?x?xf16> -> !tile.shared<64x64xf16>
  tile.fill %a, 0.0 : !tile.fragment<64x64xf32>
  tile.gemm %s, %s, %a : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.fill %m, -inf : !tile.fragment<128xf32>
  tile.fill %m, inf : !tile.fragment<128xf32>
  tile.fill %m, nan : !tile.fragment<128xf32>
  tile.fill %m, -2.5e-3 : !tile.fragment<128xf32>
  tile.fill %m, 1 : !tile.fragment<128xf32>
  tile.fill %i, -7 : !tile.fragment<128xi32>
}
