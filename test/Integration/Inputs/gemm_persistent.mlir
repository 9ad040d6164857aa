// A persistent GEMM for the integration tests: NSM blocks walk the output
// tiles (tile t = block + j * NSM, row-major) in one flattened pipelined
// loop over (tile, k-step) pairs, so the TMA ring loads the next tile's
// first stages while the epilogue of this one runs. The epilogue is a branch
// on the last k-step: the accumulator goes to global memory through a
// shared tile and TMA stores, and is cleared. What it exercises: copy
// offsets recomputed through divisions, a wgmma group kept in flight across
// k-steps with the wait inside the branch, and a TMA store in a loop that
// must have read its tile before the next tile's epilogue writes it. With
// WS, a producer warpgroup issues the loads, so the next tile's loads run
// while the consumers store this one.

module {
  tile.kernel @gemm_persistent(%A: memref<?x?x!tile.param<"T">>, %B: memref<?x?x!tile.param<"T">>,
                    %C: memref<?x?x!tile.param<"TC">>)
      params {BM = 128, BN = 256, BK = 64, STAGES = 3, THREADS = 256,
              NSM = 132, WS = false, T = f16, TC = f16}
      where [BM mod (THREADS floordiv 2) == 0]
      grid [NSM] threads THREADS
      requires [%B[0] == %A[1], %C[0] == %A[0], %C[1] == %B[1]] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bm = tile.param "BM" : index
    %bn = tile.param "BN" : index
    %bk = tile.param "BK" : index
    %nsm = tile.param "NSM" : index
    %zero = arith.constant 0.0 : f32
    %bid = tile.block_id x
    %M = memref.dim %C, %c0 : memref<?x?x!tile.param<"TC">>
    %N = memref.dim %C, %c1 : memref<?x?x!tile.param<"TC">>
    %K = memref.dim %A, %c1 : memref<?x?x!tile.param<"T">>
    %tm = arith.ceildivui %M, %bm : index
    %tn = arith.ceildivui %N, %bn : index
    %tiles = arith.muli %tm, %tn : index
    %kt0 = arith.ceildivui %K, %bk : index
    %kt = arith.maxui %kt0, %c1 : index
    %last = arith.subi %kt, %c1 : index
    %span = arith.subi %tiles, %bid : index
    %span1 = arith.addi %span, %nsm : index
    %span2 = arith.subi %span1, %c1 : index
    %mine = arith.divui %span2, %nsm : index
    %iters = arith.muli %mine, %kt : index
    %a = tile.alloc_shared [%bm, %bk] : !tile.shared<?x?x!tile.param<"T">>
    %b = tile.alloc_shared [%bk, %bn] : !tile.shared<?x?x!tile.param<"T">>
    %acc = tile.alloc_fragment [%bm, %bn] : !tile.fragment<?x?xf32>
    %cs = tile.alloc_shared [%bm, %bn] : !tile.shared<?x?x!tile.param<"TC">>
    tile.fill %acc, %zero : !tile.fragment<?x?xf32>, f32
    tile.pipelined %i = %c0 to %iters step %c1 num_stages STAGES warp_specialize WS {
      %i32 = arith.index_cast %i : index to i32
      %kt32 = arith.index_cast %kt : index to i32
      %j32 = arith.divui %i32, %kt32 : i32
      %j = arith.index_cast %j32 : i32 to index
      %jk = arith.muli %j, %kt : index
      %k = arith.subi %i, %jk : index
      %jn = arith.muli %j, %nsm : index
      %t = arith.addi %bid, %jn : index
      %t32 = arith.index_cast %t : index to i32
      %tn32 = arith.index_cast %tn : index to i32
      %mi32 = arith.divui %t32, %tn32 : i32
      %mi = arith.index_cast %mi32 : i32 to index
      %mt = arith.muli %mi, %tn : index
      %ni = arith.subi %t, %mt : index
      %m0 = arith.muli %mi, %bm : index
      %n0 = arith.muli %ni, %bn : index
      %k0 = arith.muli %k, %bk : index
      tile.copy %A[%m0, %k0] -> %a : memref<?x?x!tile.param<"T">> -> !tile.shared<?x?x!tile.param<"T">>
      tile.copy %B[%k0, %n0] -> %b : memref<?x?x!tile.param<"T">> -> !tile.shared<?x?x!tile.param<"T">>
      tile.gemm %a, %b, %acc : !tile.shared<?x?x!tile.param<"T">>, !tile.shared<?x?x!tile.param<"T">>, !tile.fragment<?x?xf32>
      %is_last = arith.cmpi eq, %k, %last : index
      scf.if %is_last {
        tile.copy %acc -> %cs : !tile.fragment<?x?xf32> -> !tile.shared<?x?x!tile.param<"TC">>
        tile.copy %cs -> %C[%m0, %n0] : !tile.shared<?x?x!tile.param<"TC">> -> memref<?x?x!tile.param<"TC">>
        tile.fill %acc, %zero : !tile.fragment<?x?xf32>, f32
      }
    }
  }
}
