// RUN: tile-opt %s --split-input-file --tile-infer-layouts | FileCheck %s

// The accumulator takes the wgmma layout (two warpgroups); the row maximum
// is its slice along the columns; a bias broadcast along the rows is its
// slice along the rows.
// CHECK-LABEL: tile.kernel @epilogue
// CHECK: %[[ACC:.*]] = tile.alloc_fragment {layout = #tile.mma<warpgroups = 2>} : !tile.fragment<128x256xf32>
// CHECK: tile.alloc_fragment {layout = #tile.slice<dim = 1, parent = #tile.mma<warpgroups = 2>>} : !tile.fragment<128xf32>
// CHECK: tile.alloc_fragment {layout = #tile.slice<dim = 0, parent = #tile.mma<warpgroups = 2>>} : !tile.fragment<256xf32>
tile.kernel @epilogue(%A: memref<?x?xf16>, %bias: memref<?xf16>) grid [1] threads 256 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<128x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x256xf16>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
  %m = tile.alloc_fragment : !tile.fragment<128xf32>
  %bv = tile.alloc_fragment : !tile.fragment<256xf32>
  tile.gemm %a, %b, %acc : !tile.shared<128x64xf16>, !tile.shared<64x256xf16>, !tile.fragment<128x256xf32>
  tile.reduce max %acc -> %m {dim = 1 : i64, clear} : !tile.fragment<128x256xf32> -> !tile.fragment<128xf32>
  tile.copy %bias[%c0] -> %bv : memref<?xf16> -> !tile.fragment<256xf32>
  tile.parallel ins(%acc, %bv : !tile.fragment<128x256xf32>, !tile.fragment<256xf32>)
      outs(%acc : !tile.fragment<128x256xf32>) attributes {indexing_maps = [
        affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
        affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    tile.yield %s : f32
  }
}

// -----

// Softmax: nothing fixes the loaded rows, so they get a blocked layout with
// 16-byte (8 x f16) global accesses, rows over the warps; the row statistics
// are its slices, even though they are allocated first.
// CHECK-LABEL: tile.kernel @softmax
// CHECK: tile.alloc_fragment {layout = #tile.slice<dim = 1, parent = #tile.blocked<vector = 8, lanes = [1, 32], warps = [8, 1]>>} : !tile.fragment<8xf32>
// CHECK: tile.alloc_fragment {layout = #tile.blocked<vector = 8, lanes = [1, 32], warps = [8, 1]>} : !tile.fragment<8x1024xf32>
tile.kernel @softmax(%X: memref<?x?xf16>, %Y: memref<?x?xf16>) grid [%X[0] / 8] threads 256 {
  %c0 = arith.constant 0 : index
  %m = tile.alloc_fragment : !tile.fragment<8xf32>
  %x = tile.alloc_fragment : !tile.fragment<8x1024xf32>
  tile.copy %X[%c0, %c0] -> %x : memref<?x?xf16> -> !tile.fragment<8x1024xf32>
  tile.reduce max %x -> %m {dim = 1 : i64, clear} : !tile.fragment<8x1024xf32> -> !tile.fragment<8xf32>
  tile.parallel ins(%x, %m : !tile.fragment<8x1024xf32>, !tile.fragment<8xf32>)
      outs(%x : !tile.fragment<8x1024xf32>) attributes {indexing_maps = [
        affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
        affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%v: f32, %mx: f32, %o: f32):
    %s = arith.subf %v, %mx : f32
    tile.yield %s : f32
  }
  tile.copy %x -> %Y[%c0, %c0] : !tile.fragment<8x1024xf32> -> memref<?x?xf16>
}

// -----

// One long row per block: the columns are spread over all eight warps.
// CHECK-LABEL: tile.kernel @long_row
// CHECK: tile.alloc_fragment {layout = #tile.blocked<vector = 8, lanes = [1, 32], warps = [1, 8]>} : !tile.fragment<1x8192xf32>
tile.kernel @long_row(%X: memref<?x?xf16>) grid [1] threads 256 {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<1x8192xf32>
  tile.copy %X[%c0, %c0] -> %x : memref<?x?xf16> -> !tile.fragment<1x8192xf32>
}

// -----

