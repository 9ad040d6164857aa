// RUN: tile-opt %s --tile-specialize | FileCheck %s
// RUN: tile-opt %s --tile-specialize='kernels=k_bf16 bind=BM=128,CAUSAL=true,WS=true' | FileCheck %s --check-prefix=BIND

// Instances become kernels; the template itself is not produced. Types,
// sizes, parameter values and flags are bound; the branch on a false flag
// folds away with the tile only it used; allocations take static shapes.

// CHECK-NOT: tile.kernel @k(
// CHECK-LABEL: tile.kernel @k_f16
// CHECK-SAME: (%[[X:.*]]: memref<?x?xf16>)
// A flag in a contract counts as 0 or 1.
// CHECK-SAME: grid [%[[X]][0] / 64] threads 128 requires [%[[X]][1] <= 64, %[[X]][1] <= 64]
// CHECK-SAME: attributes {tile.bindings = {BM = 64 : i64, CAUSAL = false, STAGES = 2 : i64, T = f16, WS = false}}
// CHECK-NOT: tile.param
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: arith.muli %{{.*}}, %[[C64]] : index
// CHECK: tile.alloc_shared : !tile.shared<64x64xf16>
// The fragment only the folded branch used is gone.
// CHECK-NOT: tile.alloc_fragment
// CHECK-NOT: scf.if
// A false flag binds to 0, a true one to 1.
// CHECK: tile.pipelined {{.*}} num_stages 2 warp_specialize 0 {
// CHECK: tile.turn pass if 0
// CHECK: tile.turn take if 0
// CHECK-LABEL: tile.kernel @k_bf16
// CHECK-SAME: memref<?x?xbf16>
// CHECK-SAME: tile.bindings = {BM = 64 : i64, CAUSAL = false, STAGES = 3 : i64, T = bf16, WS = false}
// CHECK: tile.pipelined {{.*}} num_stages 3
// CHECK-NOT: tile.instance

// With `kernels` and `bind`: only k_bf16, with BM = 128 and the flag set.
// BIND-NOT: @k_f16
// BIND-LABEL: tile.kernel @k_bf16
// BIND-SAME: grid [%{{.*}}[0] / 128] threads 128 requires [%{{.*}}[1] <= 128, %{{.*}}[0] <= 128]
// BIND-SAME: tile.bindings = {BM = 128 : i64, CAUSAL = true, STAGES = 3 : i64, T = bf16, WS = true}
// BIND: tile.alloc_shared : !tile.shared<128x64xbf16>
// BIND: tile.alloc_fragment : !tile.fragment<128x64xf32>
// BIND-NOT: scf.if
// BIND: tile.copy %{{.*}} -> %{{.*}} : !tile.shared<128x64xbf16> -> !tile.fragment<128x64xf32>
// BIND: tile.pipelined {{.*}} num_stages 3 warp_specialize 1 {
// BIND: tile.turn pass if 1
// BIND: tile.turn take if 1
// BIND-NOT: tile.kernel
tile.kernel @k(%X: memref<?x?x!tile.param<"T">>)
    params {BM = 64, STAGES = 2, CAUSAL = false, WS = false, T = f16}
    space {BM = [64, 128], STAGES = [2, 3], T = [f16, bf16]}
    grid [%X[0] / BM] threads 128
    requires [%X[1] <= BM, %X[1] * (1 - CAUSAL) + %X[0] * CAUSAL <= BM] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bm = tile.param "BM" : index
  %causal = tile.param "CAUSAL" : i1
  %bx = tile.block_id x
  %m0 = arith.muli %bx, %bm : index
  %s = tile.alloc_shared [%bm] : !tile.shared<?x64x!tile.param<"T">>
  %f = tile.alloc_fragment [%bm] : !tile.fragment<?x64xf32>
  scf.if %causal {
    tile.copy %s -> %f : !tile.shared<?x64x!tile.param<"T">> -> !tile.fragment<?x64xf32>
  }
  tile.pipelined %i = %c0 to %c1 step %c1 num_stages STAGES warp_specialize WS {
    tile.copy %X[%m0, %c0] -> %s : memref<?x?x!tile.param<"T">> -> !tile.shared<?x64x!tile.param<"T">>
    tile.turn pass if WS
    tile.turn take if WS
  }
}
tile.instance @k_f16 = @k {}
tile.instance @k_bf16 = @k {T = bf16, STAGES = 3}

