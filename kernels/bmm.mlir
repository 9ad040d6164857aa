// Batched tensor-core GEMM, C[b] = A[b] . B[b] for every batch b, row-major,
// fp32 accumulation: gemm.mlir's schedule (one BM x BN tile of C per block,
// a STAGES-deep pipeline of TMA loads, the tile of C staged in shared memory
// and stored with TMA) with the batch as the grid's z. The operands are
// rank-3 memrefs whose 2-D tiles span their innermost dimensions, so a
// tile never crosses into the next batch: M, N, K need not be multiples of
// the tile sizes. The batches of A, B and C are equal (torch.matmul's
// broadcast of a batch of 1 is the caller's: [B, M, K] . [K, N] is one
// 2-D GEMM of B * M rows). T is the input type, TC the output's.
//
// TRANS_B takes each B[b] as N x K (K contiguous), x . W^T per batch (a
// query times its keys, say), read in place as gemm.mlir's TRANS_B does.

tile.kernel @bmm(%A: memref<?x?x?x!tile.param<"T">>, %B: memref<?x?x?x!tile.param<"T">>,
                 %C: memref<?x?x?x!tile.param<"TC">>)
    params {BM = 128 in [64, 128, 256], BN = 256 in [64, 128, 192, 256],
            BK = 64 in [64, 128], STAGES = 3 in [2, 3, 4, 5, 6],
            THREADS = 256 in [128, 256], TRANS_B = false, T = f16 in [f16, bf16],
            TC = f16 in [f16, bf16, f32]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%C[2] / BN, %C[1] / BM, %C[0] / 1] threads THREADS
    requires [%A[0] == %C[0], %B[0] == %C[0],
              %B[1] * (1 - TRANS_B) + %B[2] * TRANS_B == %A[2], %C[1] == %A[1],
              %C[2] == %B[2] * (1 - TRANS_B) + %B[1] * TRANS_B] {
  %bz, %m0, %n0, %kt = tile.let block_id.z, block_id.y * BM, block_id.x * BN,
                                %A[2] ceildiv BK
  // B's tile is BK x BN, or BN x BK (K-major) with TRANS_B.
  %b_rows, %b_cols = tile.let TRANS_B ? BN : BK, TRANS_B ? BK : BN
  %a = tile.alloc_shared [BM, BK] : !tile.shared<?x?x!tile.param<"T">>
  %b = tile.alloc_shared [%b_rows, %b_cols] : !tile.shared<?x?x!tile.param<"T">>
  %acc = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  %cs = tile.alloc_shared [BM, BN] : !tile.shared<?x?x!tile.param<"TC">>
  tile.fill %acc, 0.0
  tile.pipelined %k to %kt num_stages STAGES {
    %k0 = tile.let %k * BK
    %b_i, %b_j = tile.let TRANS_B ? %n0 : %k0, TRANS_B ? %k0 : %n0
    tile.copy %A[%bz, %m0, %k0] -> %a
    tile.copy %B[%bz, %b_i, %b_j] -> %b
    tile.gemm %a, %b, %acc {transpose_b = #tile.param<"TRANS_B">}
  }
  tile.copy %acc -> %cs
  tile.copy %cs -> %C[%bz, %m0, %n0]
}

tile.instance @bmm_f16 = @bmm {}
tile.instance @bmm_bf16 = @bmm {T = bf16, TC = bf16}
tile.instance @bmm_nt_f16 = @bmm {TRANS_B = true}
tile.instance @bmm_nt_bf16 = @bmm {TRANS_B = true, T = bf16, TC = bf16}
