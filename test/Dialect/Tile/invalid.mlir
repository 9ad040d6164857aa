// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{kernel_c1: the grid must have 1 to 3 dimensions, got 0}}
tile.kernel @k(%A: memref<?xf16>) grid [] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c1: the grid must have 1 to 3 dimensions, got 4}}
tile.kernel @k(%A: memref<?xf16>) grid [1, 1, 1, 1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c2: grid extent refers to '%B', which is not a kernel argument}}
tile.kernel @k(%A: memref<?xf16>) grid [%B[0] / 128] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c2: grid dimension 0 has tile size 0; it must be positive}}
tile.kernel @k(%A: memref<?xf16>) grid [%A[0] / 0] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c2: grid dimension 0 uses dimension 1 of argument #0, which has rank 1}}
tile.kernel @k(%A: memref<?xf16>) grid [%A[1] / 64] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c2: grid dimension 0 must refer to a memref argument, argument #0 is 'i32'}}
tile.kernel @k(%n: i32) grid [%n[0] / 64] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c3: threads (100) must be a positive multiple of the warp size (32)}}
tile.kernel @k(%A: memref<?xf16>) grid [%A[0] / 64] threads 100 {
}

// -----

// expected-error @+1 {{kernel_c4: a kernel returns nothing}}
tile.kernel @k(%A: memref<?xf16>) -> i32 grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c4: argument #0 must be a memref or an i32, i64 or f32 scalar, got 'index'}}
tile.kernel @k(%i: index) grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c4: argument #0 must be a row-major global memref with no memory space}}
tile.kernel @k(%A: memref<?xf16, 3>) grid [1] threads 128 {
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [%A[0] / 64] threads 128 {
  // expected-error @+1 {{block_id_c1: dimension y is outside the kernel's 1-d grid}}
  %b = tile.block_id y
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.pipelined %i = %c0 to %c0 step %c1 num_stages 2 {
    // expected-error @+1 {{alloc_c1: tiles are allocated directly in a tile.kernel body, not in tile.pipelined}}
    %a = tile.alloc_shared : !tile.shared<64x64xf16>
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{pipelined_c1: num_stages (0) must be 1 to 64}}
  tile.pipelined %i = %c0 to %c0 step %c1 num_stages 0 {
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{pipelined_c1: num_stages (-1) must be 1 to 64}}
  tile.pipelined %i = %c0 to %c0 step %c1 num_stages -1 {
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{pipelined_c3: warp_specialize (2) must be 0, 1, false or true}}
  tile.pipelined %i = %c0 to %c0 step %c1 num_stages 2 warp_specialize 2 {
  }
}

// -----

// A stage count near 2^63 would overflow the shared memory arithmetic.
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{pipelined_c1: num_stages (9223372036854775807) must be 1 to 64}}
  tile.pipelined %i = %c0 to %c0 step %c1 num_stages 9223372036854775807 {
  }
}

// -----

// A loop of step 0 would never end (or, folded, vanish).
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{pipelined_c2: the step (0) must be positive}}
  tile.pipelined %i = %c0 to %c4 step %c0 num_stages 2 {
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %m = arith.constant -2 : index
  // expected-error @+1 {{pipelined_c2: the step (-2) must be positive}}
  tile.pipelined %i = %c0 to %c4 step %m num_stages 2 {
  }
}

// -----

// Kernel names become GPU symbols: identifiers only.
// expected-error @+1 {{kernel_c9: the name 'has space' (9 characters) must be an identifier of 1 to 255 letters, digits and '_', not starting with a digit}}
tile.kernel @"has space"(%A: memref<?xf16>) grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c9: the name 'line\0Abreak' (10 characters)}}
tile.kernel @"line\nbreak"(%A: memref<?xf16>) grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c9: the name '9lives'}}
tile.kernel @"9lives"(%A: memref<?xf16>) grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c9: the name '' (0 characters)}}
tile.kernel @""(%A: memref<?xf16>) grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c9: the name 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...' (256 characters)}}
tile.kernel @kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk(%A: memref<?xf16>) grid [1] threads 128 {
}

// -----

// The runtime passes memrefs of rank 1 to 5.
// expected-error @+1 {{kernel_c4: argument #0 must be a memref of rank 1 to 5, got rank 6}}
tile.kernel @k(%A: memref<?x?x?x?x?x?xf16>) grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c4: argument #1 must be a memref of rank 1 to 5, got rank 0}}
tile.kernel @k(%A: memref<?xf16>, %B: memref<f16>) grid [1] threads 128 {
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %z = arith.constant 0.0 : f16
  %t = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{fill_c1: the value has type 'f16', it must be the tile's element type 'f32'}}
  tile.fill %t, %z : !tile.fragment<64x64xf32>, f16
}

// -----

tile.kernel @k(%A: memref<?x?xf16>, %B: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{copy_c1: at most one side may be a memref}}
  tile.copy %A[%c0, %c0] -> %B[%c0, %c0] : memref<?x?xf16> -> memref<?x?xf16>
}

// -----

