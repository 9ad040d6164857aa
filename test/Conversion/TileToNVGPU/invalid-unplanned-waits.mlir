// RUN: tile-opt %s --split-input-file --tile-infer-layouts --convert-tile-to-nvgpu --verify-diagnostics

// The lowering emits the waits tile-plan-waits placed and decides none
// itself: a kernel whose waits were not planned is refused, not lowered
// into code that reads an accumulator or a tile early.
// expected-error @+1 {{has no planned waits; run tile-plan-waits before lowering it}}
tile.kernel @unplanned(%A: memref<?x?xf16>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %A[%c0, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
  tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}
