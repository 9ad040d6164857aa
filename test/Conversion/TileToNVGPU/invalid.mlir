// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu --verify-diagnostics

// Each case is valid tile IR that the sm_90a lowering cannot compile; it is
// rejected with a diagnostic at the op before any code is generated.

tile.kernel @row_bytes(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{a shared tile row (32 x 'f16' = 64 bytes) must be a multiple of the 128-byte swizzle width on sm_90a, e.g. 64 elements}}
  %a = tile.alloc_shared : !tile.shared<64x32xf16>
}

// -----

tile.kernel @rows(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{a shared tile has a multiple of 8 rows, at most 256 (one TMA box), got 512}}
  %a = tile.alloc_shared : !tile.shared<512x64xf16>
}

// -----

tile.kernel @rank(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{sm_90a lowers 2-d shared tiles, got rank 3}}
  %a = tile.alloc_shared : !tile.shared<2x64x64xf16>
}

// -----

// expected-error @+1 {{needs 262144 bytes of shared memory for its tiles and pipeline stages; sm_90a allows 231424 (reduce num_stages or the tile sizes)}}
tile.kernel @too_much_smem(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.alloc_shared : !tile.shared<256x64xf16>
  tile.pipelined %k = %c0 to %c1 step %c1 num_stages 8 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<256x64xf16>
  }
}

// -----

// A 256x256 fp32 accumulator on one warpgroup is 512 registers per thread.
tile.kernel @too_many_registers(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{needs 512 registers per thread (65536 elements over 128 threads); a thread has at most 255 (use more threads or a smaller tile)}}
  %acc = tile.alloc_fragment : !tile.fragment<256x256xf32>
}

// -----

tile.kernel @not_an_argument(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = memref.alloc() : memref<64x64xf16>
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  tile.pipelined %k = %c0 to %c1 step %c1 num_stages 2 {
    // expected-error @+1 {{a global-to-shared copy reads a tile.kernel argument directly (it becomes a TMA load)}}
    tile.copy %w[%c0, %k] -> %a : memref<64x64xf16> -> !tile.shared<64x64xf16>
  }
}

// -----

tile.kernel @stage_conflict(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  tile.pipelined %k = %c0 to %c1 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
  }
  tile.pipelined %k = %c0 to %c1 step %c1 num_stages 3 {
    // expected-error @+1 {{the shared tile is filled by copies with different numbers of stages}}
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
  }
}

// -----

tile.kernel @warpgroups(%A: memref<?x?xf16>) grid [1] threads 96 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{warpgroup MMA needs whole warpgroups: threads (96) must be a multiple of 128}}
  tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @m_per_warpgroup(%A: memref<?x?xf16>) grid [1] threads 256 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{M (64) must be a multiple of 64 x 2 warpgroups: each warpgroup issues m64 wgmma instructions}}
  tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @n_too_large(%A: memref<?x?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x512xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x512xf32>
  // expected-error @+1 {{N (512) must be a multiple of 8 and at most 256 for wgmma}}
  tile.gemm %a, %b, %c : !tile.shared<64x64xf16>, !tile.shared<64x512xf16>, !tile.fragment<64x512xf32>
}

// -----

