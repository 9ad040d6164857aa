// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu --verify-diagnostics

// What a multicast load needs, each refused at the copy before any code is
// generated.

// Blocks of a cluster along x read different tiles of B.
tile.kernel @differs(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>)
    grid [8, 8] threads 128 cluster [2] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  // expected-note @+1 {{this block id}}
  %bx = tile.block_id x
  %n0 = arith.muli %bx, %c64 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, 0.0 : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 warp_specialize 1 {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%c0, %k0] -> %a multicast : memref<?x?xf16> -> !tile.shared<64x64xf16>
    // expected-error @+1 {{is multicast, so its offsets and its loop's bounds must be the same in every block of a cluster; they depend on a block id along a dimension that the cluster spans}}
    tile.copy %B[%k0, %n0] -> %b multicast : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %b, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc -> %C[%c0, %n0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// A loop whose trip count differs between the blocks of a cluster.
tile.kernel @bounds(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>)
    grid [8, 8] threads 128 cluster [2] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-note @+1 {{this block id}}
  %bx = tile.block_id x
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, 0.0 : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %bx step %c1 num_stages 2 warp_specialize 1 {
    %k0 = arith.muli %k, %c64 : index
    // expected-error @+1 {{is multicast, so its offsets and its loop's bounds must be the same}}
    tile.copy %A[%c0, %k0] -> %a multicast : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %B[%k0, %c0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %b, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// 64 rows over a cluster of 3 blocks: no whole number of swizzle periods
// (8 rows) each.
tile.kernel @rows(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>)
    grid [9, 8] threads 128 cluster [3] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, 0.0 : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 warp_specialize 1 {
    %k0 = arith.muli %k, %c64 : index
    // expected-error @+1 {{is multicast to 3 blocks, each loading 64 / 3 rows of the tile: its rows must be a multiple of 24}}
    tile.copy %A[%c0, %k0] -> %a multicast : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %B[%k0, %c0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %b, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// A pipelined loop without a producer warpgroup.
tile.kernel @not_ws(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>)
    grid [8, 8] threads 128 cluster [2] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, 0.0 : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    %k0 = arith.muli %k, %c64 : index
    // expected-error @+1 {{is multicast: the producer warpgroup of a warp-specialised loop issues it}}
    tile.copy %A[%c0, %k0] -> %a multicast : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %B[%k0, %c0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %b, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// A cluster of one block.
tile.kernel @one_block(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>)
    grid [8, 8] threads 128 cluster [1] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, 0.0 : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 warp_specialize 1 {
    %k0 = arith.muli %k, %c64 : index
    // expected-error @+1 {{is multicast to the blocks of a cluster, but the kernel is not launched in clusters of several blocks}}
    tile.copy %A[%c0, %k0] -> %a multicast : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %B[%k0, %c0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %b, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}
