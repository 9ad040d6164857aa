// Grouped GEMM for a mixture of experts: tokens sorted by expert, C[r, :] =
// X[r, :] . W[e]^T for the rows r of expert e, W[e] in nn.Linear's layout
// ([out, in], read K-major). The caller lists the tiles: tile t covers the
// BM rows from ROW[t] of expert EXPERT[t], whose rows end at END[t]; the
// grid has one block row per listed tile, so no block idles. A tile's rows
// past its expert's end read the next expert's tokens, and the copy of C
// stops at END[t] (`bounds`): no masking of the accumulator, no atomics,
// no zeroed output. Rows of X and W must be 16-byte aligned (TMA).

tile.kernel @moe_gemm(%X: memref<?x?x!tile.param<"T">>, %W: memref<?x?x?x!tile.param<"T">>,
                      %EXPERT: memref<?xi32>, %ROW: memref<?xi32>, %END: memref<?xi32>,
                      %C: memref<?x?x!tile.param<"T">>)
    params {BM = 64 in [64, 128], BN = 128 in [64, 128, 256], BK = 64 in [64, 128],
            STAGES = 3 in [2, 3, 4], THREADS = 128 in [128, 256], T = f16 in [f16, bf16]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%C[1] / BN, %EXPERT[0] / 1] threads THREADS
    requires [%W[2] == %X[1], %C[0] == %X[0], %C[1] == %W[1], %ROW[0] == %EXPERT[0],
              %END[0] == %EXPERT[0]] {
  %t, %n0, %kt, %n = tile.let block_id.y, block_id.x * BN, %X[1] ceildiv BK, %C[1]
  %e32 = memref.load %EXPERT[%t] : memref<?xi32>
  %r32 = memref.load %ROW[%t] : memref<?xi32>
  %end32 = memref.load %END[%t] : memref<?xi32>
  %e = arith.index_cast %e32 : i32 to index
  %r0 = arith.index_cast %r32 : i32 to index
  %end = arith.index_cast %end32 : i32 to index
  %x = tile.alloc_shared [BM, BK] : !tile.shared<?x?x!tile.param<"T">>
  %w = tile.alloc_shared [BN, BK] : !tile.shared<?x?x!tile.param<"T">>
  %acc = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  tile.fill %acc, 0.0
  tile.pipelined %k to %kt num_stages STAGES {
    %k0 = tile.let %k * BK
    tile.copy %X[%r0, %k0] -> %x
    tile.copy %W[%e, %n0, %k0] -> %w
    tile.gemm %x, %w, %acc {transpose_b}
  }
  tile.copy %acc -> %C[%r0, %n0] bounds [%end, %n]
}

tile.instance @moe_gemm_f16 = @moe_gemm {}
tile.instance @moe_gemm_bf16 = @moe_gemm {T = bf16}