tile.kernel @transpose_a(%A: memref<?x?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{transpose_a is not lowered on sm_90a; store A as M x K}}
  tile.gemm %a, %a, %c {transpose_a} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @impure_offset(%A: memref<?x?xf16>, %I: memref<?xindex>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c1 step %c1 num_stages 2 {
    // expected-note @+1 {{'memref.load' reads or writes memory}}
    %l = memref.load %I[%k] : memref<?xindex>
    %o = arith.muli %l, %c1 : index
    // expected-error @+1 {{the offsets of a pipelined copy must be pure functions of the iteration}}
    tile.copy %A[%c0, %o] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
}

// -----

tile.kernel @fill_shared(%A: memref<?x?xf16>) grid [1] threads 128 {
  %z = arith.constant 0.0 : f16
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-error @+1 {{filling a shared tile is not lowered on sm_90a yet}}
  tile.fill %a, %z : !tile.shared<64x64xf16>, f16
}

// -----

tile.kernel @store_converts(%A: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-error @+1 {{a shared-to-global copy (a TMA store) does not convert: the tile holds 'f16', the memref 'f32'; convert when filling the tile}}
  tile.copy %a -> %A[%c0, %c0] : !tile.shared<64x64xf16> -> memref<?x?xf32>
}

// -----

tile.kernel @store_to_view(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %v = memref.alloc() : memref<64x64xf16>
  // expected-error @+1 {{a shared-to-global copy writes a tile.kernel argument directly (it becomes a TMA store)}}
  tile.copy %a -> %v[%c0, %c0] : !tile.shared<64x64xf16> -> memref<64x64xf16>
}

// -----

tile.kernel @store_pipelined_tile(%A: memref<?x?xf16>, %C: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{is filled by a pipelined loop and copied to global memory; a TMA store reads a single-stage tile}}
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %a -> %C[%c0, %k] : !tile.shared<64x64xf16> -> memref<?x?xf16>
  }
}

// -----

tile.kernel @nested(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  // expected-error @+1 {{holds tile operations; only tile.pipelined, scf.for and scf.if may enclose them on sm_90a}}
  scf.execute_region {
    tile.fill %c, %z : !tile.fragment<64x64xf32>, f32
    scf.yield
  }
}

// -----

tile.kernel @loop_per_thread(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %tid = gpu.thread_id x
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{holds tile operations, and its bounds depend on the thread through 'gpu.thread_id': every thread of the block must run the same iterations}}
  scf.for %i = %c0 to %tid step %c1 {
    tile.fill %c, %z : !tile.fragment<64x64xf32>, f32
  }
}

// -----

tile.kernel @loop_carries(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{holds tile operations and carries values; a loop over tile operations has no iter_args}}
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%x = %z) -> (f32) {
    tile.fill %c, %x : !tile.fragment<64x64xf32>, f32
    scf.yield %x : f32
  }
}

// -----

tile.kernel @loop_lone_tma(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf16>
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @+1 {{a global-to-shared copy (a TMA load) inside scf.for must be in a tile.pipelined loop on sm_90a}}
    tile.copy %A[%i, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %a -> %f : !tile.shared<64x64xf16> -> !tile.fragment<64x64xf16>
  }
}

// -----

tile.kernel @branch_results(%A: memref<?x?xf16>) grid [1] threads 128 {
  %true = arith.constant true
  %z = arith.constant 0.0 : f32
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %c, %z : !tile.fragment<64x64xf32>, f32
  // expected-error @+1 {{holds tile operations and yields values; a branch over tile operations has no results}}
  %r = scf.if %true -> f32 {
    tile.fill %c, %z : !tile.fragment<64x64xf32>, f32
    scf.yield %z : f32
  } else {
    scf.yield %z : f32
  }
}

// -----

