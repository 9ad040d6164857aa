// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// CHECK-LABEL: tile.kernel @all_ops
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf16>, %[[B:.*]]: memref<?x?xf16>, %[[C:.*]]: memref<?x?xf32>, %[[S:.*]]: f32)
// CHECK-SAME: grid [%[[C]][1] / 128, %[[C]][0] / 64, 2] threads 128
tile.kernel @all_ops(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %s: f32)
    grid [%C[1] / 128, %C[0] / 64, 2] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  // CHECK: tile.block_id x
  // CHECK: tile.block_id z
  %bx = tile.block_id x
  %bz = tile.block_id z
  // CHECK: tile.alloc_shared : !tile.shared<64x64xf16>
  // CHECK: tile.alloc_fragment : !tile.fragment<64x128xf32>
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x128xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x128xf32>
  %row = tile.alloc_fragment : !tile.fragment<64xf32>
  // CHECK: tile.fill %{{.*}}, %{{.*}} : !tile.fragment<64x128xf32>, f32
  tile.fill %acc, %zero : !tile.fragment<64x128xf32>, f32
  // CHECK: tile.pipelined %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} num_stages 3 {
  tile.pipelined %k = %c0 to %c8 step %c1 num_stages 3 {
    // CHECK: tile.copy %[[A]][%{{.*}}, %[[K]]] -> %{{.*}} : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %A[%bx, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %B[%k, %bx] -> %b : memref<?x?xf16> -> !tile.shared<64x128xf16>
    // CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} : !tile.shared<64x64xf16>, !tile.shared<64x128xf16>, !tile.fragment<64x128xf32>
    tile.gemm %a, %b, %acc : !tile.shared<64x64xf16>, !tile.shared<64x128xf16>, !tile.fragment<64x128xf32>
    // CHECK: tile.turn pass{{$}}
    tile.turn pass
    // CHECK: tile.turn take if 1{{$}}
    tile.turn take if 1
  }
  // CHECK: tile.gemm {{.*}} {transpose_b}
  %sq = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.gemm %a, %a, %sq {transpose_b} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  // CHECK: tile.mma_wait 1, %{{.*}}, %{{.*}} : !tile.fragment<64x64xf32>, !tile.fragment<64x128xf32>
  tile.mma_wait 1, %sq, %acc : !tile.fragment<64x64xf32>, !tile.fragment<64x128xf32>
  // CHECK: tile.mma_wait 0{{$}}
  tile.mma_wait 0
  // CHECK: tile.copy_wait rows barrier
  tile.copy_wait rows barrier
  // CHECK: tile.copy_wait store_reads{{$}}
  tile.copy_wait store_reads
  // CHECK: tile.reduce max %{{.*}} -> %{{.*}} {clear, dim = 1 : i64} : !tile.fragment<64x128xf32> -> !tile.fragment<64xf32>
  tile.reduce max %acc -> %row {dim = 1 : i64, clear} : !tile.fragment<64x128xf32> -> !tile.fragment<64xf32>
  // CHECK: tile.parallel ins(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}[0] : !tile.fragment<64x128xf32>, !tile.fragment<64xf32>) outs(%{{.*}} = %{{.*}} : !tile.fragment<64x128xf32>) {
  // CHECK: arith.subf
  // CHECK: tile.yield %{{.*}} : f32
  tile.parallel ins(%acc, %row : !tile.fragment<64x128xf32>, !tile.fragment<64xf32>)
      outs(%acc : !tile.fragment<64x128xf32>) attributes {indexing_maps = [
        affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
        affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %y = arith.subf %x, %m : f32
    tile.yield %y : f32
  }
  // CHECK: tile.copy %{{.*}} -> %[[C]][%{{.*}}, %{{.*}}] : !tile.fragment<64x128xf32> -> memref<?x?xf32>
  tile.copy %acc -> %C[%bx, %bz] : !tile.fragment<64x128xf32> -> memref<?x?xf32>
  // CHECK: tile.copy %{{.*}} -> %[[C]][%{{.*}}, %{{.*}}] bounds [%{{.*}}, %{{.*}}] : !tile.fragment<64x128xf32> -> memref<?x?xf32>
  tile.copy %acc -> %C[%bx, %bz] bounds [%c8, %bz] : !tile.fragment<64x128xf32> -> memref<?x?xf32>
}

// Layouts and tile.index round-trip.
// CHECK-LABEL: tile.kernel @layouts
// CHECK: tile.alloc_fragment {layout = #tile.mma<warpgroups = 1>} : !tile.fragment<64x64xf32>
// CHECK: tile.alloc_fragment {layout = #tile.slice<dim = 1, parent = #tile.mma<warpgroups = 1>>} : !tile.fragment<64xf32>
// CHECK: tile.alloc_fragment {layout = #tile.blocked<vector = 8, lanes = [2, 16], warps = [4, 1]>} : !tile.fragment<64x128xf32>
// CHECK: tile.index 1
tile.kernel @layouts(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment {layout = #tile.mma<warpgroups = 1>} : !tile.fragment<64x64xf32>
  %m = tile.alloc_fragment {layout = #tile.slice<dim = 1, parent = #tile.mma<warpgroups = 1>>} : !tile.fragment<64xf32>
  %x = tile.alloc_fragment {layout = #tile.blocked<vector = 8, lanes = [2, 16], warps = [4, 1]>} : !tile.fragment<64x128xf32>
  tile.parallel outs(%a : !tile.fragment<64x64xf32>) attributes {indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%v: f32):
    %j = tile.index 1
    tile.yield %v : f32
  }
}

// CHECK-LABEL: tile.kernel @prints
// CHECK: tile.print "acc" %{{.*}} {block = array<i64: 1, 0>, thread = 5 : i64} : !tile.fragment<64x64xf32>
// CHECK: tile.print "n %" %{{.*}} : index
tile.kernel @prints(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %n = memref.dim %A, %c0 : memref<?xf16>
  tile.print "acc" %a {block = array<i64: 1, 0>, thread = 5} : !tile.fragment<64x64xf32>
  tile.print "n %" %n : index
}

// A global row into a row of a shared tile (copy_c6); the whole tile to
// global memory.
// CHECK-LABEL: tile.kernel @rows_and_stores
// CHECK: tile.copy %{{.*}}[%{{.*}}, %{{.*}}] -> %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf16> -> !tile.shared<8x1024xf16>
// CHECK: tile.copy %{{.*}} -> %{{.*}}[%{{.*}}, %{{.*}}] : !tile.shared<8x1024xf16> -> memref<?x?xf16>
tile.kernel @rows_and_stores(%X: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %s = tile.alloc_shared : !tile.shared<8x1024xf16>
  tile.copy %X[%c3, %c0] -> %s[%c3, %c0] : memref<?x?xf16> -> !tile.shared<8x1024xf16>
  tile.copy %s -> %X[%c0, %c0] : !tile.shared<8x1024xf16> -> memref<?x?xf16>
}

// A multicast load prints as it parses.
// CHECK-LABEL: tile.kernel @multicast
// CHECK: tile.copy %{{.*}}[%{{.*}}, %{{.*}}] -> %{{.*}} multicast : memref<?x?xf16> -> !tile.shared<64x64xf16>
tile.kernel @multicast(%X: memref<?x?xf16>) grid [2] threads 128 cluster [2] {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : !tile.shared<64x64xf16>
  tile.copy %X[%c0, %c0] -> %s multicast : memref<?x?xf16> -> !tile.shared<64x64xf16>
}
