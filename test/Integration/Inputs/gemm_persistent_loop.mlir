// A persistent GEMM written with a serial loop over the block's tiles for
// the integration tests: NSM blocks, block b taking tiles b, b + NSM, ...
// (row-major); for each, the accumulator is cleared, a pipelined loop walks
// K (its wgmma group in flight across k-steps, drained at the loop's end)
// and the tile leaves through a shared tile and TMA stores, which must
// have read it before the next tile's epilogue writes it again. What it
// exercises: tile operations in scf.for, a pipelined loop entered once per
// tile (its barriers initialised again each time), and a TMA store read
// across the serial loop's back edge.

module {
  tile.kernel @gemm_persistent_loop(%A: memref<?x?x!tile.param<"T">>, %B: memref<?x?x!tile.param<"T">>,
                    %C: memref<?x?x!tile.param<"TC">>)
      params {BM = 128, BN = 256, BK = 64, STAGES = 3, THREADS = 256,
              NSM = 132, T = f16, TC = f16}
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
    %kt = arith.ceildivui %K, %bk : index
    %a = tile.alloc_shared [%bm, %bk] : !tile.shared<?x?x!tile.param<"T">>
    %b = tile.alloc_shared [%bk, %bn] : !tile.shared<?x?x!tile.param<"T">>
    %acc = tile.alloc_fragment [%bm, %bn] : !tile.fragment<?x?xf32>
    %cs = tile.alloc_shared [%bm, %bn] : !tile.shared<?x?x!tile.param<"TC">>
    scf.for %t = %bid to %tiles step %nsm {
      %mi = arith.divui %t, %tn : index
      %mt = arith.muli %mi, %tn : index
      %ni = arith.subi %t, %mt : index
      %m0 = arith.muli %mi, %bm : index
      %n0 = arith.muli %ni, %bn : index
      tile.fill %acc, %zero : !tile.fragment<?x?xf32>, f32
      tile.pipelined %k = %c0 to %kt step %c1 num_stages STAGES {
        %k0 = arith.muli %k, %bk : index
        tile.copy %A[%m0, %k0] -> %a : memref<?x?x!tile.param<"T">> -> !tile.shared<?x?x!tile.param<"T">>
        tile.copy %B[%k0, %n0] -> %b : memref<?x?x!tile.param<"T">> -> !tile.shared<?x?x!tile.param<"T">>
        tile.gemm %a, %b, %acc : !tile.shared<?x?x!tile.param<"T">>, !tile.shared<?x?x!tile.param<"T">>, !tile.fragment<?x?xf32>
      }
      tile.copy %acc -> %cs : !tile.fragment<?x?xf32> -> !tile.shared<?x?x!tile.param<"TC">>
      tile.copy %cs -> %C[%m0, %n0] : !tile.shared<?x?x!tile.param<"TC">> -> memref<?x?x!tile.param<"TC">>
    }
  }
}
