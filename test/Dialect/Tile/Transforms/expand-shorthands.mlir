// RUN: tile-opt %s --split-input-file -allow-unregistered-dialect --tile-expand-shorthands | FileCheck %s
// RUN: tile-opt %s --split-input-file -allow-unregistered-dialect --tile-specialize | FileCheck %s --check-prefix=SPEC

// tile.let becomes the ops it stands for, in the order written: the block
// ids first (at the top of the kernel), parameters as tile.param, a
// dimension as memref.dim, unsigned divisions, `min` as arith.minui and
// `FLAG ? a : b` as arith.select on the flag.

// CHECK-LABEL: tile.kernel @let
// CHECK: %[[BY:.*]] = tile.block_id y
// CHECK: %[[BM:.*]] = tile.param "BM" : index
// CHECK: %[[M0:.*]] = arith.muli %[[BY]], %[[BM]] : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[K:.*]] = memref.dim %A, %[[C1]]
// CHECK: %[[BK:.*]] = tile.param "BK" : index
// CHECK: %[[KT:.*]] = arith.ceildivui %[[K]], %[[BK]] : index
// CHECK: %[[CAUSAL:.*]] = tile.param "CAUSAL" : i1
// CHECK: %[[BM2:.*]] = tile.param "BM" : index
// CHECK: %[[LAST:.*]] = arith.addi %[[M0]], %[[BM2]] : index
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[LB:.*]] = arith.ceildivui %[[LAST]], %[[C64]] : index
// CHECK: %[[MIN:.*]] = arith.minui %[[KT]], %[[LB]] : index
// CHECK: %[[N:.*]] = arith.select %[[CAUSAL]], %[[MIN]], %[[KT]] : index
// CHECK: %[[C1B:.*]] = arith.constant 1 : index
// CHECK: %[[SUB:.*]] = arith.subi %[[M0]], %[[C1B]] : index
// CHECK: %[[REM:.*]] = arith.remui %[[SUB]], %{{.*}} : index
// CHECK: %[[I32:.*]] = arith.index_cast %[[REM]] : index to i32
// CHECK: arith.constant 0xFF800000 : f32
// CHECK-NOT: tile.let
// CHECK: "use"(%[[M0]], %[[KT]], %[[N]], %[[I32]], %cst)
tile.kernel @let(%A: memref<?x?xf16>)
    params {BM = 128, BK = 64, CAUSAL = false}
    grid [%A[0] / BM, 2] threads 128 {
  %m0, %kt = tile.let block_id.y * BM, %A[1] ceildiv BK
  %n = tile.let CAUSAL ? min(%kt, (%m0 + BM) ceildiv 64) : %kt
  %r = tile.let (%m0 - 1) mod BK : i32
  %ninf = tile.let -inf : f32
  "use"(%m0, %kt, %n, %r, %ninf) : (index, index, index, i32, f32) -> ()
}

// Specialised, the parameters fold and the selection with them.
// SPEC-LABEL: tile.kernel @let
// SPEC-DAG: %[[C128:.*]] = arith.constant 128 : index
// SPEC-DAG: %[[C64:.*]] = arith.constant 64 : index
// SPEC: %[[BY:.*]] = tile.block_id y
// SPEC: %[[M0:.*]] = arith.muli %[[BY]], %[[C128]] : index
// SPEC: %[[KT:.*]] = arith.ceildivui %{{.*}}, %[[C64]] : index
// SPEC-NOT: arith.select
// SPEC: "use"(%[[M0]], %[[KT]], %[[KT]],

// -----

// A copy through a staging tile: the copy into it and the copy out of it,
// under scf.if on a parameter flag, with the direct copy in the other
// branch; without a flag, or with 1, the two copies; with 0, the direct one.

