// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu --verify-diagnostics | FileCheck %s

// Fragments with fewer rows than the default layout spreads over lanes and
// warps get a layout that tiles them, and lower: here 4 x 64 f32 over 128
// threads, two consecutive elements per thread (an 8-byte access each).
// CHECK-LABEL: gpu.func @small
// CHECK-COUNT-2: vector<2xf32>
tile.kernel @small(%X: memref<?x?xf32>, %Y: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<4x64xf32>
  tile.copy %X[%c0, %c0] -> %x : memref<?x?xf32> -> !tile.fragment<4x64xf32>
  tile.copy %x -> %Y[%c0, %c0] : !tile.fragment<4x64xf32> -> memref<?x?xf32>
}

// -----

// A fragment smaller than the block cannot give every thread an element:
// the rule is said, with the fix.
tile.kernel @too_small(%X: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{the fragment has 32 elements and every one of the 128 threads holds at least a run of 4; a fragment needs at least threads x vector = 512 elements (round its sizes up to powers of two and let the copies mask the elements past the data)}}
  %x = tile.alloc_fragment : !tile.fragment<2x16xf32>
  tile.copy %X[%c0, %c0] -> %x : memref<?x?xf32> -> !tile.fragment<2x16xf32>
}