tile.kernel @k(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-error @+1 {{copy_c1: the source takes 2 offsets (one per memref dimension), got 1}}
  tile.copy %A[%c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
}

// -----

tile.kernel @k(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf16>
  // expected-error @+1 {{copy_c1: the destination takes 0 offsets (it is a tile), got 1}}
  tile.copy %a -> %f[%c0] : !tile.shared<64x64xf16> -> !tile.fragment<64x64xf16>
}

// -----

tile.kernel @k(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f16
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-error @+1 {{copy_c1: operands must be memrefs or tiles, got 'f16'}}
  tile.copy %z -> %a : f16 -> !tile.shared<64x64xf16>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-error @+1 {{copy_c2: a tile of rank 2 cannot be copied to or from a memref of rank 1; the tile spans the memref's innermost dimensions}}
  tile.copy %A[%c0] -> %a : memref<?xf16> -> !tile.shared<64x64xf16>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %b = tile.alloc_fragment : !tile.fragment<4096xf32>
  // expected-error @+1 {{copy_c2: a tile of rank 2 cannot be copied to or from a tile of rank 1; tiles must have the same rank}}
  tile.copy %a -> %b : !tile.fragment<64x64xf32> -> !tile.fragment<4096xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<64x32xf16>
  // expected-error @+1 {{copy_c3: tiles of shapes '!tile.shared<64x64xf16>' and '!tile.fragment<64x32xf16>' must have the same shape}}
  tile.copy %a -> %f : !tile.shared<64x64xf16> -> !tile.fragment<64x32xf16>
}

// -----

// A window of a shared tile takes one offset per dimension of the tile.
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<8x1024xf16>
  %f = tile.alloc_fragment : !tile.fragment<1x1024xf32>
  // expected-error @+1 {{copy_c1: the destination takes 2 offsets (one per dimension of the shared tile's window), got 1}}
  tile.copy %f -> %a[%c0] : !tile.fragment<1x1024xf32> -> !tile.shared<8x1024xf16>
}

// -----

// The window must fit in the shared tile.
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<8x1024xf16>
  %f = tile.alloc_fragment : !tile.fragment<1x2048xf32>
  // expected-error @+1 {{copy_c5: a window of shape '!tile.fragment<1x2048xf32>' does not fit in the shared tile '!tile.shared<8x1024xf16>'}}
  tile.copy %a[%c0, %c0] -> %f : !tile.shared<8x1024xf16> -> !tile.fragment<1x2048xf32>
}

// -----

// From global memory, offsets on the shared side name a row of the tile,
// filled from column 0 (copy_c6).
tile.kernel @k(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %a = tile.alloc_shared : !tile.shared<8x1024xf16>
  // expected-error @+1 {{copy_c6: the row of the shared tile starts at column 0 (a constant)}}
  tile.copy %A[%c0, %c0] -> %a[%c0, %c8] : memref<?x?xf16> -> !tile.shared<8x1024xf16>
}

// -----

// No window of a shared tile goes to global memory.
tile.kernel @k(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<8x1024xf16>
  // expected-error @+1 {{copy_c6: a copy to global memory takes the whole shared tile, not a window of it}}
  tile.copy %a[%c0, %c0] -> %A[%c0, %c0] : !tile.shared<8x1024xf16> -> memref<?x?xf16>
}

// -----

// A row copy keeps the element type, as every copy into shared memory does.
tile.kernel @k(%A: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<8x1024xf16>
  // expected-error @+1 {{copy_c4: a copy from global into shared memory keeps the element type; got 'f32' into 'f16'}}
  tile.copy %A[%c0, %c0] -> %a[%c0, %c0] : memref<?x?xf32> -> !tile.shared<8x1024xf16>
}

// -----

// Offsets select a window of a shared tile, never of a fragment.
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<8x1024xf16>
  %f = tile.alloc_fragment : !tile.fragment<8x1024xf32>
  // expected-error @+1 {{copy_c1: the source takes 0 offsets (it is a tile), got 2}}
  tile.copy %f[%c0, %c0] -> %a : !tile.fragment<8x1024xf32> -> !tile.shared<8x1024xf16>
}

// -----

// Between two shared tiles neither side takes offsets.
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<8x1024xf16>
  %b = tile.alloc_shared : !tile.shared<8x1024xf16>
  // expected-error @+1 {{copy_c1: the destination takes 0 offsets (it is a tile), got 2}}
  tile.copy %a -> %b[%c0, %c0] : !tile.shared<8x1024xf16> -> !tile.shared<8x1024xf16>
}

// -----

tile.kernel @k(%A: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-error @+1 {{copy_c4: a copy from global into shared memory keeps the element type; got 'f32' into 'f16'}}
  tile.copy %A[%c0, %c0] -> %a : memref<?x?xf32> -> !tile.shared<64x64xf16>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_shared : !tile.shared<64x64xf32>
  // expected-error @+1 {{gemm_c1: A must be a shared tile or a fragment, B a shared tile and C a fragment}}
  tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.shared<64x64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{gemm_c2: A, B and C must be 2-d tiles}}
  tile.gemm %a, %a, %c : !tile.shared<64xf16>, !tile.shared<64xf16>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x32xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{gemm_c2: op(A) is 64x32 and op(B) is 64x64; their K dimensions must agree}}
  tile.gemm %a, %b, %c : !tile.shared<64x32xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x128xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{gemm_c2: C is 64x64, it must be 64x128 (M of op(A) by N of op(B))}}
  tile.gemm %a, %b, %c : !tile.shared<64x64xf16>, !tile.shared<64x128xf16>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xbf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{gemm_c3: A and B must have one element type, f16, bf16, f8E4M3FN, f8E5M2 or i8, got 'f16' and 'bf16'}}
  tile.gemm %a, %b, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xbf16>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf32>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{gemm_c3: A and B must have one element type, f16, bf16, f8E4M3FN, f8E5M2 or i8, got 'f32' and 'f32'}}
  tile.gemm %a, %a, %c : !tile.shared<64x64xf32>, !tile.shared<64x64xf32>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x128xf8E4M3FN>
  %b = tile.alloc_shared : !tile.shared<128x64xf8E5M2>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{gemm_c3: A and B must have one element type, f16, bf16, f8E4M3FN, f8E5M2 or i8, got 'f8E4M3FN' and 'f8E5M2'}}
  tile.gemm %a, %b, %c : !tile.shared<64x128xf8E4M3FN>, !tile.shared<128x64xf8E5M2>, !tile.fragment<64x64xf32>
}

