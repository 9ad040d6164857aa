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
