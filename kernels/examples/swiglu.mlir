// The gated MLP's first half (Llama's SwiGLU) in one kernel:
//   Y = silu(X . Wg^T) * (X . Wu^T),   silu(g) = g / (1 + exp(-g)),
// X [M, K], the gate and up weights Wg and Wu [N, K] as nn.Linear keeps
// them (read K-major, in place), Y [M, N]. Both products share X's tile:
// each stage of the TMA ring holds one tile of X and one of each weight,
// and both gemms of an iteration are issued back to back into their own
// accumulators. The epilogue multiplies the two in registers and stores Y
// through shared memory with TMA, so neither product is written out.

tile.kernel @swiglu(%X: memref<?x?x!tile.param<"T">>, %WG: memref<?x?x!tile.param<"T">>,
                    %WU: memref<?x?x!tile.param<"T">>, %Y: memref<?x?x!tile.param<"T">>)
    params {BM = 128 in [64, 128], BN = 128 in [64, 128], BK = 64, STAGES = 4 in [2, 3, 4],
            THREADS = 256 in [128, 256], T = f16 in [f16, bf16]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%Y[1] / BN, %Y[0] / BM] threads THREADS
    requires [%WG[1] == %X[1], %WU[0] == %WG[0], %WU[1] == %X[1], %Y[0] == %X[0],
              %Y[1] == %WG[0]] {
  %m0, %n0, %kt = tile.let block_id.y * BM, block_id.x * BN, %X[1] ceildiv BK
  %one = tile.let 1.0 : f32
  %x = tile.alloc_shared [BM, BK] : !tile.shared<?x?x!tile.param<"T">>
  %wg = tile.alloc_shared [BN, BK] : !tile.shared<?x?x!tile.param<"T">>
  %wu = tile.alloc_shared [BN, BK] : !tile.shared<?x?x!tile.param<"T">>
  %g = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  %u = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  %ys = tile.alloc_shared [BM, BN] : !tile.shared<?x?x!tile.param<"T">>
  tile.fill %g, 0.0
  tile.fill %u, 0.0
  tile.pipelined %k to %kt num_stages STAGES {
    %k0 = tile.let %k * BK
    tile.copy %X[%m0, %k0] -> %x
    tile.copy %WG[%n0, %k0] -> %wg
    tile.copy %WU[%n0, %k0] -> %wu
    tile.gemm %x, %wg, %g {transpose_b}
    tile.gemm %x, %wu, %u {transpose_b}
  }
  tile.parallel ins(%up = %u) outs(%v = %g) {
    %e = math.exp %v : f32
    %n = arith.divf %one, %e : f32
    %d = arith.addf %one, %n : f32
    %s = arith.divf %v, %d : f32
    arith.mulf %s, %up : f32
  }
  tile.copy %g -> %Y[%m0, %n0] through %ys
}

tile.instance @swiglu_f16 = @swiglu {}
tile.instance @swiglu_bf16 = @swiglu {T = bf16}