// -----

// 8-bit B must be N x K (transpose_b).
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x128xf8E4M3FN>
  %b = tile.alloc_shared : !tile.shared<128x64xf8E4M3FN>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{gemm_c6: 8-bit A and B are read K-major: A a shared tile without transpose_a, B a shared tile with transpose_b (N x K)}}
  tile.gemm %a, %b, %c : !tile.shared<64x128xf8E4M3FN>, !tile.shared<128x64xf8E4M3FN>, !tile.fragment<64x64xf32>
}

// -----

// 8-bit A must not be transposed.
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<128x64xf8E5M2>
  %b = tile.alloc_shared : !tile.shared<64x128xf8E5M2>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{gemm_c6: 8-bit A and B are read K-major}}
  tile.gemm %a, %b, %c {transpose_a, transpose_b} : !tile.shared<128x64xf8E5M2>, !tile.shared<64x128xf8E5M2>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf16>
  // expected-error @+1 {{gemm_c4: the accumulator must be f32, or i32 for i8 operands, got 'f16' for operands of 'f16'}}
  tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf16>
}

// -----

// Integer products accumulate in i32 ...
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x128xi8>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{gemm_c4: the accumulator must be f32, or i32 for i8 operands, got 'f32' for operands of 'i8'}}
  tile.gemm %a, %a, %c {transpose_b} : !tile.shared<64x128xi8>, !tile.shared<64x128xi8>, !tile.fragment<64x64xf32>
}

// -----

// ... and float ones in f32.
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xi32>
  // expected-error @+1 {{gemm_c4: the accumulator must be f32, or i32 for i8 operands, got 'i32' for operands of 'f16'}}
  tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xi32>
}

// -----

// i8 operands are 8-bit: K-major, A in shared memory.
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64x128xi8>
  %b = tile.alloc_shared : !tile.shared<64x128xi8>
  %c = tile.alloc_fragment : !tile.fragment<64x64xi32>
  // expected-error @+1 {{gemm_c6: 8-bit A and B are read K-major: A a shared tile without transpose_a, B a shared tile with transpose_b (N x K)}}
  tile.gemm %a, %b, %c {transpose_b} : !tile.fragment<64x128xi8>, !tile.shared<64x128xi8>, !tile.fragment<64x64xi32>
}

// -----

