// Matrix-vector product, y = x . B[K,N] for one row x [1, K] (or, with
// TRANS_B, B as an N x K row-major weight: y = x . W^T, what x @ W.T
// computes), T in and out, fp32 accumulation. The shape of a decode step's
// GEMM (M = 1), where a tensor-core tile of 64 rows would be 63/64 padding
// and the time is that of reading B once.
//
// One block per BN outputs, each walking K BK at a time: B's BK x BN (or
// BN x BK) tile and x's next BK elements come through a STAGES-deep ring
// of shared memory, so several tiles are in flight per block while it
// computes on one. x's tile has 8 rows, the swizzle's period: the copy
// fills row 0 and reads zeros past x's single row, and the block reads
// row 0 into registers (1.01-1.07x loading x from global memory an
// iteration ahead, H100, docs/Performance.md step 31). Each thread keeps
// its products in a fragment of the tile's shape (no reduction inside the
// loop); the sum over K is one reduction after it. The copies past B and
// x read zeros, so K and N need not be multiples of the tile; the runtime
// requires 16-byte aligned rows of B (N, or K with TRANS_B, a multiple of
// 8 for 16-bit types) and 16-byte aligned row strides of x and y (a
// single row's stride is free: pass it rounded up).
//
// BN = 32 gives 128 blocks at N = 4096, about one per multiprocessor; a
// BK x BN tile's rows (without TRANS_B) take at least 64 elements, the
// shared memory's 128-byte swizzle.
tile.kernel @gemv(%X: memref<?x?x!tile.param<"T">>, %B: memref<?x?x!tile.param<"T">>,
                  %Y: memref<?x?x!tile.param<"T">>)
    params {BN = 32 in [16, 32, 64, 128], BK = 256 in [64, 128, 256, 512],
            STAGES = 4 in [2, 3, 4, 6, 8], THREADS = 256 in [128, 256, 512],
            MINB = 1 in [1, 2], TRANS_B = false, T = f16 in [f16, bf16]}
    grid [%Y[1] / BN] threads THREADS
    requires [%X[0] == 1, %Y[0] == 1,
              %B[0] * (1 - TRANS_B) + %B[1] * TRANS_B == %X[1],
              %Y[1] == %B[1] * (1 - TRANS_B) + %B[0] * TRANS_B]
    attributes {min_blocks_per_sm = #tile.param<"MINB">} {
  %c0 = tile.let 0
  %n0, %kt = tile.let block_id.x * BN, %X[1] ceildiv BK
  %eight, %bk = tile.let 8, BK
  %trans = tile.param "TRANS_B" : i1
  // B's tile is BK x BN, or BN x BK (K contiguous) with TRANS_B.
  %rows, %cols = tile.let TRANS_B ? BN : BK, TRANS_B ? BK : BN
  %bs = tile.alloc_shared [%rows, %cols] : !tile.shared<?x?x!tile.param<"T">>
  %xs = tile.alloc_shared [%eight, %bk] : !tile.shared<?x?x!tile.param<"T">>
  %b = tile.alloc_fragment [%rows, %cols] : !tile.fragment<?x?xf32>
  %acc = tile.alloc_fragment [%rows, %cols] : !tile.fragment<?x?xf32>
  %x = tile.alloc_fragment [BK] : !tile.fragment<?xf32>
  %y = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  tile.fill %acc, 0.0
  tile.pipelined %k to %kt num_stages STAGES {
    %k0 = tile.let %k * BK
    %b_i, %b_j = tile.let TRANS_B ? %n0 : %k0, TRANS_B ? %k0 : %n0
    tile.copy %B[%b_i, %b_j] -> %bs
    tile.copy %X[%c0, %k0] -> %xs
    tile.copy %bs -> %b
    tile.copy %xs[%c0, %c0] -> %x
    // x runs along the tile's K dimension: its columns, or its rows.
    scf.if %trans {
      tile.parallel ins(%xv = %x[1], %bv = %b) outs(%a = %acc) {
        math.fma %xv, %bv, %a : f32
      }
    } else {
      tile.parallel ins(%xv = %x[0], %bv = %b) outs(%a = %acc) {
        math.fma %xv, %bv, %a : f32
      }
    }
  }
  scf.if %trans {
    tile.reduce sum %acc -> %y {dim = 1 : i64, clear}
  } else {
    tile.reduce sum %acc -> %y {dim = 0 : i64, clear}
  }
  tile.copy %y -> %Y[%c0, %n0]
}

tile.instance @gemv_f16 = @gemv {BN = 64}
tile.instance @gemv_bf16 = @gemv {BN = 64, T = bf16}
tile.instance @gemv_nt_f16 = @gemv {TRANS_B = true}
tile.instance @gemv_nt_bf16 = @gemv {TRANS_B = true, T = bf16}

