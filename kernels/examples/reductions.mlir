// Reductions whose result no single block holds, combined across blocks
// with tile.atomic: the sums of rows split over several blocks, the total
// of every element, and the largest magnitude. The outputs are combined
// into, not overwritten: the caller sets them first (zeros for a sum, -inf
// for a max; zeros serve absmax, whose values are not negative). T is the
// input's type; the sums are f32. A block takes a ROWS x COLS tile of X;
// the loads past X read zeros, so no mask is needed.
// S[i] += X[i, j0:j0+COLS] summed, for the block's rows and columns: the
// blocks of one row of tiles add their partial sums.
tile.kernel @row_sum(%X: memref<?x?x!tile.param<"T">>, %S: memref<?xf32>)
    params {ROWS = 4, COLS = 1024, THREADS = 128, T = f32}
    space {ROWS = [1, 2, 4, 8], COLS = [256, 512, 1024, 2048],
           THREADS = [64, 128, 256]}
    where [32 * THREADS - ROWS * COLS >= 0]
    grid [%X[1] / COLS, %X[0] / ROWS] threads THREADS
    requires [%S[0] == %X[0]] {
  %i0, %j0 = tile.let block_id.y * ROWS, block_id.x * COLS
  %x = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xf32>
  %s = tile.alloc_fragment [ROWS] : !tile.fragment<?xf32>
  tile.copy %X[%i0, %j0] -> %x
  tile.reduce sum %x -> %s {dim = 1 : i64, clear}
  tile.atomic add %s -> %S[%i0]
}

// M[i] = max(M[i], the block's part of row i): signed values, so the
// float max takes both of its integer forms.
tile.kernel @row_max(%X: memref<?x?x!tile.param<"T">>, %M: memref<?xf32>)
    params {ROWS = 4, COLS = 1024, THREADS = 128, T = f32}
    where [32 * THREADS - ROWS * COLS >= 0]
    grid [%X[1] / COLS, %X[0] / ROWS] threads THREADS
    requires [%M[0] == %X[0]] {
  %i0, %j0 = tile.let block_id.y * ROWS, block_id.x * COLS
  %x = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xf32>
  %m = tile.alloc_fragment [ROWS] : !tile.fragment<?xf32>
  tile.copy %X[%i0, %j0] -> %x
  // The elements past X read as zero: a row of negative values would
  // take 0 as its max, so they become -inf first.
  %N = tile.let %X[1]
  %ninf = tile.let -inf : f32
  tile.parallel outs(%v = %x) {
    %j = tile.index 1
    %col = arith.addi %j0, %j : index
    %in = arith.cmpi slt, %col, %N : index
    arith.select %in, %v, %ninf : f32
  }
  tile.reduce max %x -> %m {dim = 1 : i64, clear}
  tile.atomic max %m -> %M[%i0]
}

// T[0] += the sum of the block's tile; A[0] = max(A[0], its largest
// magnitude). One value a block, reduced over the whole tile.
tile.kernel @total(%X: memref<?x?x!tile.param<"T">>, %Sum: memref<?xf32>,
                   %Absmax: memref<?xf32>)
    params {ROWS = 8, COLS = 512, THREADS = 256, T = f32}
    where [32 * THREADS - ROWS * COLS >= 0]
    grid [%X[1] / COLS, %X[0] / ROWS] threads THREADS
    requires [%Sum[0] == 1, %Absmax[0] == 1] {
  %c0 = tile.let 0
  %i0, %j0 = tile.let block_id.y * ROWS, block_id.x * COLS
  %x = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xf32>
  tile.copy %X[%i0, %j0] -> %x
  %sum = tile.reduction sum %x
  %peak = tile.reduction absmax %x
  tile.atomic add %sum -> %Sum[%c0]
  tile.atomic max %peak -> %Absmax[%c0]
}

tile.instance @row_sum_f32 = @row_sum {}
tile.instance @row_sum_f16 = @row_sum {T = f16, ROWS = 2, COLS = 2048}
tile.instance @row_max_f32 = @row_max {ROWS = 1, COLS = 512, THREADS = 64}
tile.instance @total_f32 = @total {}
tile.instance @total_bf16 = @total {T = bf16, ROWS = 4, COLS = 256, THREADS = 128}
