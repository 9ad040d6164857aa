// RUN: tile-opt %s --tile-specialize -split-input-file -verify-diagnostics | FileCheck %s

// A plain kernel's tile sizes given as constants become its types' sizes,
// as a parametric kernel's do: the planner would see `?` and give the tile
// no storage at all.
// CHECK-LABEL: tile.kernel @constant_sizes
// CHECK: tile.alloc_fragment : !tile.fragment<512xf32>
// CHECK: tile.alloc_shared : !tile.shared<64x32xf16>
tile.kernel @constant_sizes(%X: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c512 = arith.constant 512 : index
  %b = tile.alloc_fragment [%c512] : !tile.fragment<?xf32>
  %s = tile.alloc_shared [%c64, %c32] : !tile.shared<?x?xf16>
  tile.fill %b, 1.0 : !tile.fragment<?xf32>
  tile.copy %b -> %X[%c0, %c0] : !tile.fragment<?xf32> -> memref<?x?xf32>
}

// -----

// Once static, the kernel is verified again: an element-wise loop over
// tiles of different sizes is refused at the op.
tile.kernel @mismatch(%X: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %a = tile.alloc_fragment [%c256] : !tile.fragment<?xf32>
  %b = tile.alloc_fragment [%c128] : !tile.fragment<?xf32>
  tile.fill %a, 1.0 : !tile.fragment<?xf32>
  // expected-error @+1 {{parallel_c2: input #0 has 256 elements along its dimension 0, read at dimension 0 of the iteration space, which has 128; give both the same size}}
  tile.parallel ins(%x = %a : !tile.fragment<?xf32>) outs(%y = %b : !tile.fragment<?xf32>) {
    tile.yield %x : f32
  }
  tile.copy %b -> %X[%c0, %c0] : !tile.fragment<?xf32> -> memref<?x?xf32>
}

// -----

// A size that is no constant is refused where the kernel is specialised.
tile.kernel @argument_size(%X: memref<?x?xf32>, %n: i32) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %size = arith.index_cast %n : i32 to index
  // expected-error @+1 {{alloc_c3: size #0 of '!tile.fragment<?xf32>' must fold to a positive constant once the parameters are bound}}
  %b = tile.alloc_fragment [%size] : !tile.fragment<?xf32>
  tile.fill %b, 1.0 : !tile.fragment<?xf32>
  tile.copy %b -> %X[%c0, %c0] : !tile.fragment<?xf32> -> memref<?x?xf32>
}