tile.kernel @branch_tma(%A: memref<?x?xf16>) grid [1] threads 128 {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  scf.if %true {
    // expected-error @+1 {{a global-to-shared copy (a TMA load) cannot be conditional on sm_90a}}
    tile.copy %A[%c0, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
  }
}

// -----

tile.kernel @branch_pipelined(%A: memref<?x?xf16>) grid [1] threads 128 {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  scf.if %true {
    // expected-error @+1 {{inside scf.if is not lowered on sm_90a; branch inside its body instead}}
    tile.pipelined %k = %c0 to %c1 step %c1 num_stages 1 {
      tile.fill %c, %z : !tile.fragment<64x64xf32>, f32
    }
  }
}

// -----

tile.kernel @parallel_shared_input(%A: memref<?x?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf16>
  // expected-error @+1 {{input #0 must be a fragment on sm_90a so far}}
  tile.parallel ins(%a : !tile.shared<64x64xf16>) outs(%c : !tile.fragment<64x64xf16>) attributes {indexing_maps = [
      affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f16, %y: f16):
    tile.yield %x : f16
  }
}

// -----

tile.kernel @parallel_shared_output(%A: memref<?x?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf16>
  // expected-error @+1 {{outputs must be fragments on sm_90a so far}}
  tile.parallel ins(%c : !tile.fragment<64x64xf16>) outs(%a : !tile.shared<64x64xf16>) attributes {indexing_maps = [
      affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f16, %y: f16):
    tile.yield %x : f16
  }
}

// -----

tile.kernel @fragment_into_staged_tile(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf16>
  tile.fill %f, 0.0 : !tile.fragment<64x64xf16>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    // expected-error @+1 {{writes a pipelined shared tile from registers; only the loop's copies from global memory fill it}}
    tile.copy %f -> %a : !tile.fragment<64x64xf16> -> !tile.shared<64x64xf16>
  }
}

// -----

tile.kernel @staged_tile_after_loop(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf16>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
  }
  // expected-error @+1 {{reads a pipelined shared tile outside the tile.pipelined loop that fills it, where no stage is current}}
  tile.copy %a -> %f : !tile.shared<64x64xf16> -> !tile.fragment<64x64xf16>
}

// -----

tile.kernel @reduce_integers(%A: memref<?x?xi32>) grid [1] threads 128 {
  %s = tile.alloc_fragment : !tile.fragment<64x64xi32>
  %d = tile.alloc_fragment : !tile.fragment<64xi32>
  // expected-error @+1 {{reduces f32 fragments only (its warp shuffles move 32-bit floats), got 'i32'; copy the fragment into an f32 one first}}
  tile.reduce sum %s -> %d {dim = 1 : i64} : !tile.fragment<64x64xi32> -> !tile.fragment<64xi32>
}

// -----

// A 16-bit or 8-bit float fragment is reduced as f32: refused at the op,
// not by the shuffle's verifier after lowering.
tile.kernel @reduce_f16(%A: memref<?x?xf16>) grid [1] threads 128 {
  %s = tile.alloc_fragment : !tile.fragment<16x128xf16>
  %d = tile.alloc_fragment : !tile.fragment<16xf16>
  // expected-error @+1 {{reduces f32 fragments only (its warp shuffles move 32-bit floats), got 'f16'; copy the fragment into an f32 one first}}
  tile.reduce max %s -> %d {dim = 1 : i64} : !tile.fragment<16x128xf16> -> !tile.fragment<16xf16>
}

// -----

tile.kernel @reduce_f8(%A: memref<?x?xf8E4M3FN>) grid [1] threads 128 {
  %s = tile.alloc_fragment : !tile.fragment<16x128xf8E4M3FN>
  %d = tile.alloc_fragment : !tile.fragment<16xf8E4M3FN>
  // expected-error @+1 {{reduces f32 fragments only (its warp shuffles move 32-bit floats), got 'f8E4M3FN'}}
  tile.reduce max %s -> %d {dim = 1 : i64} : !tile.fragment<16x128xf8E4M3FN> -> !tile.fragment<16xf8E4M3FN>
}

// -----

tile.kernel @branch_thread(%C: memref<?x?xf32>) grid [1] threads 128 {
  %c48 = arith.constant 48 : index
  %z = arith.constant 0.0 : f32
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %r = tile.alloc_fragment : !tile.fragment<64xf32>
  %t = gpu.thread_id x
  %lo = arith.cmpi ult, %t, %c48 : index
  tile.fill %c, %z : !tile.fragment<64x64xf32>, f32
  // expected-error @+1 {{holds tile operations, and its condition depends on the thread through 'gpu.thread_id': every thread of the block must take the same path}}
  scf.if %lo {
    tile.reduce max %c -> %r {dim = 0 : i64} : !tile.fragment<64x64xf32> -> !tile.fragment<64xf32>
  }
}