// Other integers have no tensor-core product here.
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xi16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xi32>
  // expected-error @+1 {{gemm_c3: A and B must have one element type, f16, bf16, f8E4M3FN, f8E5M2 or i8, got 'i16' and 'i16'}}
  tile.gemm %a, %a, %c {transpose_b} : !tile.shared<64x64xi16>, !tile.shared<64x64xi16>, !tile.fragment<64x64xi32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{gemm_c5: in_flight, but the gemm is not directly in a tile.pipelined body}}
  tile.gemm %a, %a, %c {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.fill %f, 1.0 : !tile.fragment<64x64xf16>
    tile.copy %f -> %a : !tile.fragment<64x64xf16> -> !tile.shared<64x64xf16>
    // expected-error @+1 {{gemm_c5: in_flight, but 'tile.copy' writes A in the loop body, which the next iteration would do while the gemm still reads it}}
    tile.gemm %a, %a, %c {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{mma_wait_c1: pending must not be negative, got -1}}
  tile.mma_wait -1, %c : !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c = tile.alloc_fragment : !tile.fragment<64x64xf16>
  // expected-error @+1 {{mma_wait_c2: accumulator #0 must be an f32 or i32 fragment, got '!tile.fragment<64x64xf16>'}}
  tile.mma_wait 0, %c : !tile.fragment<64x64xf16>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %d = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{mma_wait_c2: accumulator #2 is listed twice}}
  tile.mma_wait 0, %c, %d, %c : !tile.fragment<64x64xf32>, !tile.fragment<64x64xf32>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %s = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %d = tile.alloc_fragment : !tile.fragment<64xf16>
  // expected-error @+1 {{reduce_c1: source and dest element types differ ('f32' vs 'f16')}}
  tile.reduce sum %s -> %d {dim = 1 : i64} : !tile.fragment<64x64xf32> -> !tile.fragment<64xf16>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %s = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %d = tile.alloc_fragment : !tile.fragment<64xf32>
  // expected-error @+1 {{reduce_c2: dim 2 is not a dimension of the rank-2 source}}
  tile.reduce sum %s -> %d {dim = 2 : i64} : !tile.fragment<64x64xf32> -> !tile.fragment<64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %s = tile.alloc_fragment : !tile.fragment<64x32xf32>
  %d = tile.alloc_fragment : !tile.fragment<32xf32>
  // expected-error @+1 {{reduce_c2: dest must have shape 64 (the source without dim 1), got '!tile.fragment<32xf32>'}}
  tile.reduce max %s -> %d {dim = 1 : i64} : !tile.fragment<64x32xf32> -> !tile.fragment<32xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %b = tile.alloc_fragment : !tile.fragment<64x32xf32>
  // expected-error @+1 {{parallel_c1: all outputs must have the shape of the first}}
  tile.parallel outs(%a, %b : !tile.fragment<64x64xf32>, !tile.fragment<64x32xf32>) attributes {indexing_maps = [
      affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32, %y: f32):
    tile.yield %x, %y : f32, f32
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{parallel_c2: expected 2 indexing maps (one per operand), got 1}}
  tile.parallel ins(%a : !tile.fragment<64x64xf32>) outs(%a : !tile.fragment<64x64xf32>) attributes {indexing_maps = [
      affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32, %y: f32):
    tile.yield %x : f32
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %v = tile.alloc_fragment : !tile.fragment<64xf32>
  // expected-error @+1 {{parallel_c2: indexing map #0 must map the 2-d iteration space to the 1 indices of its operand, got affine_map<(d0, d1) -> (d0, d1)>}}
  tile.parallel ins(%v : !tile.fragment<64xf32>) outs(%a : !tile.fragment<64x64xf32>) attributes {indexing_maps = [
      affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32, %y: f32):
    tile.yield %x : f32
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{parallel_c2: the map of output #0 must be the identity, got affine_map<(d0, d1) -> (d1, d0)>}}
  tile.parallel outs(%a : !tile.fragment<64x64xf32>) attributes {indexing_maps = [
      affine_map<(i, j) -> (j, i)>]} {
  ^bb0(%y: f32):
    tile.yield %y : f32
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{parallel_c3: body argument #0 must have the element type 'f32'}}
  tile.parallel outs(%a : !tile.fragment<64x64xf32>) attributes {indexing_maps = [
      affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%y: f16):
    %e = arith.extf %y : f16 to f32
    tile.yield %e : f32
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{parallel_c3: the body takes 1 element arguments (inputs then outputs), got 2}}
  tile.parallel outs(%a : !tile.fragment<64x64xf32>) attributes {indexing_maps = [
      affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%y: f32, %z: f32):
    tile.yield %y : f32
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{parallel_c3: the body must yield 1 values (one per output), got 0}}
  tile.parallel outs(%a : !tile.fragment<64x64xf32>) attributes {indexing_maps = [
      affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%y: f32):
    tile.yield
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{parallel_c3: yielded value #0 has type 'f16', expected 'f32'}}
  tile.parallel outs(%a : !tile.fragment<64x64xf32>) attributes {indexing_maps = [
      affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%y: f32):
    %t = arith.truncf %y : f32 to f16
    tile.yield %t : f16
  }
}

// -----

// expected-error @+1 {{tile dimensions must be positive, got 0}}
func.func private @f(!tile.shared<0x64xf16>)

// -----

// expected-error @+1 {{a tile has rank 1 to 3, got rank 4}}
func.func private @f(!tile.fragment<2x2x2x2xf32>)

// -----

// Sizes stay far from overflowing: at most 2^24 elements.
// expected-error @+1 {{a tile has at most 16777216 elements}}
func.func private @f(!tile.fragment<4x65536x65536xf32>)

// -----

// expected-error @+1 {{a tile has at most 16777216 elements}}
func.func private @f(!tile.shared<4294967296x4294967296x4294967296xf16>)

// -----

// expected-error @+1 {{tile elements must be integers or floats, got 'index'}}
func.func private @f(!tile.fragment<2x2xindex>)

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.parallel outs(%a : !tile.fragment<64x64xf32>) attributes {indexing_maps = [
      affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%y: f32):
    // expected-error @+1 {{index_c1: dim 2 is not a dimension of the 2-d iteration space}}
    %i = tile.index 2
    tile.yield %y : f32
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{'tile.index' op expects parent op 'tile.parallel'}}
  %i = tile.index 0
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{alloc_c2: #tile.mma<warpgroups = 1> lays out 2-d fragments with 1 to 8 warpgroups, not rank 1}}
  %a = tile.alloc_fragment {layout = #tile.mma<warpgroups = 1>} : !tile.fragment<64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{alloc_c2: #tile.blocked<vector = 4, lanes = [32], warps = [4]> needs a positive vector and one positive lane and warp count per dimension of a 1-d or 2-d fragment (rank 2)}}
  %a = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [32], warps = [4]>} : !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{alloc_c2: the lanes of #tile.blocked<vector = 4, lanes = [4, 4], warps = [4, 1]> multiply to 16, not 32}}
  %a = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4, 4], warps = [4, 1]>} : !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{alloc_c2: #tile.slice<dim = 3, parent = #tile.mma<warpgroups = 1>> removes dimension 3 of a rank-2 parent}}
  %a = tile.alloc_fragment {layout = #tile.slice<dim = 3, parent = #tile.mma<warpgroups = 1>>} : !tile.fragment<64xf32>
}

// -----

// Lane, warp and run counts are bounded before the verifier multiplies them
// (2^62 lanes times 8 would overflow).
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{alloc_c2: #tile.blocked<vector = 4, lanes = [4611686018427387904, 8], warps = [4, 1]> has more than 32 lanes or 32 warps along a dimension, or a run longer than 16777216 elements}}
  %a = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [4611686018427387904, 8], warps = [4, 1]>} : !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{alloc_c2: #tile.mma<warpgroups = 9223372036854775807> lays out 2-d fragments with 1 to 8 warpgroups, not rank 2}}
  %a = tile.alloc_fragment {layout = #tile.mma<warpgroups = 9223372036854775807>} : !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{alloc_c2: 42 : i64 is not a fragment layout (#tile.mma, #tile.blocked or #tile.slice)}}
  %a = tile.alloc_fragment {layout = 42} : !tile.fragment<64xf32>
}

// -----

// expected-error @+1 {{kernel_c5: min_blocks_per_sm (0) must be at least 1}}
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 attributes {min_blocks_per_sm = 0 : i64} {
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{print_c1: 'memref<?xf16>' is not printed; fragments of floats and integer, index or float scalars are}}
  tile.print "A" %A : memref<?xf16>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %s = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-error @+1 {{print_c1: '!tile.shared<64x64xf16>' is not printed}}
  tile.print "s" %s : !tile.shared<64x64xf16>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64xf32>
  // expected-error @+1 {{print_c2: `block` has 4 coordinates; it has one to three}}
  tile.print "a" %a {block = array<i64: 0, 0, 0, 0>} : !tile.fragment<64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64xf32>
  // expected-error @+1 {{print_c2: `block` coordinates must not be negative}}
  tile.print "a" %a {block = array<i64: 0, -1>} : !tile.fragment<64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64xf32>
  // expected-error @+1 {{print_c2: `thread` (128) must be below the kernel's 128 threads}}
  tile.print "a" %a {thread = 128} : !tile.fragment<64xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<64xf32>
  // expected-error @+1 {{print_c2: `thread` (-1) must not be negative}}
  tile.print "a" %a {thread = -1} : !tile.fragment<64xf32>
}

// -----

// The body runs in every thread of the block: a write of another dialect
// would happen once per thread.
tile.kernel @atomic(%X: memref<?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{kernel_c10: writes memory in a tile.kernel, where it would run once per thread of every block; write through tile operations (tile.copy, or tile.atomic to combine)}}
  %old = memref.atomic_rmw addf %one, %X[%c0] : (f32, memref<?xf32>) -> f32
}

// -----

tile.kernel @store(%X: memref<?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{kernel_c10: writes memory in a tile.kernel}}
  memref.store %one, %X[%c0] : memref<?xf32>
}

// -----

// Also inside a branch.
tile.kernel @store_in_if(%X: memref<?xf32>, %n: i32) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  %p = arith.cmpi eq, %n, %c0_i32 : i32
  scf.if %p {
    // expected-error @+1 {{kernel_c10: writes memory in a tile.kernel}}
    memref.store %one, %X[%c0] : memref<?xf32>
  }
}

// -----

// expected-error @+1 {{kernel_c4: argument #0 must be a memref of integers, floats or index, got 'memref<?xvector<4xf16>>'}}
tile.kernel @vector_elements(%X: memref<?xvector<4xf16>>) grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c3: threads (2048) must be a positive multiple of the warp size (32), at most 1024}}
tile.kernel @too_many_threads(%X: memref<?xf32>) grid [1] threads 2048 {
}

// -----

tile.kernel @copy_index(%A: memref<?x?xindex>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_fragment : !tile.fragment<16x128xf32>
  // expected-error @+1 {{copy_c7: the memref holds index, whose width in memory the target decides; copy integers or floats (i64 for an index)}}
  tile.copy %A[%c0, %c0] -> %a : memref<?x?xindex> -> !tile.fragment<16x128xf32>
}

// -----

tile.kernel @k(%C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{atomic_c1: 1 offset(s) for a rank-2 memref; give one per dimension}}
  tile.atomic add %x -> %C[%c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

tile.kernel @k(%C: memref<?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{atomic_c1: a rank-2 fragment cannot span a rank-1 memref}}
  tile.atomic add %x -> %C[%c0] : !tile.fragment<64x64xf32> -> memref<?xf32>
}

// -----

tile.kernel @k(%C: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{atomic_c2: max cannot combine into 'f16' memory; max takes f32 or i32 (combine in f32 and convert after)}}
  tile.atomic max %x -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf16>
}

// -----

tile.kernel @k(%C: memref<?x?xf64>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{atomic_c2: add cannot combine into 'f64' memory; add takes f32, f16, bf16 or i32}}
  tile.atomic add %x -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf64>
}

// -----

tile.kernel @k(%C: memref<?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  // expected-error @+1 {{atomic_c2: a scalar of 'i32' cannot combine into 'f32' memory; expected the memref's element type}}
  tile.atomic add %one -> %C[%c0] : i32 -> memref<?xf32>
}

// -----

tile.kernel @k(%C: memref<?xi32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<64xf32>
  // expected-error @+1 {{atomic_c2: a fragment of 'f32' cannot combine into 'i32' memory; expected the memref's element type}}
  tile.atomic add %x -> %C[%c0] : !tile.fragment<64xf32> -> memref<?xi32>
}

// -----

tile.kernel @k(%C: memref<?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<4xf32>
  // expected-error @+1 {{atomic_c1: the value is 'memref<4xf32>'; expected a fragment or a scalar}}
  tile.atomic add %m -> %C[%c0] : memref<4xf32> -> memref<?xf32>
}

// -----

tile.kernel @k(%C: memref<?xf32>) grid [1] threads 128 {
  %x = tile.alloc_fragment : !tile.fragment<64xf32>
  // expected-error @+1 {{reduction_c1: the result is 'f16'; it must be the source's element type 'f32'}}
  %s = tile.reduction sum %x : !tile.fragment<64xf32> -> f16
}

// -----

tile.kernel @k(%C: memref<?xf32>) grid [1] threads 128 {
  %x = tile.alloc_fragment : !tile.fragment<64xi32>
  // expected-error @+1 {{reduction_c1: only float fragments are reduced, got 'i32'}}
  %s = tile.reduction sum %x : !tile.fragment<64xi32> -> i32
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %acc = tile.alloc_fragment : !tile.fragment<64x128xf32>
  %row = tile.alloc_fragment : !tile.fragment<64xf32>
  // expected-error @+1 {{parallel_c2: input #0 has rank 1 in a 2-d iteration space; give the dimensions it is read at (`[1]` for (i, j) -> (j))}}
  tile.parallel ins(%b = %row : !tile.fragment<64xf32>) outs(%o = %acc : !tile.fragment<64x128xf32>) {
    tile.yield %b : f32
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %acc = tile.alloc_fragment : !tile.fragment<64x128xf32>
  %row = tile.alloc_fragment : !tile.fragment<64xf32>
  // expected-error @+1 {{parallel_c2: input #0 is read at dimension 2 of a 2-d iteration space}}
  tile.parallel ins(%b = %row[2] : !tile.fragment<64xf32>) outs(%o = %acc : !tile.fragment<64x128xf32>) {
    tile.yield %b : f32
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %acc = tile.alloc_fragment : !tile.fragment<64x128xf32>
  // expected-error @+1 {{an output is read and written at the iteration's index: it takes no dimensions}}
  tile.parallel outs(%o = %acc[0] : !tile.fragment<64x128xf32>) {
    tile.yield %o : f32
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %acc = tile.alloc_fragment : !tile.fragment<64x128xf32>
  %row = tile.alloc_fragment : !tile.fragment<64xf32>
  // expected-error @+1 {{name the element of every operand (`%x = %tile`) or of none}}
  tile.parallel ins(%b = %row[0] : !tile.fragment<64xf32>) outs(%acc : !tile.fragment<64x128xf32>) {
    tile.yield %b : f32
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %acc = tile.alloc_fragment : !tile.fragment<64x128xf32>
  %row = tile.alloc_fragment : !tile.fragment<64xf32>
  // expected-error @+1 {{give the indexing maps either as dimensions beside the inputs or as `indexing_maps`, not both}}
  tile.parallel ins(%b = %row[0] : !tile.fragment<64xf32>) outs(%o = %acc : !tile.fragment<64x128xf32>) attributes {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>]} {
    tile.yield %b : f32
  }
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %i = tile.alloc_fragment : !tile.fragment<128xi32>
  // expected-error @+1 {{fill_c1: the literal 2.500000e+00 : f64 cannot fill a tile of 'i32'}}
  tile.fill %i, 2.5 : !tile.fragment<128xi32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<128xf32>
  // expected-error @+1 {{expected a value: an SSA value, a number, inf, -inf or nan}}
  tile.fill %a, zero : !tile.fragment<128xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<128xf32>
  // expected-error @+1 {{fill_c1: give the value as an operand or as a literal, once}}
  "tile.fill"(%a) : (!tile.fragment<128xf32>) -> ()
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{tile.parallel's operands are tiles; got 'f32'}}
  tile.parallel outs(%o = %a : f32) {
    tile.yield %o : f32
  }
  return
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %i = tile.alloc_fragment : !tile.fragment<128xi32>
  // expected-error @+1 {{fill_c1: the literal 5000000000 does not fit in 'i32'}}
  tile.fill %i, 5000000000 : !tile.fragment<128xi32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<128xf32>
  // expected-error @+1 {{a hexadecimal literal does not fill a tile; write the number, inf, -inf or nan}}
  tile.fill %a, 0xFF800000 : !tile.fragment<128xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<128xf32>
  // expected-error @+1 {{expected one sign before the number}}
  tile.fill %a, - -5 : !tile.fragment<128xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %a = tile.alloc_fragment : !tile.fragment<128xf16>
  // expected-error @+1 {{fill_c1: the integer 16777217 is not exactly a value of 'f16'; write a float literal (a decimal, inf, -inf or nan)}}
  tile.fill %a, 16777217 : !tile.fragment<128xf16>
}

// -----

// Literals beyond their type's range would silently become infinities or
// wrap; they are refused at the fill.
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %h = tile.alloc_fragment : !tile.fragment<128xf16>
  // expected-error @+1 {{fill_c1: the literal 6.553600e+04 is beyond the range of 'f16'; write inf or -inf for an infinity}}
  tile.fill %h, 65536.0 : !tile.fragment<128xf16>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %h = tile.alloc_fragment : !tile.fragment<128xf16>
  // expected-error @+1 {{fill_c1: the literal -1.000000e+300 is beyond the range of 'f16'}}
  tile.fill %h, -1.0e300 : !tile.fragment<128xf16>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %b = tile.alloc_fragment : !tile.fragment<128xbf16>
  // expected-error @+1 {{fill_c1: the literal 1.000000e+39 is beyond the range of 'bf16'}}
  tile.fill %b, 1.0e39 : !tile.fragment<128xbf16>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %f = tile.alloc_fragment : !tile.fragment<128xf32>
  // expected-error @+1 {{fill_c1: the literal 1.000000e+39 is beyond the range of 'f32'}}
  tile.fill %f, 1.0e39 : !tile.fragment<128xf32>
}

// -----

tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %i = tile.alloc_fragment : !tile.fragment<128xi32>
  // expected-error @+1 {{fill_c1: the literal 2147483648 does not fit in 'i32' (signed, [-2147483648, 2147483647])}}
  tile.fill %i, 2147483648 : !tile.fragment<128xi32>
}

// -----

// The largest finite values and the spelled infinities still fill.
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %h = tile.alloc_fragment : !tile.fragment<128xf16>
  %i = tile.alloc_fragment : !tile.fragment<128xi32>
  tile.fill %h, 65504.0 : !tile.fragment<128xf16>
  tile.fill %h, -inf : !tile.fragment<128xf16>
  tile.fill %i, -2147483648 : !tile.fragment<128xi32>
}

// -----

// Lanes combine through 32-bit shuffles: a 16-bit fragment is refused here,
// not inside NVVM's verifier.
tile.kernel @k(%C: memref<?xf32>) grid [1] threads 128 {
  %x = tile.alloc_fragment : !tile.fragment<64xf16>
  // expected-error @+1 {{reduction_c1: a fragment of 'f16' is not reduced; reduce an f32 fragment (copy or compute into one first)}}
  %s = tile.reduction sum %x : !tile.fragment<64xf16> -> f16
}

// -----

tile.kernel @k(%C: memref<?xf32>) grid [1] threads 128 {
  %x = tile.alloc_fragment : !tile.fragment<64xbf16>
  // expected-error @+1 {{reduction_c1: a fragment of 'bf16' is not reduced}}
  %s = tile.reduction max %x : !tile.fragment<64xbf16> -> bf16
}

// -----

// An element-wise body is per element: an atomic there has no lowering.
tile.kernel @k(%S: memref<?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<64xf32>
  tile.parallel outs(%o = %x : !tile.fragment<64xf32>) {
    // expected-error @+1 {{atomic_c3: inside a tile.parallel body; combine a fragment with one tile.atomic after the loop (compute its elements in the body)}}
    tile.atomic add %o -> %S[%c0] : f32 -> memref<?xf32>
    tile.yield %o : f32
  }
}

// -----

// Copies convert between floats only; integers and floats do not mix.
tile.kernel @k(%X: memref<?x?xi64>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{copy_c8: a copy converts between float types only; got 'i64' into 'f32' (convert integers in a tile.parallel body)}}
  tile.copy %X[%c0, %c0] -> %f : memref<?x?xi64> -> !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%X: memref<?x?xi8>) grid [1] threads 128 {
  %s = tile.alloc_shared : !tile.shared<64x64xi8>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf16>
  // expected-error @+1 {{copy_c8: a copy converts between float types only; got 'i8' into 'f16'}}
  tile.copy %s -> %f : !tile.shared<64x64xi8> -> !tile.fragment<64x64xf16>
}

// -----

// Bounds clip copies between global memory and fragments, one per memref
// dimension.
tile.kernel @k(%X: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-error @+1 {{copy_c10: bounds clip copies between global memory and a fragment (not through a shared tile)}}
  tile.copy %X[%c0, %c0] -> %s bounds [%c0, %c0] : memref<?x?xf16> -> !tile.shared<64x64xf16>
}

// -----

tile.kernel @k(%X: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{copy_c10: 1 bounds for a memref of rank 2; give one per dimension}}
  tile.copy %X[%c0, %c0] -> %f bounds [%c0] : memref<?x?xf16> -> !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%X: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %s = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-error @+1 {{copy_c10: bounds clip copies between global memory and a fragment (not through a shared tile)}}
  tile.copy %f -> %X[%c0, %c0] bounds [%c0, %c0] through %s : !tile.fragment<64x64xf32> -> memref<?x?xf16> through !tile.shared<64x64xf16>
}

// -----

// `true` and `false` name the warp-specialisation flag too.
tile.kernel @k(%A: memref<?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.pipelined %i = %c0 to %c0 step %c1 num_stages 2 warp_specialize true {
  }
  tile.pipelined %j = %c0 to %c0 step %c1 num_stages 2 warp_specialize false {
  }
}

// -----

// A 1-d fragment is read from a row of a 2-d shared tile, named by the
// offsets (copy_c11).
tile.kernel @k() grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<1x512xf16>
  %f = tile.alloc_fragment : !tile.fragment<512xf32>
  // expected-error @+1 {{copy_c11: a 1-d fragment is read from a row of a 2-d shared tile: give the row and the first column (`%s[%row, %col]`)}}
  tile.copy %a -> %f : !tile.shared<1x512xf16> -> !tile.fragment<512xf32>
}

