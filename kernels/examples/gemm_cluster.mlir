// Tensor-core GEMM in thread-block clusters, C[M,N] = A[M,K] . B[K,N]:
// gemm.mlir's warp-specialised schedule, launched in clusters of CN blocks
// along N (the grid's x). The blocks of a cluster compute neighbouring
// tiles of one row of tiles of C, so they read the same tiles of A: each
// block's producer loads BM / CN of a tile's rows and multicasts them into
// the shared memory of every block of the cluster (tile.copy ... multicast).
// L2 then serves each tile of A once per cluster instead of once per block;
// a stage is refilled only when the consumers of every block of the
// cluster have freed it.
//
// M, N, K need not be multiples of the tiles (the grid's x is rounded up to
// whole clusters; the blocks past N load and compute, and store nothing).
// TRANS_B takes B as N x K (x . W^T for nn.Linear's weight), read in place.
tile.kernel @gemm_cluster(%A: memref<?x?x!tile.param<"T">>, %B: memref<?x?x!tile.param<"T">>,
                          %C: memref<?x?x!tile.param<"T">>)
    params {BM = 128 in [128, 256], BN = 256 in [128, 192, 256], BK = 64,
            STAGES = 3 in [2, 3, 4], THREADS = 256, CN = 2 in [2, 4],
            TRANS_B = false, T = f16 in [f16, bf16]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%C[1] / BN, %C[0] / BM] threads THREADS cluster [CN, 1]
    requires [%B[0] * (1 - TRANS_B) + %B[1] * TRANS_B == %A[1], %C[0] == %A[0],
              %C[1] == %B[1] * (1 - TRANS_B) + %B[0] * TRANS_B] {
  %m0, %n0, %kt = tile.let block_id.y * BM, block_id.x * BN, %A[1] ceildiv BK
  %b_rows, %b_cols = tile.let TRANS_B ? BN : BK, TRANS_B ? BK : BN
  %a = tile.alloc_shared [BM, BK] : !tile.shared<?x?x!tile.param<"T">>
  %b = tile.alloc_shared [%b_rows, %b_cols] : !tile.shared<?x?x!tile.param<"T">>
  %acc = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  %cs = tile.alloc_shared [BM, BN] : !tile.shared<?x?x!tile.param<"T">>
  tile.fill %acc, 0.0
  tile.pipelined %k to %kt num_stages STAGES warp_specialize 1 {
    %k0 = tile.let %k * BK
    %b_i, %b_j = tile.let TRANS_B ? %n0 : %k0, TRANS_B ? %k0 : %n0
    tile.copy %A[%m0, %k0] -> %a multicast
    tile.copy %B[%b_i, %b_j] -> %b
    tile.gemm %a, %b, %acc {transpose_b = #tile.param<"TRANS_B">}
  }
  tile.copy %acc -> %C[%m0, %n0] through %cs
}

tile.instance @gemm_cluster_f16 = @gemm_cluster {}
tile.instance @gemm_cluster_bf16 = @gemm_cluster {T = bf16}
tile.instance @gemm_cluster_nt_f16 = @gemm_cluster {TRANS_B = true}
tile.instance @gemm_cluster4_f16 = @gemm_cluster {CN = 4, BN = 128, STAGES = 4}
