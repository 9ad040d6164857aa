// Weight-only int8 GEMM for a few rows of activations (W8A16 at M = 2-64,
// decode steps and small batches): Y^T[N, M] = (Q[N, K] * s[N]) . X[M, K]^T,
// activations X of type T (f16 or bf16), int8 weights Q kept as nn.Linear
// keeps its weight ([out_features, in_features]), one f32 scale per output
// channel. The output is Y transposed, row-major [N, M]: `yt.t()` is Y as a
// column-major view, no copy.
//
// The operands swap places (C^T = B^T . A^T): BN = 64 weight rows fill the
// tensor cores' 64-row M side, the few activation rows their N side (BM =
// 16 at M <= 16: wgmma's m64n16k16). gemm_w8a16.mlir puts X on the M side
// instead, 64 rows of which M = 16 uses a quarter, and converts each
// weight tile through a second shared tile. Here the int8 tiles arrive by
// TMA through the ring with X's; each iteration reads its stage of Q into
// registers in the accumulator's layout (#tile.mma, which the A operand
// takes), converts them there (exact: every int8 is a T), and the
// converted fragment is wgmma's A operand straight from registers. The scales apply once, to the
// accumulator. Rows of Q and X are 16-byte aligned (TMA): K a multiple of
// 16; M and N need not be multiples of the tiles.
//
// H100, against torch's fp16 x @ W.T on the dequantised weights (docs/
// Performance.md steps 34 and 35), 256-deep K tiles in 4 stages: M = 16
// 1.61x at N = 11008, 1.55x at 14336, 1.09x at 4096 (gemm_w8a16: 1.02x at
// 11008); M = 64 with 64-row activation tiles, 128 deep: 1.29x, 1.51x.
// At N = 4096 the grid has 64 blocks for 132 SMs (K = 14336: 0.97x):
// gemm_w8a16_swapab_splitk, below, splits K over more blocks.
tile.kernel @gemm_w8a16_swapab(%X: memref<?x?x!tile.param<"T">>, %Q: memref<?x?xi8>,
                               %S: memref<?xf32>, %YT: memref<?x?x!tile.param<"T">>)
    params {BN = 64 in [64, 128], BM = 16 in [16, 32, 64], BK = 256 in [128, 256],
            STAGES = 4 in [2, 3, 4, 6, 8], THREADS = 128, T = f16 in [f16, bf16]}
    where [BN mod (THREADS floordiv 2) == 0]
    grid [%YT[0] / BN, %YT[1] / BM] threads THREADS
    requires [%Q[1] == %X[1], %YT[0] == %Q[0], %YT[1] == %X[0], %S[0] == %Q[0]] {
  %n0, %m0, %kt = tile.let block_id.x * BN, block_id.y * BM, %X[1] ceildiv BK
  %qs = tile.alloc_shared [BN, BK] : !tile.shared<?x?xi8>
  %xs = tile.alloc_shared [BM, BK] : !tile.shared<?x?x!tile.param<"T">>
  // The weights in registers; as wgmma's A operand they take the
  // accumulator's layout (tile-infer-layouts), back to the bytes read.
  %q = tile.alloc_fragment [BN, BK] : !tile.fragment<?x?xi8>
  %wf = tile.alloc_fragment [BN, BK] : !tile.fragment<?x?xf32>
  %w = tile.alloc_fragment [BN, BK] : !tile.fragment<?x?x!tile.param<"T">>
  %s = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  %acc = tile.alloc_fragment [BN, BM] : !tile.fragment<?x?xf32>
  tile.copy %S[%n0] -> %s
  tile.fill %acc, 0.0
  tile.pipelined %k to %kt num_stages STAGES {
    %k0 = tile.let %k * BK
    tile.copy %Q[%n0, %k0] -> %qs
    tile.copy %X[%m0, %k0] -> %xs
    tile.copy %qs -> %q
    tile.parallel ins(%v = %q) outs(%o = %wf) { arith.sitofp %v : i8 to f32 }
    tile.copy %wf -> %w
    tile.gemm %w, %xs, %acc {transpose_b}
  }
  tile.parallel ins(%sc = %s[0]) outs(%a = %acc) { arith.mulf %a, %sc : f32 }
  tile.copy %acc -> %YT[%n0, %m0]
}

tile.instance @gemm_w8a16_swapab_f16 = @gemm_w8a16_swapab {}
tile.instance @gemm_w8a16_swapab_bf16 = @gemm_w8a16_swapab {T = bf16}
tile.instance @gemm_w8a16_swapab_m64_f16 = @gemm_w8a16_swapab {BM = 64, BK = 128}

