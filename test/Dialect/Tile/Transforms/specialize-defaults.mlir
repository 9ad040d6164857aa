// RUN: tile-opt %s --tile-specialize | FileCheck %s

// A parametric kernel without instances is produced with its defaults; a
// plain kernel is kept as it is.

// CHECK-LABEL: tile.kernel @solo
// CHECK-SAME: threads 256
// CHECK-SAME: tile.bindings = {W = 256 : i64}
// CHECK-LABEL: tile.kernel @plain
// CHECK-SAME: threads 64
tile.kernel @solo(%X: memref<?xf32>) params {W = 256} grid [%X[0] / W] threads W {
}
tile.kernel @plain(%X: memref<?xf32>) grid [%X[0] / 64] threads 64 {
}
