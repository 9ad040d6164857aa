// RUN: tile-opt %s --split-input-file --tile-plan-waits --convert-tile-to-nvgpu --verify-diagnostics

// The lowering takes its layouts from tile-infer-layouts (or the IR).
tile.kernel @no_layout(%A: memref<?x?xf32>) grid [1] threads 128 {
  // expected-error @+1 {{has no layout; run tile-infer-layouts first}}
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
}

// -----

tile.kernel @blocked_accumulator(%A: memref<?x?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
  // expected-error @+1 {{the accumulator must have the layout #tile.mma<warpgroups = 1>}}
  tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @footprint(%A: memref<?x?xf32>) grid [1] threads 128 {
  // expected-error @+1 {{cannot lay out the fragment with #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]> in a block of 128 threads: dimension 0 (8) must be a multiple of 16, what the layout spreads along it (4 lanes x 4 warps); make it 16 and let the copies mask the elements past the data}}
  %f = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<8x64xf32>
}

// -----

// A row of 1000 columns as a new kernel writes it: the rule, and the fix.
tile.kernel @row_width(%A: memref<?x?xf32>) grid [1] threads 128 {
  // expected-error @+1 {{dimension 1 (1000) must be a multiple of 32, what the layout spreads along it (32 lanes x 1 warps); make it 1024 and let the copies mask the elements past the data}}
  %f = tile.alloc_fragment {layout = #tile.blocked<vector = 1, lanes = [1, 32], warps = [4, 1]>} : !tile.fragment<4x1000xf32>
}

// -----

tile.kernel @block_warps(%A: memref<?x?xf32>) grid [1] threads 256 {
  // expected-error @+1 {{its warps (4) must be the block's (8): every warp holds a part of the fragment}}
  %f = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
}

// -----

tile.kernel @powers_of_two(%A: memref<?x?xf32>) grid [1] threads 384 {
  // expected-error @+1 {{its lanes, warps and vector must be powers of two}}
  %f = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [12, 1]>} : !tile.fragment<96x64xf32>
}

// -----

tile.kernel @mma_shape(%A: memref<?x?xf32>) grid [1] threads 256 {
  // expected-error @+1 {{cannot lay out 64x64 with #tile.mma<warpgroups = 2> in a block of 256 threads: rows must be a multiple of 64 per warpgroup, columns of 8, and the block exactly the warpgroups}}
  %f = tile.alloc_fragment {layout = #tile.mma<warpgroups = 2>} : !tile.fragment<64x64xf32>
}

// -----

tile.kernel @different_layouts(%A: memref<?x?xf32>) grid [1] threads 128 {
  %a = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
  %b = tile.alloc_fragment {layout = #tile.blocked<vector = 2, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
  // expected-error @+1 {{copies between fragments of different layouts are not lowered yet}}
  tile.copy %a -> %b : !tile.fragment<64x64xf32> -> !tile.fragment<64x64xf32>
}

// -----

tile.kernel @reduce_layout(%A: memref<?x?xf32>) grid [1] threads 128 {
  %a = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<128x64xf32>
  %m = tile.alloc_fragment {layout = #tile.blocked<vector = 1, lanes = [32], warps = [4]>} : !tile.fragment<128xf32>
  // expected-error @+1 {{the destination's layout must be the source's sliced along dim 1}}
  tile.reduce max %a -> %m {dim = 1 : i64, clear} : !tile.fragment<128x64xf32> -> !tile.fragment<128xf32>
}

// -----

tile.kernel @parallel_layout(%A: memref<?x?xf32>) grid [1] threads 128 {
  %a = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
  %b = tile.alloc_fragment {layout = #tile.blocked<vector = 2, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
  // expected-error @+1 {{input #0 does not have the layout its indexing map needs; run tile-infer-layouts}}
  tile.parallel ins(%b : !tile.fragment<64x64xf32>) outs(%a : !tile.fragment<64x64xf32>) attributes {indexing_maps = [
      affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32, %y: f32):
    tile.yield %x : f32
  }
}

// -----

tile.kernel @register_a_layout(%A: memref<?x?xf16>) grid [1] threads 128 {
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %p = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf16>
  %o = tile.alloc_fragment {layout = #tile.mma<warpgroups = 1>} : !tile.fragment<64x64xf32>
  // expected-error @+1 {{a fragment A must have the layout #tile.mma<warpgroups = 1>, as an accumulator has}}
  tile.gemm %p, %b, %o : !tile.fragment<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @register_a_k(%A: memref<?x?xf16>) grid [1] threads 128 {
  %b = tile.alloc_shared : !tile.shared<8x64xf16>
  %p = tile.alloc_fragment {layout = #tile.mma<warpgroups = 1>} : !tile.fragment<64x8xf16>
  %o = tile.alloc_fragment {layout = #tile.mma<warpgroups = 1>} : !tile.fragment<64x64xf32>
  // expected-error @+1 {{a fragment A needs K (8) to be a multiple of the wgmma K step (16)}}
  tile.gemm %p, %b, %o : !tile.fragment<64x8xf16>, !tile.shared<8x64xf16>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @parallel_outputs_layouts(%A: memref<?x?xf16>) grid [1] threads 128 {
  %i = tile.alloc_fragment {layout = #tile.mma<warpgroups = 1>} : !tile.fragment<64x64xf32>
  %a = tile.alloc_fragment {layout = #tile.mma<warpgroups = 1>} : !tile.fragment<64x64xf32>
  %o = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
  // expected-error @+1 {{all outputs must have the same layout}}
  tile.parallel ins(%i : !tile.fragment<64x64xf32>) outs(%a, %o : !tile.fragment<64x64xf32>, !tile.fragment<64x64xf32>) attributes {indexing_maps = [
      affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32, %y: f32, %z: f32):
    tile.yield %x, %x : f32, f32
  }
}

// -----

tile.kernel @parallel_transposed_input(%A: memref<?x?xf16>) grid [1] threads 128 {
  %i = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
  %o = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
  // expected-error @+1 {{input #0 must be indexed by the identity or a broadcast}}
  tile.parallel ins(%i : !tile.fragment<64x64xf32>) outs(%o : !tile.fragment<64x64xf32>) attributes {indexing_maps = [
      affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32, %y: f32):
    tile.yield %x : f32
  }
}