// -----

// Sizes are planned in bytes: elements narrower than a byte have none.
// expected-error @+1 {{argument #0: sm_90a lowers memrefs of whole-byte elements, got 'i4'}}
tile.kernel @subbyte_memref(%A: memref<?x?xi4>) grid [1] threads 128 {
}

// -----

tile.kernel @subbyte_tile(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{sm_90a lowers tiles of whole-byte elements, got 'i1'}}
  %f = tile.alloc_fragment : !tile.fragment<64x64xi1>
}

// -----

// A tile that row copies fill is read by tile.copy only: wgmma reads
// through the async proxy.
tile.kernel @row_copy_gemm(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %A[%c0, %c0] -> %a[%c0, %c0] : memref<?x?xf16> -> !tile.shared<64x64xf16>
  // expected-error @+1 {{uses a shared tile that row copies from global memory fill (copy_c6); such a tile is read and written only by tile.copy between it and fragments}}
  tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
}

// -----

// NVPTX computes with f16, bf16, f32 and f64: an f80 or f128 element would
// crash its instruction selection or give PTX that ptxas refuses.
// expected-error @+1 {{has type 'memref<?x?xf80>'; sm_90a computes with f16, bf16, f32, f64 and integers of up to 64 bits}}
tile.kernel @f80_copy(%A: memref<?x?xf80>, %B: memref<?x?xf80>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_fragment : !tile.fragment<16x128xf80>
  tile.copy %A[%c0, %c0] -> %a : memref<?x?xf80> -> !tile.fragment<16x128xf80>
  tile.copy %a -> %B[%c0, %c0] : !tile.fragment<16x128xf80> -> memref<?x?xf80>
}

// -----

// expected-error @+1 {{has type 'memref<?x?xf128>'; sm_90a computes with}}
tile.kernel @f128_copy(%A: memref<?x?xf128>, %B: memref<?x?xf128>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_fragment : !tile.fragment<16x128xf128>
  tile.copy %A[%c0, %c0] -> %a : memref<?x?xf128> -> !tile.fragment<16x128xf128>
  tile.copy %a -> %B[%c0, %c0] : !tile.fragment<16x128xf128> -> memref<?x?xf128>
}

// -----

// Inside an element-wise body too.
tile.kernel @f80_body(%A: memref<?x?xf32>, %B: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_fragment : !tile.fragment<16x128xf32>
  tile.copy %A[%c0, %c0] -> %a : memref<?x?xf32> -> !tile.fragment<16x128xf32>
  tile.parallel outs(%a : !tile.fragment<16x128xf32>) attributes {indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32):
    // expected-error @+1 {{has type 'f80'; sm_90a computes with}}
    %w = arith.extf %x : f32 to f80
    %y = arith.truncf %w : f80 to f32
    tile.yield %y : f32
  }
  tile.copy %a -> %B[%c0, %c0] : !tile.fragment<16x128xf32> -> memref<?x?xf32>
}

// -----

// expected-error @+1 {{has type 'memref<?xi128>'; sm_90a computes with}}
tile.kernel @i128(%A: memref<?xi128>) grid [1] threads 128 {
}

// -----

// 8-bit floats are stored, moved and converted, never computed with: not
// in arithmetic, even a comparison ...
tile.kernel @f8_compare(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xi8>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %f = tile.alloc_fragment : !tile.fragment<16x128xf8E4M3FN>
  %g = tile.alloc_fragment : !tile.fragment<16x128xi8>
  tile.copy %A[%c0, %c0] -> %f : memref<?x?xf8E4M3FN> -> !tile.fragment<16x128xf8E4M3FN>
  tile.parallel ins(%v = %f) outs(%o = %g) {
    // expected-error @+1 {{'arith.cmpf' op has type 'f8E4M3FN'; sm_90a stores and converts 8-bit floats but does not compute with them: convert with arith.extf to f16, bf16 or f32 first, and back with arith.truncf}}
    %c = arith.cmpf olt, %v, %v : f8E4M3FN
    %r = arith.extui %c : i1 to i8
    tile.yield %r : i8
  }
  tile.copy %g -> %B[%c0, %c0] : !tile.fragment<16x128xi8> -> memref<?x?xi8>
}

