// Tensor-core GEMM, C[M,N] = A[M,K] . B[K,N], row-major, fp32 accumulation.
//
// One BM x BN tile of C per block of THREADS / 128 warpgroups (each owns
// BM / warpgroups rows, in m64 wgmma steps); K is walked BK at a time through
// a STAGES-deep pipeline of TMA loads ((BM + BN) x BK elements a stage). M,
// N, K need not be multiples of the tile sizes (out-of-range elements read as
// zero and are not stored); the runtime requires 16-byte aligned rows (K and
// N multiples of 8 for 16-bit types). T is the input type, TC the output's.
//
// The epilogue either stages the tile of C in shared memory and writes it
// with TMA stores (TMA_STORE: whole 128-byte lines, issued by one thread,
// and the block is free once the stores have read the tile), or stores each
// thread's registers straight to global memory (4-byte pieces of eight rows
// per warp instruction). The staged tile costs BM x BN elements of shared
// memory beside the ring, so an f32 C of a 128x256 tile does not fit.
//
// WS runs the loop warp-specialised: a producer warpgroup issues the TMA
// loads while the THREADS only compute. It is left out of the space: on the
// H200 it measures the same as the default at every size tried (the loop's
// barrier was not what limited it), and would double the tuning time.
//
// TRANS_B takes B as N x K (K contiguous): x . W^T for a weight W kept as
// [out_features, in_features] (nn.Linear's), read in place. Its tiles are
// K-major, the layout wgmma reads without a transpose.
//
// The defaults, 128x256x64 in 3 stages on two warpgroups with TMA stores,
// are the fastest schedule at 4096^3; the named instances are the
// element-type variants.

tile.kernel @gemm(%A: memref<?x?x!tile.param<"T">>, %B: memref<?x?x!tile.param<"T">>,
                  %C: memref<?x?x!tile.param<"TC">>)
    params {BM = 128 in [64, 128, 256], BN = 256 in [64, 128, 192, 256], BK = 64 in [64, 128],
            STAGES = 3 in [2, 3, 4, 5, 6], THREADS = 256 in [128, 256], WS = false, TRANS_B = false,
            TMA_STORE = true in [true, false], T = f16 in [f16, bf16], TC = f16 in [f16, bf16, f32]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%C[1] / BN, %C[0] / BM] threads THREADS
    requires [%B[0] * (1 - TRANS_B) + %B[1] * TRANS_B == %A[1], %C[0] == %A[0],
              %C[1] == %B[1] * (1 - TRANS_B) + %B[0] * TRANS_B] {
  %m0, %n0, %kt = tile.let block_id.y * BM, block_id.x * BN, %A[1] ceildiv BK
  // B's tile is BK x BN, or BN x BK (K-major) with TRANS_B.
  %b_rows, %b_cols = tile.let TRANS_B ? BN : BK, TRANS_B ? BK : BN
  %a = tile.alloc_shared [BM, BK] : !tile.shared<?x?x!tile.param<"T">>
  %b = tile.alloc_shared [%b_rows, %b_cols] : !tile.shared<?x?x!tile.param<"T">>
  %acc = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  %cs = tile.alloc_shared [BM, BN] : !tile.shared<?x?x!tile.param<"TC">>
  tile.fill %acc, 0.0
  tile.pipelined %k to %kt num_stages STAGES warp_specialize WS {
    %k0 = tile.let %k * BK
    %b_i, %b_j = tile.let TRANS_B ? %n0 : %k0, TRANS_B ? %k0 : %n0
    tile.copy %A[%m0, %k0] -> %a
    tile.copy %B[%b_i, %b_j] -> %b
    tile.gemm %a, %b, %acc {transpose_b = #tile.param<"TRANS_B">}
  }
  tile.copy %acc -> %C[%m0, %n0] through %cs if TMA_STORE
}

tile.instance @gemm_f16 = @gemm {}
tile.instance @gemm_bf16 = @gemm {T = bf16, TC = bf16}
tile.instance @gemm_nt_f16 = @gemm {TRANS_B = true}
tile.instance @gemm_nt_bf16 = @gemm {TRANS_B = true, T = bf16, TC = bf16}
tile.instance @gemm_f16_f32 = @gemm {TC = f32, STAGES = 4, TMA_STORE = false}