// A layout given in the IR is kept, and flows to the fragments it relates to.
// CHECK-LABEL: tile.kernel @explicit
// CHECK: tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
// CHECK: tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
tile.kernel @explicit(%X: memref<?x?xf32>) grid [1] threads 128 {
  %a = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
  %b = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %a -> %b : !tile.fragment<64x64xf32> -> !tile.fragment<64x64xf32>
}

// -----

// A one-dimensional fragment shorter than a vector per thread takes shorter
// runs: 256 elements over 128 threads, two each.
// CHECK-LABEL: tile.kernel @short_vector
// CHECK: tile.alloc_fragment {layout = #tile.blocked<vector = 2, lanes = [32], warps = [4]>} : !tile.fragment<256xf32>
tile.kernel @short_vector(%X: memref<?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<256xf32>
  tile.copy %X[%c0] -> %x : memref<?xf32> -> !tile.fragment<256xf32>
}

// -----

// Fragments too small for the default split (lanes along the columns,
// warps along the rows) take one that tiles them: shorter runs, warps
// along the columns (test/Conversion/TileToNVGPU/small-fragments.mlir
// lowers one).
// CHECK-LABEL: tile.kernel @small
// CHECK: tile.alloc_fragment {layout = #tile.blocked<vector = 2, lanes = [1, 32], warps = [4, 1]>} : !tile.fragment<4x64xf32>
// CHECK: tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [1, 32], warps = [4, 1]>} : !tile.fragment<4x128xf16>
// CHECK: tile.alloc_fragment {layout = #tile.blocked<vector = 1, lanes = [1, 32], warps = [1, 4]>} : !tile.fragment<1x128xf32>
tile.kernel @small(%X: memref<?x?xf32>, %H: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_fragment : !tile.fragment<4x64xf32>
  %b = tile.alloc_fragment : !tile.fragment<4x128xf16>
  %c = tile.alloc_fragment : !tile.fragment<1x128xf32>
  tile.copy %X[%c0, %c0] -> %a : memref<?x?xf32> -> !tile.fragment<4x64xf32>
  tile.copy %H[%c0, %c0] -> %b : memref<?x?xf16> -> !tile.fragment<4x128xf16>
  tile.copy %X[%c0, %c0] -> %c : memref<?x?xf32> -> !tile.fragment<1x128xf32>
}

// -----

// A fragment A of a gemm is read from registers as the accumulator lays
// them out: it takes the wgmma layout, and so do the fragments it is made
// from, back through the converting copy and the element-wise body (int8
// weights dequantised in registers, then multiplied).
// CHECK-LABEL: tile.kernel @register_a
// CHECK: tile.alloc_fragment {layout = #tile.mma<warpgroups = 1>} : !tile.fragment<64x128xi8>
// CHECK: tile.alloc_fragment {layout = #tile.mma<warpgroups = 1>} : !tile.fragment<64x128xf32>
// CHECK: tile.alloc_fragment {layout = #tile.mma<warpgroups = 1>} : !tile.fragment<64x128xf16>
// CHECK: tile.alloc_fragment {layout = #tile.mma<warpgroups = 1>} : !tile.fragment<64x16xf32>
tile.kernel @register_a(%Q: memref<?x?xi8>, %X: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %qs = tile.alloc_shared : !tile.shared<64x128xi8>
  %xs = tile.alloc_shared : !tile.shared<16x128xf16>
  %q = tile.alloc_fragment : !tile.fragment<64x128xi8>
  %wf = tile.alloc_fragment : !tile.fragment<64x128xf32>
  %w = tile.alloc_fragment : !tile.fragment<64x128xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x16xf32>
  tile.copy %Q[%c0, %c0] -> %qs : memref<?x?xi8> -> !tile.shared<64x128xi8>
  tile.copy %X[%c0, %c0] -> %xs : memref<?x?xf16> -> !tile.shared<16x128xf16>
  tile.copy %qs -> %q : !tile.shared<64x128xi8> -> !tile.fragment<64x128xi8>
  tile.parallel ins(%q : !tile.fragment<64x128xi8>) outs(%wf : !tile.fragment<64x128xf32>)
      attributes {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%v: i8, %o: f32):
    %f = arith.sitofp %v : i8 to f32
    tile.yield %f : f32
  }
  tile.copy %wf -> %w : !tile.fragment<64x128xf32> -> !tile.fragment<64x128xf16>
  tile.gemm %w, %xs, %acc {transpose_b} : !tile.fragment<64x128xf16>, !tile.shared<16x128xf16>, !tile.fragment<64x16xf32>
}