// -----

tile.kernel @k() grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<2x256xf16>
  %f = tile.alloc_fragment : !tile.fragment<512xf32>
  // expected-error @+1 {{copy_c11: the fragment '!tile.fragment<512xf32>' is longer than a row of the shared tile '!tile.shared<2x256xf16>'}}
  tile.copy %a[%c0, %c0] -> %f : !tile.shared<2x256xf16> -> !tile.fragment<512xf32>
}

// -----

// Only a read: a 1-d fragment is not written into a row (copy_c2).
tile.kernel @k() grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<1x512xf16>
  %f = tile.alloc_fragment : !tile.fragment<512xf32>
  // expected-error @+1 {{copy_c2: a tile of rank 1 cannot be copied to or from a tile of rank 2; tiles must have the same rank}}
  tile.copy %f -> %a[%c0, %c0] : !tile.fragment<512xf32> -> !tile.shared<1x512xf16>
}

// -----

tile.kernel @arrive_rank(%N: memref<?x?xi32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{arrive_c1: 1 offset(s) for a rank-2 memref; give one per dimension}}
  %last = tile.arrive %N[%c0] count %c2 : memref<?x?xi32>
}

// -----

tile.kernel @arrive_f32(%N: memref<?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'tile.arrive' op operand #0 must be memref of 32-bit signless integer values}}
  %last = tile.arrive %N[%c0] count %c2 : memref<?xf32>
}