// -----

// ... or an 8-bit constant other than a fill's ...
tile.kernel @f8_constant(%A: memref<?x?xf8E4M3FN>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<16x128xf8E4M3FN>
  tile.parallel outs(%o = %f) {
    // expected-error @+1 {{'arith.constant' op has type 'f8E4M3FN'; sm_90a stores and converts 8-bit floats}}
    %z = arith.constant 1.0 : f8E4M3FN
    tile.yield %z : f8E4M3FN
  }
  tile.copy %f -> %A[%c0, %c0] : !tile.fragment<16x128xf8E4M3FN> -> memref<?x?xf8E4M3FN>
}

// -----

// ... nor converted by a TMA store, which moves bytes ...
tile.kernel @f8_convert(%A: memref<?x?xf8E5M2>, %B: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x128xf8E5M2>
  tile.copy %A[%c0, %c0] -> %a : memref<?x?xf8E5M2> -> !tile.shared<64x128xf8E5M2>
  // expected-error @+1 {{a shared-to-global copy (a TMA store) does not convert: the tile holds 'f8E5M2', the memref 'f32'; convert when filling the tile}}
  tile.copy %a -> %B[%c0, %c0] : !tile.shared<64x128xf8E5M2> -> memref<?x?xf32>
}

// -----

// ... nor loaded as scalars.
tile.kernel @f8_scalar(%A: memref<?xf8E4M3FN>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.load' op has type 'f8E4M3FN'; sm_90a stores and converts 8-bit floats}}
  %x = memref.load %A[%c0] : memref<?xf8E4M3FN>
}

// -----

// A loop whose step is not positive would never end: a GPU hang.
tile.kernel @loop_step_zero(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{holds tile operations and its step (0) is not positive: the loop would not end}}
  scf.for %i = %c0 to %c4 step %c0 {
    tile.fill %c, %z : !tile.fragment<64x64xf32>, f32
  }
}

// -----

tile.kernel @loop_step_negative(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %m1 = arith.constant -1 : index
  %z = arith.constant 0.0 : f32
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{holds tile operations and its step (-1) is not positive: the loop would not end}}
  scf.for %i = %c0 to %c4 step %m1 {
    tile.fill %c, %z : !tile.fragment<64x64xf32>, f32
  }
}

// -----

// A scalar atomic is issued once per block: a value that differs between
// threads would lose all but one.
tile.kernel @atomic_per_thread(%S: memref<?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %tid = gpu.thread_id x
  %i = arith.index_cast %tid : index to i32
  %f = arith.sitofp %i : i32 to f32
  // expected-error @+1 {{combines a scalar that depends on the thread through 'gpu.thread_id'; a scalar or the offsets of tile.atomic must be the same in every thread}}
  tile.atomic add %f -> %S[%c0] : f32 -> memref<?xf32>
}

// -----

tile.kernel @atomic_offsets_per_thread(%S: memref<?xf32>) grid [1] threads 128 {
  %one = arith.constant 1.0 : f32
  %tid = gpu.thread_id x
  // expected-error @+1 {{combines at offsets that depend on the thread through 'gpu.thread_id'}}
  tile.atomic add %one -> %S[%tid] : f32 -> memref<?xf32>
}

// -----

