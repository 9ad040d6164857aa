// RUN: tile-opt %s --tile-infer-layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-opt %s --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// A 1-d fragment read from a row of a 2-d shared tile (copy_c11), then
// broadcast over the rows of a 2-d fragment: the fragment takes the 2-d
// fragment's layout sliced along its rows, and each thread loads its
// columns of row 0 as 16-byte vectors at their 128-byte-swizzled places
// (the row's base, the chunk index xor the row within the swizzle atom),
// converting f16 to f32.
// LAYOUT: tile.alloc_fragment {layout = #tile.slice<dim = 0, parent = #tile.blocked<vector = 8, lanes = [1, 32], warps = [4, 1]>>} : !tile.fragment<512xf32>
// CHECK-LABEL: gpu.func @row(
// CHECK:         nvgpu.tma.async.load
// CHECK:         nvgpu.mbarrier.try_wait.parity
// CHECK:         %[[VIEW:.*]] = memref.view %{{.*}} to memref<4096xf16, #gpu.address_space<workgroup>>
// CHECK:         arith.xori
// CHECK:         %[[V:.*]] = vector.load %[[VIEW]][%{{.*}}] {alignment = 16 : i64} : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK:         vector.extract %[[V]][7] : f16 from vector<8xf16>
// CHECK:         arith.extf %{{.*}} : f16 to f32
// CHECK:         vector.load %[[VIEW]][%{{.*}}] {alignment = 16 : i64} : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK:         arith.mulf
// CHECK:         gpu.return
tile.kernel @row(%X: memref<?x?xf16>, %V: memref<?x?xf16>, %Y: memref<?x?xf16>) grid [%X[0] / 32] threads 128 {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %bx = tile.block_id x
  %r0 = arith.muli %bx, %c32 : index
  %vs = tile.alloc_shared : !tile.shared<8x512xf16>
  %v = tile.alloc_fragment : !tile.fragment<512xf32>
  %x = tile.alloc_fragment : !tile.fragment<32x512xf32>
  tile.copy %V[%c0, %c0] -> %vs : memref<?x?xf16> -> !tile.shared<8x512xf16>
  tile.copy %X[%r0, %c0] -> %x : memref<?x?xf16> -> !tile.fragment<32x512xf32>
  tile.copy %vs[%c0, %c0] -> %v : !tile.shared<8x512xf16> -> !tile.fragment<512xf32>
  tile.parallel ins(%s = %v[1] : !tile.fragment<512xf32>) outs(%o = %x : !tile.fragment<32x512xf32>) {
    %p = arith.mulf %o, %s : f32
    tile.yield %p : f32
  }
  tile.copy %x -> %Y[%r0, %c0] : !tile.fragment<32x512xf32> -> memref<?x?xf16>
}