// CHECK-LABEL: tile.kernel @through
// CHECK: %[[F:.*]] = tile.param "FLAG" : i1
// CHECK-NEXT: scf.if %[[F]] {
// CHECK-NEXT: tile.copy %[[ACC:.*]] -> %[[S:.*]] : !tile.fragment<64x64xf32> -> !tile.shared<64x64xf16>
// CHECK-NEXT: tile.copy %[[S]] -> %C[%[[I:.*]], %[[I]]] : !tile.shared<64x64xf16> -> memref<?x?xf16>
// CHECK-NEXT: } else {
// CHECK-NEXT: tile.copy %[[ACC]] -> %C[%[[I]], %[[I]]] : !tile.fragment<64x64xf32> -> memref<?x?xf16>
// CHECK-NEXT: }
// CHECK-NEXT: tile.copy %[[ACC]] -> %[[S]] :
// CHECK-NEXT: tile.copy %[[S]] -> %C[%[[I]], %[[I]]] :
// CHECK-NEXT: tile.copy %[[ACC]] -> %[[S]] :
// CHECK-NEXT: tile.copy %[[S]] -> %C[%[[I]], %[[I]]] :
// CHECK-NEXT: tile.copy %[[ACC]] -> %C[%[[I]], %[[I]]] : !tile.fragment<64x64xf32> -> memref<?x?xf16>
// CHECK-NOT: through
tile.kernel @through(%C: memref<?x?xf16>) params {FLAG = true}
    grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %s = tile.alloc_shared : !tile.shared<64x64xf16>
  tile.fill %acc, 1.0
  tile.copy %acc -> %C[%c0, %c0] through %s if FLAG
  tile.copy %acc -> %C[%c0, %c0] through %s
  tile.copy %acc -> %C[%c0, %c0] through %s if 1
  tile.copy %acc -> %C[%c0, %c0] through %s if 0
}

// -----

// tile.index of an integer type: the index, then the cast.

// CHECK-LABEL: tile.kernel @index
// CHECK: tile.parallel
// CHECK-NEXT: %[[J:.*]] = tile.index 1{{$}}
// CHECK-NEXT: %[[J32:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK-NEXT: arith.sitofp %[[J32]] : i32 to f32
tile.kernel @index(%C: memref<?x?xf32>) grid [1] threads 128 {
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.parallel outs(%x = %acc) {
    %j = tile.index 1 : i32
    arith.sitofp %j : i32 to f32
  }
}

// -----

// A transpose left to a parameter: the gemm with the flag set and the gemm
// without, under scf.if on it; both left to parameters nest.

// CHECK-LABEL: tile.kernel @gemm_flags
// CHECK: %[[TA:.*]] = tile.param "TA" : i1
// CHECK-NEXT: scf.if %[[TA]] {
// CHECK-NEXT: %[[TB:.*]] = tile.param "TB" : i1
// CHECK-NEXT: scf.if %[[TB]] {
// CHECK-NEXT: tile.gemm %[[A:.*]], %[[B:.*]], %[[C:.*]] {transpose_a, transpose_b} :
// CHECK-NEXT: } else {
// CHECK-NEXT: tile.gemm %[[A]], %[[B]], %[[C]] {transpose_a} :
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[TB2:.*]] = tile.param "TB" : i1
// CHECK-NEXT: scf.if %[[TB2]] {
// CHECK-NEXT: tile.gemm %[[A]], %[[B]], %[[C]] {transpose_b} :
// CHECK-NEXT: } else {
// CHECK-NEXT: tile.gemm %[[A]], %[[B]], %[[C]] :
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NOT: #tile.param

// Specialised, only the chosen gemm is left.
// SPEC-LABEL: tile.kernel @gemm_flags
// SPEC-NOT: scf.if
// SPEC: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} {transpose_b} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
// SPEC-NOT: tile.gemm
tile.kernel @gemm_flags(%C: memref<?x?xf16>) params {TA = false, TB = true}
    grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.gemm %a, %b, %acc {transpose_a = #tile.param<"TA">, transpose_b = #tile.param<"TB">}
}

// -----

// Sizes by parameter name become tile.param sizes; a loop from an implied
// 0 by 1 gets the two constants.

// CHECK-LABEL: tile.kernel @sizes
// CHECK: %[[BM:.*]] = tile.param "BM" : index
// CHECK-NEXT: %[[BK:.*]] = tile.param "BK" : index
// CHECK-NEXT: tile.alloc_shared [%[[BM]], %[[BK]]] : !tile.shared<?x?xf16>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: tile.pipelined %{{.*}} = %[[C0]] to %{{.*}} step %[[C1]] num_stages 2
// SPEC-LABEL: tile.kernel @sizes
// SPEC: tile.alloc_shared : !tile.shared<64x32xf16>
tile.kernel @sizes(%A: memref<?x?xf16>) params {BM = 64, BK = 32}
    grid [%A[0] / BM] threads 128 {
  %kt = arith.constant 4 : index
  %a = tile.alloc_shared [BM, BK] : !tile.shared<?x?xf16>
  tile.pipelined %k to %kt num_stages 2 {
    %c0 = arith.constant 0 : index
    tile.copy %A[%c0, %c0] -> %a
  }
}