// -----

// A block arrives once: in a loop body it would count each iteration.
tile.kernel @arrive_in_loop(%A: memref<?x?xf16>, %N: memref<?xi32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    // expected-error @+1 {{arrive_c2: inside a tile.pipelined body; a block arrives once, after the loop}}
    %last = tile.arrive %N[%c0] count %c4 : memref<?xi32>
  }
}

// -----

tile.kernel @arrive_in_parallel(%N: memref<?xi32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %x = tile.alloc_fragment : !tile.fragment<64xf32>
  tile.parallel outs(%o = %x : !tile.fragment<64xf32>) {
    // expected-error @+1 {{arrive_c2: inside a tile.parallel body; a block arrives once, after the loop}}
    %last = tile.arrive %N[%c0] count %c2 : memref<?xi32>
    tile.yield %o : f32
  }
}

// -----

tile.kernel @arrive_none(%N: memref<?xi32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{arrive_c3: count is 0; at least one block must arrive for one to be last}}
  %last = tile.arrive %N[%c0] count %c0 : memref<?xi32>
}

// -----

// expected-error @+1 {{kernel_c11: the cluster has 3 dimension(s); give 1 to 2, one per grid dimension from x}}
tile.kernel @k(%A: memref<?x?xf16>) grid [%A[1] / 64, %A[0] / 64] threads 128 cluster [2, 1, 1] {
}

