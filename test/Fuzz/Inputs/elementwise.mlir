// Small parametric kernels for tile-fuzz's binding seeds: each compiles in
// a fraction of a second, so every parameter can be tried with every
// hostile value. @rows copies rows through a fragment and squares them
// under a flag; @staged goes through a shared tile, so that the shared-tile
// planner sees the element type too.
module {
  tile.kernel @rows(%A: memref<?x?x!tile.param<"T">>, %B: memref<?x?x!tile.param<"T">>)
      params {ROWS = 16, COLS = 128, THREADS = 128, SQUARE = true, T = f32}
      space {ROWS = [16, 32], COLS = [128, 256], THREADS = [128, 256],
             SQUARE = [true, false], T = [f32, f16]}
      grid [%A[0] / ROWS] threads THREADS {
    %c0 = arith.constant 0 : index
    %rows = tile.param "ROWS" : index
    %cols = tile.param "COLS" : index
    %square = tile.param "SQUARE" : i1
    %bx = tile.block_id x
    %r0 = arith.muli %bx, %rows : index
    %a = tile.alloc_fragment [%rows, %cols] : !tile.fragment<?x?xf32>
    tile.copy %A[%r0, %c0] -> %a : memref<?x?x!tile.param<"T">> -> !tile.fragment<?x?xf32>
    scf.if %square {
      tile.parallel outs(%a : !tile.fragment<?x?xf32>) attributes {
          indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%x: f32):
        %y = arith.mulf %x, %x : f32
        tile.yield %y : f32
      }
    }
    tile.copy %a -> %B[%r0, %c0] : !tile.fragment<?x?xf32> -> memref<?x?x!tile.param<"T">>
  }
  tile.instance @rows_f32 = @rows {}

  tile.kernel @staged(%A: memref<?x?x!tile.param<"T">>, %B: memref<?x?xf32>)
      params {BM = 64, BN = 64, THREADS = 128, T = f16}
      space {BM = [64, 128], BN = [64, 128], THREADS = [128, 256],
             T = [f16, bf16]}
      grid [%A[0] / BM] threads THREADS {
    %c0 = arith.constant 0 : index
    %bm = tile.param "BM" : index
    %bn = tile.param "BN" : index
    %bx = tile.block_id x
    %m0 = arith.muli %bx, %bm : index
    %s = tile.alloc_shared [%bm, %bn] : !tile.shared<?x?x!tile.param<"T">>
    %f = tile.alloc_fragment [%bm, %bn] : !tile.fragment<?x?xf32>
    tile.copy %A[%m0, %c0] -> %s : memref<?x?x!tile.param<"T">> -> !tile.shared<?x?x!tile.param<"T">>
    tile.copy %s -> %f : !tile.shared<?x?x!tile.param<"T">> -> !tile.fragment<?x?xf32>
    tile.copy %f -> %B[%m0, %c0] : !tile.fragment<?x?xf32> -> memref<?x?xf32>
  }
  tile.instance @staged_f16 = @staged {}
}
