// Copies clipped at a bound known only at run time: Y[i, :] = 2 X[i, :]
// for the rows i < END, a scalar argument (an expert's last row in a
// grouped GEMM, a sequence's length in a cache). `bounds [%end, %n]` makes
// the copies treat the memrefs as if they ended there: rows at or past
// END read as zero and are not written, in the blocks that straddle END as
// in those wholly past it. The contract keeps END within the rows.

tile.kernel @scale_rows_until(%X: memref<?x?x!tile.param<"T">>,
                              %Y: memref<?x?x!tile.param<"T">>, %END: i32)
    params {ROWS = 8, COLS = 256, THREADS = 128, T = f16}
    grid [%X[1] / COLS, %X[0] / ROWS] threads THREADS
    requires [%Y[0] == %X[0], %Y[1] == %X[1]] {
  %i0, %j0, %n = tile.let block_id.y * ROWS, block_id.x * COLS, %X[1]
  %end = arith.index_cast %END : i32 to index
  %two = tile.let 2.0 : f32
  %x = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xf32>
  tile.copy %X[%i0, %j0] -> %x bounds [%end, %n]
  tile.parallel outs(%v = %x) { arith.mulf %v, %two : f32 }
  tile.copy %x -> %Y[%i0, %j0] bounds [%end, %n]
}

tile.instance @scale_rows_until_f16 = @scale_rows_until {}
