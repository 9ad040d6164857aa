// Out = alpha * X + Y, element-wise over two-dimensional tensors: the first
// kernel of docs/Tutorial.md. A block takes a ROWS x COLS tile; the copies
// mask the elements past the tensors, so any shape works. T is the
// tensors' type; the arithmetic is f32.
tile.kernel @scale_add(%X: memref<?x?x!tile.param<"T">>,
                       %Y: memref<?x?x!tile.param<"T">>,
                       %Out: memref<?x?x!tile.param<"T">>, %alpha: f32)
    params {ROWS = 8, COLS = 256, THREADS = 128, T = f16}
    grid [%X[1] / COLS, %X[0] / ROWS] threads THREADS
    requires [%Y[0] == %X[0], %Y[1] == %X[1],
              %Out[0] == %X[0], %Out[1] == %X[1]] {
  %i0, %j0 = tile.let block_id.y * ROWS, block_id.x * COLS
  %x = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xf32>
  %y = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xf32>
  tile.copy %X[%i0, %j0] -> %x
  tile.copy %Y[%i0, %j0] -> %y
  tile.parallel ins(%a = %x) outs(%b = %y) { math.fma %a, %alpha, %b : f32 }
  tile.copy %y -> %Out[%i0, %j0]
}

tile.instance @scale_add_f16 = @scale_add {}
tile.instance @scale_add_f32 = @scale_add {T = f32, COLS = 128}
