// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// A parametric kernel round-trips: its parameters, space, constraints,
// parameter references in the header, `?` tiles with their sizes, type
// parameters, contracts and instances.

// CHECK-LABEL: tile.kernel @k
// CHECK-SAME: (%[[X:.*]]: memref<?x?x!tile.param<"T">>, %[[Y:.*]]: memref<?x?x!tile.param<"T">>)
// CHECK-SAME: params {BM = 64 : i64, FLAG = false, STAGES = 2 : i64, T = f16, THREADS = 128 : i64}
// CHECK-SAME: space {BM = [64, 128], T = [f16, bf16]}
// CHECK-SAME: where [BM mod (THREADS floordiv 2) == 0, STAGES - 1 >= 0, BM - STAGES * 16 - 1 >= 0]
// CHECK-SAME: grid [%[[X]][0] / BM, 2] threads THREADS
// CHECK-SAME: requires [%[[Y]][0] == %[[X]][0], %[[Y]][1] <= 8192, %[[X]][1] >= BM]
// CHECK-SAME: attributes {min_blocks_per_sm = #tile.param<"STAGES">}
tile.kernel @k(%X: memref<?x?x!tile.param<"T">>, %Y: memref<?x?x!tile.param<"T">>)
    params {BM = 64, THREADS = 128, STAGES = 2, FLAG = false, T = f16}
    space {BM = [64, 128], T = [f16, bf16]}
    where [BM mod (THREADS floordiv 2) == 0, STAGES >= 1, BM > 16 * STAGES]
    grid [%X[0] / BM, 2] threads THREADS
    requires [%Y[0] == %X[0], %Y[1] <= 8192, %X[1] >= BM]
    attributes {min_blocks_per_sm = #tile.param<"STAGES">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: %[[BM:.*]] = tile.param "BM" : index
  %bm = tile.param "BM" : index
  // CHECK: tile.param "FLAG" : i1
  %flag = tile.param "FLAG" : i1
  // CHECK: tile.alloc_shared [%[[BM]]] : !tile.shared<?x64x!tile.param<"T">>
  %s = tile.alloc_shared [%bm] : !tile.shared<?x64x!tile.param<"T">>
  // CHECK: tile.alloc_fragment [%[[BM]], %[[BM]]] : !tile.fragment<?x?xf32>
  %f = tile.alloc_fragment [%bm, %bm] : !tile.fragment<?x?xf32>
  // A flag may name a boolean parameter.
  // CHECK: tile.pipelined %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} num_stages STAGES warp_specialize FLAG {
  tile.pipelined %i = %c0 to %c1 step %c1 num_stages STAGES warp_specialize FLAG {
    tile.copy %X[%c0, %c0] -> %s : memref<?x?x!tile.param<"T">> -> !tile.shared<?x64x!tile.param<"T">>
  }
}

// CHECK: tile.instance @k_bf16 = @k {BM = 128 : i64, T = bf16}
tile.instance @k_bf16 = @k {T = bf16, BM = 128}
