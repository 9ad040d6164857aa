// RUN: tile-opt %s --tile-expand-shorthands --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// Bounds clip a copy's memref at run-time values: the extent each
// dimension's masks and the whole-tile test compare with is the smaller of
// the memref's size and the bound (signed, so a negative bound leaves
// nothing), for loads and stores alike.

// CHECK-LABEL: gpu.func @rows_until
// CHECK: %[[END:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[D0:.*]] = memref.dim %{{.*}}, %c0{{.*}} : memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<global>>
// CHECK: %[[E0:.*]] = arith.minsi %[[D0]], %[[END]] : index
// CHECK: %[[D1:.*]] = memref.dim %{{.*}}, %c1{{.*}} : memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<global>>
// CHECK: %[[E1:.*]] = arith.minsi %[[D1]], %{{.*}} : index
// Edge tiles: the room left before the clipped ends.
// CHECK: arith.subi %[[E0]], %{{.*}} : index
// CHECK: arith.subi %[[E1]], %{{.*}} : index
// Whole tile inside: its end at most the clipped extent.
// CHECK: arith.cmpi sle, %{{.*}}, %[[E0]] : index
// CHECK: arith.cmpi sle, %{{.*}}, %[[E1]] : index
// CHECK: vector.load
// The store clips the same way.
// CHECK: arith.minsi %{{.*}}, %[[END]] : index
// CHECK: vector.store
tile.kernel @rows_until(%X: memref<?x?xf16>, %Y: memref<?x?xf16>, %END: i32)
    grid [%X[1] / 256, %X[0] / 8] threads 128 {
  %i0, %j0, %n = tile.let block_id.y * 8, block_id.x * 256, %X[1]
  %end = arith.index_cast %END : i32 to index
  %x = tile.alloc_fragment : !tile.fragment<8x256xf32>
  tile.copy %X[%i0, %j0] -> %x bounds [%end, %n]
  tile.copy %x -> %Y[%i0, %j0] bounds [%end, %n]
}

// -----

// A dimension the tile does not span (the row of a 1-d tile of a 2-d
// memref) is indexed once: a row outside the memref leaves the whole tile
// outside, read as zeros (the room along the tile's first dimension is
// then 0), and the unmasked fast path needs it inside too.
// CHECK-LABEL: gpu.func @lead_row
// CHECK: %[[ROWS:.*]] = memref.dim %{{.*}}, %c0{{.*}} : memref<?x?xf32, strided<[?, 1]>, #gpu.address_space<global>>
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[ROW:.*]], %c0{{.*}} : index
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[ROW]], %[[ROWS]] : index
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: arith.select %[[IN]], %{{.*}}, %c0{{.*}} : index
tile.kernel @lead_row(%S: memref<?x?xf32>, %Y: memref<?xf32>, %r: i32) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %row = arith.index_cast %r : i32 to index
  %s = tile.alloc_fragment : !tile.fragment<128xf32>
  tile.copy %S[%row, %c0] -> %s
  tile.copy %s -> %Y[%c0]
}

// -----

// With vector accesses, the fast path's test includes the leading index.
// CHECK-LABEL: gpu.func @lead_row_vector
// CHECK: %[[GE:.*]] = arith.cmpi sge, %{{.*}}, %c0{{.*}} : index
// CHECK: %[[LT:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: arith.andi %{{.*}}, %[[IN]] : i1
// CHECK: scf.if
// CHECK: vector.load
tile.kernel @lead_row_vector(%S: memref<?x?x?xf16>, %Y: memref<?x?xf16>, %r: i32) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %row = arith.index_cast %r : i32 to index
  %s = tile.alloc_fragment : !tile.fragment<16x256xf16>
  tile.copy %S[%row, %c0, %c0] -> %s
  tile.copy %s -> %Y[%c0, %c0]
}
