// RUN: tile-opt %s --split-input-file --tile-infer-layouts --verify-diagnostics

// A gemm accumulator cannot take the layout of a blocked fragment.
tile.kernel @conflict(%X: memref<?x?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-note @+1 {{layout set here}}
  %x = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  // expected-error @+1 {{layout conflict: this op needs #tile.mma<warpgroups = 1> for a fragment that has #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>}}
  tile.parallel ins(%x : !tile.fragment<64x64xf32>) outs(%acc : !tile.fragment<64x64xf32>) attributes {indexing_maps = [
      affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%v: f32, %o: f32):
    tile.yield %v : f32
  }
}

// -----

tile.kernel @rank3(%X: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{has no layout: nothing relates it to a laid-out fragment, and default (blocked) layouts are 1-d or 2-d}}
  %x = tile.alloc_fragment : !tile.fragment<4x64x64xf32>
}

// -----

tile.kernel @transposed_input(%X: memref<?x?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
  %b = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{input #0 is indexed by affine_map<(d0, d1) -> (d1, d0)>; a fragment input must be indexed by the identity or by the identity without one dimension (a broadcast)}}
  tile.parallel ins(%b : !tile.fragment<64x64xf32>) outs(%a : !tile.fragment<64x64xf32>) attributes {indexing_maps = [
      affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32, %o: f32):
    tile.yield %x : f32
  }
}

// -----

tile.kernel @warpgroups(%X: memref<?x?xf16>) grid [1] threads 96 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{warpgroup MMA needs whole warpgroups: threads (96) must be a multiple of 128}}
  tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
}

// -----

// A fragment read as a gemm's A is in the accumulator's layout; a blocked
// one given by hand conflicts at the gemm.
tile.kernel @register_a_blocked(%X: memref<?x?xf16>) grid [1] threads 128 {
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-note @+1 {{layout set here}}
  %a = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>} : !tile.fragment<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{layout conflict: this op needs #tile.mma<warpgroups = 1> for a fragment that has #tile.blocked<vector = 4, lanes = [4, 8], warps = [4, 1]>}}
  tile.gemm %a, %b, %acc : !tile.fragment<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
}