// The same product with K split over SPLIT blocks (the grid's y), for
// outputs too narrow to fill the GPU: a row-major B takes 64-column tiles
// at least (the swizzle), 64 blocks at N = 4096 for 132 SMs. Each block
// writes its f32 partial of y into row y of the workspace W (SPLIT x N
// floats) and arrives at its column's counter in Count (one i32 per BN
// outputs, zero before the first launch; every launch leaves it zero);
// the last block to arrive adds the partials in the order of the split
// and writes y once, in T (gemm_splitk_reduce.mlir's combination).
tile.kernel @gemv_splitk(%X: memref<?x?x!tile.param<"T">>, %B: memref<?x?x!tile.param<"T">>,
                         %Y: memref<?x?x!tile.param<"T">>, %W: memref<?x?xf32>,
                         %Count: memref<?xi32>)
    params {BN = 64 in [16, 32, 64, 128], BK = 128 in [64, 128, 256, 512],
            STAGES = 4 in [2, 3, 4, 6, 8], THREADS = 256 in [128, 256, 512],
            SPLIT = 2 in [1, 2, 3, 4, 6, 8], TRANS_B = false, T = f16 in [f16, bf16]}
    grid [%Y[1] / BN, SPLIT] threads THREADS
    requires [%X[0] == 1, %Y[0] == 1,
              %B[0] * (1 - TRANS_B) + %B[1] * TRANS_B == %X[1],
              %Y[1] == %B[1] * (1 - TRANS_B) + %B[0] * TRANS_B,
              %W[0] == SPLIT, %W[1] == %Y[1], %Count[0] >= %Y[1] ceildiv BN] {
  %c0, %c1, %split = tile.let 0, 1, SPLIT
  %n0, %bz, %t = tile.let block_id.x * BN, block_id.y, block_id.x
  // This block's k tiles: [lo, hi), empty when SPLIT exceeds the tiles.
  %kt = tile.let %X[1] ceildiv BK
  %per = tile.let %kt ceildiv SPLIT
  %lo = tile.let min(%bz * %per, %kt)
  %hi = tile.let min(%lo + %per, %kt)
  %eight, %bk = tile.let 8, BK
  %trans = tile.param "TRANS_B" : i1
  %rows, %cols = tile.let TRANS_B ? BN : BK, TRANS_B ? BK : BN
  %bs = tile.alloc_shared [%rows, %cols] : !tile.shared<?x?x!tile.param<"T">>
  %xs = tile.alloc_shared [%eight, %bk] : !tile.shared<?x?x!tile.param<"T">>
  %b = tile.alloc_fragment [%rows, %cols] : !tile.fragment<?x?xf32>
  %acc = tile.alloc_fragment [%rows, %cols] : !tile.fragment<?x?xf32>
  %x = tile.alloc_fragment [BK] : !tile.fragment<?xf32>
  %y = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  %part = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  tile.fill %acc, 0.0
  tile.pipelined %k = %lo to %hi step %c1 num_stages STAGES {
    %k0 = tile.let %k * BK
    %b_i, %b_j = tile.let TRANS_B ? %n0 : %k0, TRANS_B ? %k0 : %n0
    tile.copy %B[%b_i, %b_j] -> %bs
    tile.copy %X[%c0, %k0] -> %xs
    tile.copy %bs -> %b
    tile.copy %xs[%c0, %c0] -> %x
    scf.if %trans {
      tile.parallel ins(%xv = %x[1], %bv = %b) outs(%a = %acc) {
        math.fma %xv, %bv, %a : f32
      }
    } else {
      tile.parallel ins(%xv = %x[0], %bv = %b) outs(%a = %acc) {
        math.fma %xv, %bv, %a : f32
      }
    }
  }
  scf.if %trans {
    tile.reduce sum %acc -> %y {dim = 1 : i64, clear}
  } else {
    tile.reduce sum %acc -> %y {dim = 0 : i64, clear}
  }
  tile.copy %y -> %W[%bz, %n0]
  %last = tile.arrive %Count[%t] count %split
  scf.if %last {
    tile.fill %y, 0.0
    scf.for %z = %c0 to %split step %c1 {
      tile.copy %W[%z, %n0] -> %part
      tile.parallel ins(%p = %part) outs(%v = %y) { arith.addf %v, %p : f32 }
    }
    tile.copy %y -> %Y[%c0, %n0]
  }
}

tile.instance @gemv_splitk_f16 = @gemv_splitk {}
tile.instance @gemv_splitk_bf16 = @gemv_splitk {T = bf16, SPLIT = 3}
tile.instance @gemv_splitk_nt_f16 = @gemv_splitk {TRANS_B = true, BN = 32, BK = 256, SPLIT = 4}
