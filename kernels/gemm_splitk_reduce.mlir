// Split-K GEMM combined inside the kernel, C[M,N] = A[M,K] . B[K,N] in T:
// the k tiles of each BM x BN tile of C are split over SPLIT blocks (the
// grid's z). Each block writes its f32 partial tile into the workspace
// W[z] and arrives at its tile's counter (tile.arrive); the block that
// arrives last adds the SPLIT partials, in the order of z, and writes the
// tile of C once, in T. So a GEMM with few output tiles (the decode and
// small-batch shapes: 16 x 4096 x 4096 has 64 tiles of 64 x 64 for 132
// SMs) fills the GPU without atomics on C, without zeroing C first and
// without a cast after, and its result is the same on every run (the sum's
// order does not depend on which block came last).
//
// W holds SPLIT x M x N floats, Count one i32 per tile of C (N / BN tiles
// a row), zero before the first launch; every launch leaves it zero.
// TRANS_B takes B as N x K (x . W^T for nn.Linear's weight), read in
// place. SPLIT = 1 is a plain GEMM (its tile of C goes through W).
tile.kernel @gemm_splitk_reduce(%A: memref<?x?x!tile.param<"T">>,
                                %B: memref<?x?x!tile.param<"T">>,
                                %C: memref<?x?x!tile.param<"T">>,
                                %W: memref<?x?x?xf32>, %Count: memref<?xi32>)
    params {BM = 64 in [64, 128], BN = 64 in [64, 128, 256], BK = 128 in [64, 128],
            STAGES = 6 in [2, 3, 4, 5, 6], THREADS = 128 in [128, 256],
            SPLIT = 2 in [1, 2, 3, 4, 6, 8], TRANS_B = false, T = f16 in [f16, bf16]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%C[1] / BN, %C[0] / BM, SPLIT] threads THREADS
    requires [%B[0] * (1 - TRANS_B) + %B[1] * TRANS_B == %A[1], %C[0] == %A[0],
              %C[1] == %B[1] * (1 - TRANS_B) + %B[0] * TRANS_B,
              %W[0] == SPLIT, %W[1] == %C[0], %W[2] == %C[1],
              %Count[0] >= (%C[0] ceildiv BM) * (%C[1] ceildiv BN)] {
  %c0, %c1, %split = tile.let 0, 1, SPLIT
  %bz, %m0, %n0 = tile.let block_id.z, block_id.y * BM, block_id.x * BN
  %t = tile.let block_id.y * (%C[1] ceildiv BN) + block_id.x
  // This block's k tiles: [lo, hi), empty when SPLIT exceeds the tiles.
  %kt = tile.let %A[1] ceildiv BK
  %per = tile.let %kt ceildiv SPLIT
  %lo = tile.let min(%bz * %per, %kt)
  %hi = tile.let min(%lo + %per, %kt)
  %b_rows, %b_cols = tile.let TRANS_B ? BN : BK, TRANS_B ? BK : BN
  %a = tile.alloc_shared [BM, BK] : !tile.shared<?x?x!tile.param<"T">>
  %b = tile.alloc_shared [%b_rows, %b_cols] : !tile.shared<?x?x!tile.param<"T">>
  %acc = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  %part = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  tile.fill %acc, 0.0
  tile.pipelined %k = %lo to %hi step %c1 num_stages STAGES {
    %k0 = tile.let %k * BK
    %b_i, %b_j = tile.let TRANS_B ? %n0 : %k0, TRANS_B ? %k0 : %n0
    tile.copy %A[%m0, %k0] -> %a
    tile.copy %B[%b_i, %b_j] -> %b
    tile.gemm %a, %b, %acc {transpose_b = #tile.param<"TRANS_B">}
  }
  tile.copy %acc -> %W[%bz, %m0, %n0]
  %last = tile.arrive %Count[%t] count %split
  scf.if %last {
    tile.fill %acc, 0.0
    scf.for %s = %c0 to %split step %c1 {
      tile.copy %W[%s, %m0, %n0] -> %part
      tile.parallel ins(%p = %part) outs(%v = %acc) {
        arith.addf %v, %p : f32
      }
    }
    tile.copy %acc -> %C[%m0, %n0]
  }
}

tile.instance @gemm_splitk_reduce_f16 = @gemm_splitk_reduce {}
tile.instance @gemm_splitk_reduce_bf16 = @gemm_splitk_reduce {T = bf16, SPLIT = 3}
tile.instance @gemm_splitk_reduce_nt_f16 = @gemm_splitk_reduce {TRANS_B = true}
tile.instance @gemm_splitk_reduce4_f16 = @gemm_splitk_reduce {SPLIT = 4, BN = 128, STAGES = 4}
tile.instance @gemm_splitk_reduce1_f16 = @gemm_splitk_reduce {SPLIT = 1, BM = 128, THREADS = 256, BK = 64, STAGES = 4}