// -----

// expected-error @+1 {{kernel_c11: cluster dimension 1 is 0; it must be at least 1}}
tile.kernel @k(%A: memref<?x?xf16>) grid [%A[1] / 64, %A[0] / 64] threads 128 cluster [2, 0] {
}

// -----

// expected-error @+1 {{kernel_c11: a cluster of 16 blocks; at most 8 (the portable cluster size)}}
tile.kernel @k(%A: memref<?x?xf16>) grid [%A[1] / 64, %A[0] / 64] threads 128 cluster [4, 4] {
}

// -----

tile.kernel @k(%X: memref<?x?xf32>) grid [4] threads 128 {
  %x = tile.alloc_fragment : !tile.fragment<4096xf32>
  // expected-error @+1 {{reduction_c2: across the cluster in kernel 'k', which is not launched in clusters; give it `cluster [...]` after its threads}}
  %m = tile.reduction max %x across cluster : !tile.fragment<4096xf32> -> f32
}

// -----

// A block-uniform branch may differ between the blocks of a cluster.
tile.kernel @k(%X: memref<?x?xf32>) grid [4] threads 128 cluster [4] {
  %x = tile.alloc_fragment : !tile.fragment<4096xf32>
  %bx = tile.block_id x
  %c1 = arith.constant 1 : index
  %odd = arith.cmpi eq, %bx, %c1 : index
  scf.if %odd {
    // expected-error @+1 {{reduction_c2: across the cluster inside 'scf.if'; every block of the cluster must reach it: reduce in the kernel's body}}
    %m = tile.reduction max %x across cluster : !tile.fragment<4096xf32> -> f32
  }
}

