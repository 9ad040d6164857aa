// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu --verify-diagnostics

// The lowering meets no shorthand of the source language: tile-specialize
// expands them. One left (the lowering run alone) is refused at the op.

tile.kernel @let(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{is a shorthand of the source language; run tile-specialize (or tile-expand-shorthands) before lowering it}}
  %m0 = tile.let block_id.x * 64
}

// -----

tile.kernel @through(%C: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %s = tile.alloc_shared : !tile.shared<64x64xf16>
  tile.fill %acc, 1.0
  // expected-error @+1 {{is a shorthand of the source language}}
  tile.copy %acc -> %C[%c0, %c0] through %s
}

// -----

tile.kernel @index(%C: memref<?x?xf32>) grid [1] threads 128 {
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.parallel outs(%x = %acc) {
    // expected-error @+1 {{is a shorthand of the source language}}
    %j = tile.index 1 : i32
    %f = arith.sitofp %j : i32 to f32
    tile.yield %f : f32
  }
}

