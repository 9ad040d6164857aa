// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// The source language's shorthands: tile ops leave out the types their
// operands were declared with (kernel arguments, allocated tiles), tile.let
// binds integers computed from parameters, sizes and block ids, a copy may
// go `through` a staging tile, tile.index may give an i32, a tile.parallel
// body may end with the op whose result it yields, a gemm's transpose may be
// left to a parameter, and a parameter's
// candidates may follow its default. The printer writes the full form.

// CHECK-LABEL: tile.kernel @gemm
// CHECK-SAME: params {BK = 64 : i64, BM = 128 : i64, CAUSAL = false, FLAG = true, T = f16, TB = false}
// CHECK-SAME: space {BM = [64, 128], T = [f16, bf16]}
// CHECK: %[[C:.*]]:3 = tile.let 0, BM, BK
// CHECK: %[[M:.*]]:2 = tile.let block_id.y * BM, %A[1] ceildiv BK
// CHECK: %[[N:.*]] = tile.let CAUSAL ? min(%[[M]]#1, (%[[M]]#0 + BM) ceildiv 64) : %[[M]]#1
// CHECK: %[[F:.*]]:3 = tile.let -inf, 5.000000e-01, nan : f32, f32, f32
// CHECK: %[[L32:.*]] = tile.let %[[M]]#0 - 1 : i32
// CHECK: %[[A:.*]] = tile.alloc_shared [%[[C]]#1, %[[C]]#2] : !tile.shared<?x?x!tile.param<"T">>
// CHECK: %[[ACC:.*]] = tile.alloc_fragment [%[[C]]#1, %[[C]]#2] : !tile.fragment<?x?xf32>
// CHECK: %[[R:.*]] = tile.alloc_fragment [%[[C]]#1] : !tile.fragment<?xf32>
// CHECK: %[[S:.*]] = tile.alloc_shared [%[[C]]#1, %[[C]]#2] : !tile.shared<?x?xf32>
// CHECK: tile.pipelined
// CHECK: %[[K0:.*]] = tile.let %{{.*}} * BK
// CHECK: tile.copy %A[%[[M]]#0, %[[K0]]] -> %[[A]] : memref<?x?x!tile.param<"T">> -> !tile.shared<?x?x!tile.param<"T">>
// CHECK: tile.gemm %[[A]], %[[A]], %[[ACC]] {transpose_b} : !tile.shared<?x?x!tile.param<"T">>, !tile.shared<?x?x!tile.param<"T">>, !tile.fragment<?x?xf32>
// CHECK: tile.gemm %[[A]], %[[A]], %[[ACC]] {transpose_b = #tile.param<"TB">} : !tile.shared<?x?x!tile.param<"T">>, !tile.shared<?x?x!tile.param<"T">>, !tile.fragment<?x?xf32>
// CHECK: tile.fill %[[R]], 0.000000e+00 : !tile.fragment<?xf32>
// CHECK: tile.parallel outs(%[[X:.*]] = %[[ACC]] : !tile.fragment<?x?xf32>) {
// CHECK-NEXT: %[[J:.*]] = tile.index 1 : i32
// CHECK-NEXT: %[[KEEP:.*]] = arith.cmpi sle, %[[J]], %[[L32]] : i32
// CHECK-NEXT: %[[W:.*]] = arith.select %[[KEEP]], %[[X]], %[[F]]#0 : f32
// CHECK-NEXT: tile.yield %[[W]] : f32
// CHECK: tile.reduce max %[[ACC]] -> %[[R]] {dim = 1 : i64} : !tile.fragment<?x?xf32> -> !tile.fragment<?xf32>
// CHECK: tile.parallel ins(%[[H:.*]] = %[[R]][0] : !tile.fragment<?xf32>) outs(%[[Y:.*]] = %[[ACC]] : !tile.fragment<?x?xf32>) {
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[Y]], %[[H]] : f32
// CHECK-NEXT: tile.yield %[[P]] : f32
// CHECK: tile.copy %[[ACC]] -> %C[%[[M]]#0, %[[C]]#0] through %[[S]] if FLAG : !tile.fragment<?x?xf32> -> memref<?x?xf32> through !tile.shared<?x?xf32>
// CHECK: tile.copy %[[ACC]] -> %C[%[[M]]#0, %[[C]]#0] through %[[S]] : !tile.fragment<?x?xf32> -> memref<?x?xf32> through !tile.shared<?x?xf32>
// The written form is still accepted.
// CHECK: tile.copy %[[ACC]] -> %C[%[[M]]#0, %[[C]]#0] : !tile.fragment<?x?xf32> -> memref<?x?xf32>
tile.kernel @gemm(%A: memref<?x?x!tile.param<"T">>, %C: memref<?x?xf32>)
    params {BM = 128 in [64, 128], BK = 64, CAUSAL = false, FLAG = true,
            T = f16 in [f16, bf16], TB = false}
    grid [%C[1] / 64, %C[0] / BM] threads 128 {
  %c0, %bm, %bk = tile.let 0, BM, BK
  %m0, %kt = tile.let block_id.y * BM, %A[1] ceildiv BK
  %n = tile.let CAUSAL ? min(%kt, (%m0 + BM) ceildiv 64) : %kt
  %ninf, %half, %nan = tile.let -inf, 0.5, nan : f32, f32, f32
  %lim = tile.let %m0 - 1 : i32
  %a = tile.alloc_shared [%bm, %bk] : !tile.shared<?x?x!tile.param<"T">>
  %acc = tile.alloc_fragment [%bm, %bk] : !tile.fragment<?x?xf32>
  %r = tile.alloc_fragment [%bm] : !tile.fragment<?xf32>
  %s = tile.alloc_shared [%bm, %bk] : !tile.shared<?x?xf32>
  tile.pipelined %k = %c0 to %n step %bk num_stages 2 {
    %k0 = tile.let %k * BK
    tile.copy %A[%m0, %k0] -> %a
    tile.gemm %a, %a, %acc {transpose_b}
    tile.gemm %a, %a, %acc {transpose_b = #tile.param<"TB">}
  }
  tile.fill %r, 0.0
  tile.parallel outs(%x = %acc) {
    %j = tile.index 1 : i32
    %keep = arith.cmpi sle, %j, %lim : i32
    arith.select %keep, %x, %ninf : f32
  }
  tile.reduce max %acc -> %r {dim = 1 : i64}
  tile.parallel ins(%h = %r[0]) outs(%x = %acc) { arith.mulf %x, %h : f32 }
  tile.copy %acc -> %C[%m0, %c0] through %s if FLAG
  tile.copy %acc -> %C[%m0, %c0] through %s
  tile.copy %acc -> %C[%m0, %c0] : !tile.fragment<?x?xf32> -> memref<?x?xf32>
}

// A reduction's scalar has its source's element type, and an atomic of a
// fragment or of that scalar needs no types either.
// CHECK-LABEL: tile.kernel @combine
// CHECK: %[[S:.*]] = tile.reduction sum %[[X:.*]] : !tile.fragment<4x128xf32> -> f32
// CHECK: tile.atomic add %[[S]] -> %Sum[%{{.*}}] : f32 -> memref<?xf32>
// CHECK: tile.atomic max %[[X]] -> %M[%{{.*}}, %{{.*}}] : !tile.fragment<4x128xf32> -> memref<?x?xf32>
tile.kernel @combine(%X: memref<?x?xf32>, %Sum: memref<?xf32>, %M: memref<?x?xf32>)
    grid [1] threads 128 {
  %c0 = tile.let 0
  %x = tile.alloc_fragment : !tile.fragment<4x128xf32>
  tile.copy %X[%c0, %c0] -> %x
  %s = tile.reduction sum %x
  tile.atomic add %s -> %Sum[%c0]
  tile.atomic max %x -> %M[%c0, %c0]
}

// Tile sizes by parameter name, and a pipelined loop from 0 by 1.
// CHECK-LABEL: tile.kernel @sizes
// CHECK: tile.alloc_shared [BM, BK] : !tile.shared<?x?xf16>
// CHECK: tile.alloc_fragment [BM] : !tile.fragment<?xf32>
// CHECK: tile.pipelined %{{.*}} to %[[KT:.*]] num_stages 2 {
// CHECK: tile.pipelined %{{.*}} = %{{.*}} to %[[KT]] step %{{.*}} num_stages 1 {
tile.kernel @sizes(%A: memref<?x?xf16>) params {BM = 64, BK = 64}
    grid [%A[0] / BM] threads 128 {
  %c0, %c1, %kt = tile.let 0, 1, %A[1] ceildiv BK
  %a = tile.alloc_shared [BM, BK] : !tile.shared<?x?xf16>
  %r = tile.alloc_fragment [BM] : !tile.fragment<?xf32>
  tile.pipelined %k to %kt num_stages 2 {
    %k0 = tile.let %k * BK
    tile.copy %A[%c0, %k0] -> %a
  }
  tile.pipelined %k = %c0 to %kt step %c1 num_stages 1 {
  }
}
