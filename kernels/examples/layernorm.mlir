// LayerNorm over the rows of X:
//   Y[i, :] = (X[i, :] - mean_i) / sqrt(var_i + eps) * W + B
// T in and out, f32 math. A block takes ROWS rows of at most COLS columns
// (the contract `%X[1] <= COLS`), held in registers. The loads past the row
// read zeros, which the mean may sum, but their centred values (-mean) may
// not enter the variance: the second reduction masks them with tile.index.
tile.kernel @layernorm(%X: memref<?x?x!tile.param<"T">>,
    %W: memref<?x!tile.param<"T">>, %B: memref<?x!tile.param<"T">>,
    %Y: memref<?x?x!tile.param<"T">>, %eps: f32)
    params {ROWS = 4, COLS = 1024, THREADS = 128, T = f16}
    space {ROWS = [1, 2, 4, 8], COLS = [256, 512, 1024, 2048, 4096],
           THREADS = [64, 128, 256]}
    where [32 * THREADS - ROWS * COLS >= 0]
    grid [%X[0] / ROWS] threads THREADS
    requires [%Y[0] == %X[0], %Y[1] == %X[1], %W[0] == %X[1],
              %B[0] == %X[1], %X[1] <= COLS] {
  %c0, %crows, %ccols = tile.let 0, ROWS, COLS
  %zero = tile.let 0.0 : f32
  %r0, %N, %n32 = tile.let block_id.x * ROWS, %X[1], %X[1] : index, index, i32
  %nf = arith.sitofp %n32 : i32 to f32
  %x = tile.alloc_fragment [%crows, %ccols] : !tile.fragment<?x?xf32>
  %d = tile.alloc_fragment [%crows, %ccols] : !tile.fragment<?x?xf32>
  %w = tile.alloc_fragment [%ccols] : !tile.fragment<?xf32>
  %b = tile.alloc_fragment [%ccols] : !tile.fragment<?xf32>
  %mean = tile.alloc_fragment [%crows] : !tile.fragment<?xf32>
  %rstd = tile.alloc_fragment [%crows] : !tile.fragment<?xf32>
  tile.copy %X[%r0, %c0] -> %x
  tile.copy %W[%c0] -> %w
  tile.copy %B[%c0] -> %b
  tile.reduce sum %x -> %mean {dim = 1 : i64, clear}
  tile.parallel outs(%s = %mean) { arith.divf %s, %nf : f32 }
  // The squared deviations, zero past the row.
  tile.parallel ins(%v = %x, %m = %mean[0]) outs(%o = %d) {
    %j = tile.index 1
    %in = arith.cmpi slt, %j, %N : index
    %c = arith.subf %v, %m : f32
    %sq = arith.mulf %c, %c : f32
    arith.select %in, %sq, %zero : f32
  }
  tile.reduce sum %d -> %rstd {dim = 1 : i64, clear}
  tile.parallel outs(%s = %rstd) {
    %var = arith.divf %s, %nf : f32
    %a = arith.addf %var, %eps : f32
    math.rsqrt %a : f32
  }
  tile.parallel ins(%m = %mean[0], %r = %rstd[0], %wj = %w[1], %bj = %b[1]) outs(%v = %x) {
    %c = arith.subf %v, %m : f32
    %n = arith.mulf %c, %r : f32
    math.fma %n, %wj, %bj : f32
  }
  tile.copy %x -> %Y[%r0, %c0]
}

tile.instance @layernorm_f16 = @layernorm {}
tile.instance @layernorm_bf16 = @layernorm {T = bf16}
// A row of up to 4096 columns in one block: rows of 4000 (GPT-style
// hidden sizes) and of 1 column.
tile.instance @layernorm_4096_f16 = @layernorm {ROWS = 1, COLS = 4096, THREADS = 128}
