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

module {
  tile.kernel @bmm(%A: memref<?x?x?x!tile.param<"T">>, %B: memref<?x?x?x!tile.param<"T">>,
                   %C: memref<?x?x?x!tile.param<"TC">>)
      params {BM = 128, BN = 256, BK = 64, STAGES = 3, THREADS = 256,
              TRANS_B = false, T = f16, TC = f16}
      space {BM = [64, 128, 256], BN = [64, 128, 192, 256], BK = [64, 128],
             STAGES = [2, 3, 4, 5, 6], THREADS = [128, 256],
             T = [f16, bf16], TC = [f16, bf16, f32]}
      where [BM mod (THREADS floordiv 2) == 0]
      grid [%C[2] / BN, %C[1] / BM, %C[0] / 1] threads THREADS
      requires [%A[0] == %C[0], %B[0] == %C[0],
                %B[1] * (1 - TRANS_B) + %B[2] * TRANS_B == %A[2], %C[1] == %A[1],
                %C[2] == %B[2] * (1 - TRANS_B) + %B[1] * TRANS_B] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %bm = tile.param "BM" : index
    %bn = tile.param "BN" : index
    %bk = tile.param "BK" : index
    %bx = tile.block_id x
    %by = tile.block_id y
    %bz = tile.block_id z
    %m0 = arith.muli %by, %bm : index
    %n0 = arith.muli %bx, %bn : index
    %K = memref.dim %A, %c2 : memref<?x?x?x!tile.param<"T">>
    %kt = arith.ceildivui %K, %bk : index
    %tb = tile.param "TRANS_B" : i1
    %b_rows = arith.select %tb, %bn, %bk : index
    %b_cols = arith.select %tb, %bk, %bn : index
    %a = tile.alloc_shared [%bm, %bk] : !tile.shared<?x?x!tile.param<"T">>
    %b = tile.alloc_shared [%b_rows, %b_cols] : !tile.shared<?x?x!tile.param<"T">>
    %acc = tile.alloc_fragment [%bm, %bn] : !tile.fragment<?x?xf32>
    %cs = tile.alloc_shared [%bm, %bn] : !tile.shared<?x?x!tile.param<"TC">>
    tile.fill %acc, 0.0 : !tile.fragment<?x?xf32>
    tile.pipelined %k = %c0 to %kt step %c1 num_stages STAGES {
      %k0 = arith.muli %k, %bk : index
      tile.copy %A[%bz, %m0, %k0] -> %a : memref<?x?x?x!tile.param<"T">> -> !tile.shared<?x?x!tile.param<"T">>
      %b_i = arith.select %tb, %n0, %k0 : index
      %b_j = arith.select %tb, %k0, %n0 : index
      tile.copy %B[%bz, %b_i, %b_j] -> %b : memref<?x?x?x!tile.param<"T">> -> !tile.shared<?x?x!tile.param<"T">>
      scf.if %tb {
        tile.gemm %a, %b, %acc {transpose_b} : !tile.shared<?x?x!tile.param<"T">>, !tile.shared<?x?x!tile.param<"T">>, !tile.fragment<?x?xf32>
      } else {
        tile.gemm %a, %b, %acc : !tile.shared<?x?x!tile.param<"T">>, !tile.shared<?x?x!tile.param<"T">>, !tile.fragment<?x?xf32>
      }
    }
    tile.copy %acc -> %cs : !tile.fragment<?x?xf32> -> !tile.shared<?x?x!tile.param<"TC">>
    tile.copy %cs -> %C[%bz, %m0, %n0] : !tile.shared<?x?x!tile.param<"TC">> -> memref<?x?x?x!tile.param<"TC">>
  }

  tile.instance @bmm_f16 = @bmm {}
  tile.instance @bmm_bf16 = @bmm {T = bf16, TC = bf16}
  tile.instance @bmm_nt_f16 = @bmm {TRANS_B = true}
  tile.instance @bmm_nt_bf16 = @bmm {TRANS_B = true, T = bf16, TC = bf16}
}
