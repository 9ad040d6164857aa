// Split-K GEMM, C[M,N] += A[M,K] . B[K,N] in f32: the K loop of each
// BM x BN tile of C is split over SPLIT blocks (the grid's z), each of
// which walks its share of the BK-wide k tiles through a STAGES-deep
// pipeline of TMA loads and adds its partial tile into C with tile.atomic
// (one red.global.add.f32 per element). A problem with few output tiles
// (M <= 128: one row of tiles) then still fills the GPU. The caller zeroes
// C first; the order in which the blocks add is unspecified, so C may
// differ in its last bits from run to run. SPLIT = 1 is a plain GEMM into
// a zeroed C. T is the inputs' type.
tile.kernel @gemm_splitk(%A: memref<?x?x!tile.param<"T">>,
                         %B: memref<?x?x!tile.param<"T">>,
                         %C: memref<?x?xf32>)
    params {BM = 128 in [64, 128], BN = 64 in [64, 128, 256], BK = 64 in [64, 128],
            STAGES = 4 in [2, 3, 4, 5], THREADS = 128 in [128, 256],
            SPLIT = 4 in [1, 2, 3, 4, 6, 8], T = f16 in [f16, bf16]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%C[1] / BN, %C[0] / BM, SPLIT] threads THREADS
    requires [%B[0] == %A[1], %C[0] == %A[0], %C[1] == %B[1]] {
  %c1, %bm, %bn, %bk = tile.let 1, BM, BN, BK
  %bz, %m0, %n0 = tile.let block_id.z, block_id.y * BM, block_id.x * BN
  // This block's k tiles: [lo, hi), empty when SPLIT exceeds the tiles.
  %kt = tile.let %A[1] ceildiv BK
  %per = tile.let %kt ceildiv SPLIT
  %lo = tile.let min(%bz * %per, %kt)
  %hi = tile.let min(%lo + %per, %kt)
  %a = tile.alloc_shared [%bm, %bk] : !tile.shared<?x?x!tile.param<"T">>
  %b = tile.alloc_shared [%bk, %bn] : !tile.shared<?x?x!tile.param<"T">>
  %acc = tile.alloc_fragment [%bm, %bn] : !tile.fragment<?x?xf32>
  tile.fill %acc, 0.0
  tile.pipelined %k = %lo to %hi step %c1 num_stages STAGES {
    %k0 = arith.muli %k, %bk : index
    tile.copy %A[%m0, %k0] -> %a
    tile.copy %B[%k0, %n0] -> %b
    tile.gemm %a, %b, %acc
  }
  tile.atomic add %acc -> %C[%m0, %n0]
}

tile.instance @gemm_splitk_f16 = @gemm_splitk {}
tile.instance @gemm_splitk_bf16 = @gemm_splitk {T = bf16, SPLIT = 3}
tile.instance @gemm_splitk1_f16 = @gemm_splitk {SPLIT = 1, BN = 128, THREADS = 256}
tile.instance @gemm_splitk8_f16 = @gemm_splitk {SPLIT = 8, BM = 64, STAGES = 3}