// -----

// A multicast load fills a whole shared tile from global memory, in a
// kernel launched in clusters.
tile.kernel @k(%X: memref<?x?xf16>) grid [2] threads 128 cluster [2] {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{copy_c12: `multicast` loads a whole shared tile from global memory}}
  tile.copy %X[%c0, %c0] -> %f multicast : memref<?x?xf16> -> !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k(%X: memref<?x?xf16>) grid [2] threads 128 {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-error @+1 {{copy_c12: `multicast` shares a load among the blocks of a thread-block cluster; the kernel is not launched in clusters}}
  tile.copy %X[%c0, %c0] -> %s multicast : memref<?x?xf16> -> !tile.shared<64x64xf16>
}

// -----

tile.kernel @k(%A: memref<?x?xf16>, %C: memref<?x?xf16>) grid [%C[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-note @+1 {{the tile}}
  %cs = tile.alloc_shared {after_loops} : !tile.shared<64x64xf16>
  // expected-note @+1 {{the last pipelined loop}}
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    // expected-error @+1 {{alloc_c4: uses a tile that lives after the kernel's pipelined loops (`after_loops`), before or inside the last of them}}
    tile.copy %A[%c0, %c0] -> %cs : memref<?x?xf16> -> !tile.shared<64x64xf16>
  }
}
