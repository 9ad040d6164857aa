// RUN: tile-opt %s --split-input-file --tile-fold-accumulator-fills | FileCheck %s

// A zero fill right before the gemm accumulating into it, and one with an
// op between that does not touch the fragment (the K tile's copy), become
// the gemms' zero_init.
// CHECK-LABEL: tile.kernel @folds
// CHECK-NOT: tile.fill
// CHECK: tile.gemm %[[Q:.*]], %[[K:.*]], %[[S:.*]] {zero_init}
// CHECK-NEXT: tile.copy
// CHECK-NEXT: tile.gemm %[[Q]], %[[K]], %[[S]] {transpose_b, zero_init}
// CHECK-NOT: tile.fill
tile.kernel @folds(%K: memref<?x?xf16>, %O: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %q = tile.alloc_shared : !tile.shared<64x64xf16>
  %k = tile.alloc_shared : !tile.shared<64x64xf16>
  %s = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %s, %zero : !tile.fragment<64x64xf32>, f32
  tile.gemm %q, %k, %s : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.fill %s, %zero : !tile.fragment<64x64xf32>, f32
  tile.copy %K[%c0, %c0] -> %k : memref<?x?xf16> -> !tile.shared<64x64xf16>
  tile.gemm %q, %k, %s {transpose_b} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.copy %s -> %O[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// Kept: a fill that is not zero; an op between that reads the fragment; a
// gemm that reads it as A, into another fragment; a gemm inside a
// pipelined loop (only its first iteration would start at zero); a fill
// of a fragment the next gemm does not accumulate into; a fill of a shared
// tile; a fill with nothing after it. Of two fills in a row, the first is
// kept and the second folds.
// CHECK-LABEL: tile.kernel @keeps
// CHECK: tile.fill %[[S:.*]], %[[ONE:.*]] :
// CHECK-NEXT: tile.gemm {{.*}}, %[[S]] :
// CHECK-NEXT: tile.fill %[[S]], %[[ZERO:.*]] :
// CHECK-NEXT: tile.copy %[[S]] -> %{{.*}}[
// CHECK-NEXT: tile.gemm {{.*}}, %[[S]] :
// CHECK-NEXT: tile.fill %[[P:.*]], %[[H:.*]] : !tile.fragment<64x64xf16>
// CHECK-NEXT: tile.gemm %[[P]], {{.*}}, %[[P2:.*]] :
// CHECK-NEXT: tile.fill %[[S]], %[[ZERO]] :
// CHECK-NEXT: tile.pipelined
// CHECK: tile.gemm {{.*}}, %[[S]] :
// CHECK: tile.fill %[[T:.*]], %[[ZERO]] :
// CHECK-NEXT: tile.gemm {{.*}}, %[[S]] :
// CHECK-NEXT: tile.fill %{{.*}}, %[[H]] : !tile.shared
// CHECK-NEXT: tile.fill %[[S]], %[[ZERO]] :
// CHECK-NEXT: tile.gemm {{.*}}, %[[S]] {zero_init} :
// CHECK-NEXT: tile.copy %[[S]]
// CHECK-NEXT: tile.fill %[[S]], %[[ZERO]] :
// CHECK-NEXT: }
tile.kernel @keeps(%O: memref<?x?xf32>, %A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %h = arith.constant 0.0 : f16
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %s = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %t = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %p = tile.alloc_fragment : !tile.fragment<64x64xf16>
  %p2 = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %s, %one : !tile.fragment<64x64xf32>, f32
  tile.gemm %a, %b, %s : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.fill %s, %zero : !tile.fragment<64x64xf32>, f32
  tile.copy %s -> %O[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
  tile.gemm %a, %b, %s : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.fill %p, %h : !tile.fragment<64x64xf16>, f16
  tile.gemm %p, %b, %p2 : !tile.fragment<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.fill %s, %zero : !tile.fragment<64x64xf32>, f32
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %b, %s : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.fill %t, %zero : !tile.fragment<64x64xf32>, f32
  tile.gemm %a, %b, %s : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.fill %a, %h : !tile.shared<64x64xf16>, f16
  tile.fill %s, %zero : !tile.fragment<64x64xf32>, f32
  tile.fill %s, %zero : !tile.fragment<64x64xf32>, f32
  tile.gemm %a, %b, %s : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.copy %s -> %O[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
  tile.fill %s, %zero : !tile.fragment<64x64xf32>, f32
}