// The same product with K split over SPLIT blocks (the grid's z), for the
// shapes whose output has too few tiles to fill the GPU (N = 4096 at BN =
// 64: 64 blocks for 132 SMs). Each block writes its f32 partial tile of
// Y^T into the workspace W[z] (SPLIT x N x M floats) and arrives at its
// tile's counter in Count (one i32 per tile of Y^T, N / BN a row, zero
// before the first launch; every launch leaves it zero); the last block
// to arrive adds the partials in the order of z, scales the sum and
// writes the tile once, in T (gemm_splitk_reduce.mlir's combination).
tile.kernel @gemm_w8a16_swapab_splitk(%X: memref<?x?x!tile.param<"T">>, %Q: memref<?x?xi8>,
                                      %S: memref<?xf32>, %YT: memref<?x?x!tile.param<"T">>,
                                      %W: memref<?x?x?xf32>, %Count: memref<?xi32>)
    params {BN = 64 in [64, 128], BM = 16 in [16, 32, 64], BK = 256 in [128, 256],
            STAGES = 4 in [2, 3, 4, 6, 8], THREADS = 128, SPLIT = 2 in [1, 2, 3, 4],
            T = f16 in [f16, bf16]}
    where [BN mod (THREADS floordiv 2) == 0]
    grid [%YT[0] / BN, %YT[1] / BM, SPLIT] threads THREADS
    requires [%Q[1] == %X[1], %YT[0] == %Q[0], %YT[1] == %X[0], %S[0] == %Q[0],
              %W[0] == SPLIT, %W[1] == %YT[0], %W[2] == %YT[1],
              %Count[0] >= (%YT[0] ceildiv BN) * (%YT[1] ceildiv BM)] {
  %c0, %c1, %split = tile.let 0, 1, SPLIT
  %bz, %n0, %m0 = tile.let block_id.z, block_id.x * BN, block_id.y * BM
  %t = tile.let block_id.y * (%YT[0] ceildiv BN) + block_id.x
  // This block's k tiles: [lo, hi), empty when SPLIT exceeds the tiles.
  %kt = tile.let %X[1] ceildiv BK
  %per = tile.let %kt ceildiv SPLIT
  %lo = tile.let min(%bz * %per, %kt)
  %hi = tile.let min(%lo + %per, %kt)
  %qs = tile.alloc_shared [BN, BK] : !tile.shared<?x?xi8>
  %xs = tile.alloc_shared [BM, BK] : !tile.shared<?x?x!tile.param<"T">>
  %q = tile.alloc_fragment [BN, BK] : !tile.fragment<?x?xi8>
  %wf = tile.alloc_fragment [BN, BK] : !tile.fragment<?x?xf32>
  %w = tile.alloc_fragment [BN, BK] : !tile.fragment<?x?x!tile.param<"T">>
  %s = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  %acc = tile.alloc_fragment [BN, BM] : !tile.fragment<?x?xf32>
  %part = tile.alloc_fragment [BN, BM] : !tile.fragment<?x?xf32>
  tile.fill %acc, 0.0
  tile.pipelined %k = %lo to %hi step %c1 num_stages STAGES {
    %k0 = tile.let %k * BK
    tile.copy %Q[%n0, %k0] -> %qs
    tile.copy %X[%m0, %k0] -> %xs
    tile.copy %qs -> %q
    tile.parallel ins(%v = %q) outs(%o = %wf) { arith.sitofp %v : i8 to f32 }
    tile.copy %wf -> %w
    tile.gemm %w, %xs, %acc {transpose_b}
  }
  tile.copy %acc -> %W[%bz, %n0, %m0]
  %last = tile.arrive %Count[%t] count %split
  scf.if %last {
    tile.copy %S[%n0] -> %s
    tile.fill %acc, 0.0
    scf.for %z = %c0 to %split step %c1 {
      tile.copy %W[%z, %n0, %m0] -> %part
      tile.parallel ins(%p = %part) outs(%a = %acc) { arith.addf %a, %p : f32 }
    }
    tile.parallel ins(%sc = %s[0]) outs(%a = %acc) { arith.mulf %a, %sc : f32 }
    tile.copy %acc -> %YT[%n0, %m0]
  }
}

tile.instance @gemm_w8a16_swapab_splitk_f16 = @gemm_w8a16_swapab_splitk {}
tile.instance @gemm_w8a16_swapab_splitk_bf16 = @gemm_w8a16_swapab_splitk {T = bf16, SPLIT = 3}
tile.instance @gemm_w8a16_swapab_splitk_m64_f16 = @gemm_w8a16_swapab_splitk {BM = 64, BK = 128}
