// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %s --tile-specialize | FileCheck %s --check-prefix=BOUND

// `cluster [...]` after the threads: blocks per cluster along x (and y, z),
// integers or integer parameters, bound by tile-specialize.

// CHECK-LABEL: tile.kernel @pairs
// CHECK-SAME: grid [%{{.*}}[1] / 64, %{{.*}}[0] / 64] threads 128 cluster [2] {
tile.kernel @pairs(%X: memref<?x?xf16>) grid [%X[1] / 64, %X[0] / 64]
    threads 128 cluster [2] {
}

// CHECK-LABEL: tile.kernel @squares
// CHECK-SAME: threads 128 cluster [2, 2]
tile.kernel @squares(%X: memref<?x?xf16>) grid [%X[1] / 64, %X[0] / 64, 4]
    threads 128 cluster [2, 2] {
}

// CHECK-LABEL: tile.kernel @tuned
// CHECK-SAME: threads 128 cluster [CX, 1]
// BOUND-LABEL: tile.kernel @tuned_4
// BOUND-SAME: threads 128 cluster [4, 1]
tile.kernel @tuned(%X: memref<?x?xf16>) params {CX = 2 in [1, 2, 4]}
    grid [%X[1] / 64, %X[0] / 64] threads 128 cluster [CX, 1] {
}
tile.instance @tuned_4 = @tuned {CX = 4}

// A reduction over the blocks of the cluster.
// CHECK-LABEL: tile.kernel @row_max
// CHECK: tile.reduction max %{{.*}} across cluster : !tile.fragment<4096xf32> -> f32
tile.kernel @row_max(%X: memref<?x?xf32>) grid [4, %X[0] / 1] threads 128
    cluster [4] {
  %x = tile.alloc_fragment : !tile.fragment<4096xf32>
  %m = tile.reduction max %x across cluster : !tile.fragment<4096xf32> -> f32
}