// Memref arguments move to the global address space as they are lowered;
// a view of one would keep its old type.
tile.kernel @view_of_argument(%X: memref<?x?xf32>, %Y: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{makes a view of a memref in a tile.kernel, which is not lowered on sm_90a; give the tile ops the argument itself with offsets}}
  %v = memref.subview %X[0, 0] [%c64, %c64] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
  %x = memref.load %v[%c0, %c0] : memref<?x?xf32, strided<[?, 1]>>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %f, %x : !tile.fragment<64x64xf32>, f32
  tile.copy %f -> %Y[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// Without tile-specialize, a `?` size would be planned as no storage.
tile.kernel @unspecialized_size(%X: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  // expected-error @+1 {{allocates '!tile.fragment<?xf32>', whose sizes are not constants; a tile's sizes are integers or parameters, folded by tile-specialize}}
  %b = tile.alloc_fragment [%c512] : !tile.fragment<?xf32>
  tile.fill %b, 1.0 : !tile.fragment<?xf32>
  tile.copy %b -> %X[%c0, %c0] : !tile.fragment<?xf32> -> memref<?x?xf32>
}

// -----

// tile.arrive is one atomic per block: a counter chosen per thread would
// count each thread's arrival apart.
tile.kernel @arrive_per_thread(%N: memref<?xi32>) grid [1] threads 128 {
  %c2 = arith.constant 2 : index
  %tid = gpu.thread_id x
  // expected-error @+1 {{counts at a counter that depends on the thread through 'gpu.thread_id'; its offsets and count must be the same in every thread}}
  %last = tile.arrive %N[%tid] count %c2 : memref<?xi32>
}

// -----

// A TMA store's writes are the async proxy's, completed by no wait of the
// block's threads: the arrival after it would not release them.
tile.kernel @arrive_after_tma_store(%C: memref<?x?xf16>, %N: memref<?xi32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %cs = tile.alloc_shared : !tile.shared<64x64xf16>
  tile.fill %acc, %one : !tile.fragment<64x64xf32>, f32
  tile.copy %acc -> %cs : !tile.fragment<64x64xf32> -> !tile.shared<64x64xf16>
  // expected-note @+1 {{the TMA store}}
  tile.copy %cs -> %C[%c0, %c0] : !tile.shared<64x64xf16> -> memref<?x?xf16>
  // expected-error @+1 {{follows a copy from a shared tile to global memory (a TMA store), whose writes its arrival does not release on sm_90a; store the fragment directly (tile.copy %frag -> %memref) before tile.arrive}}
  %last = tile.arrive %N[%c0] count %c2 : memref<?xi32>
}

// -----

// In a serial loop, the TMA store of one iteration precedes the arrival of
// the next.
tile.kernel @arrive_loop_tma_store(%C: memref<?x?xf16>, %N: memref<?xi32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %cs = tile.alloc_shared : !tile.shared<64x64xf16>
  tile.fill %acc, %one : !tile.fragment<64x64xf32>, f32
  scf.for %i = %c0 to %c2 step %c1 {
    // expected-error @+1 {{follows a copy from a shared tile to global memory (a TMA store)}}
    %last = tile.arrive %N[%i] count %c2 : memref<?xi32>
    tile.copy %acc -> %cs : !tile.fragment<64x64xf32> -> !tile.shared<64x64xf16>
    // expected-note @+1 {{the TMA store}}
    tile.copy %cs -> %C[%i, %c0] : !tile.shared<64x64xf16> -> memref<?x?xf16>
  }
}

// -----

// The launch rounds the grid up to whole clusters; the blocks past the
// shapes' grid would arrive at other tiles' counters.
tile.kernel @arrive_in_cluster(%X: memref<?x?xf32>, %N: memref<?xi32>)
    grid [%X[1] / 64, 2] threads 128 cluster [2] {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %bx = tile.block_id x
  // expected-error @+1 {{in a kernel launched in clusters is not lowered on sm_90a: the blocks that round the grid up to whole clusters would arrive too}}
  %last = tile.arrive %N[%bx] count %c2 : memref<?xi32>
}
