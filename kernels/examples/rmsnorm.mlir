// RMSNorm over the rows of X, as a user would write one, to run, check,
// time and tune it on the problem of rmsnorm.json (tile-run, tile-bench and
// tile-tune --problem; tile_mlir.autotune from Python):
//   Y[i, :] = X[i, :] * W / sqrt(mean(X[i, :]^2) + eps)
// T in and out (f16 or bf16), f32 math. A block takes ROWS rows of at most
// COLS columns (the contract `%X[1] <= COLS`), held in registers; the loads
// past the row read zeros, so the sum of squares needs no mask.
// `where` keeps a fragment at 32 values per thread at most. SKIP_W = true
// leaves the weight out: a wrong variant that the tests add to the space
// (space={"SKIP_W": [False, True]}) to see it rejected, and that
// @rmsnorm_no_weight names.
tile.kernel @rmsnorm(%X: memref<?x?x!tile.param<"T">>,
    %W: memref<?x!tile.param<"T">>, %Y: memref<?x?x!tile.param<"T">>,
    %eps: f32)
    params {ROWS = 4, COLS = 1024, THREADS = 128, SKIP_W = false, T = f16}
    space {ROWS = [1, 2, 4, 8], COLS = [256, 512, 1024, 2048, 4096],
           THREADS = [64, 128, 256]}
    where [32 * THREADS - ROWS * COLS >= 0]
    grid [%X[0] / ROWS] threads THREADS
    requires [%Y[0] == %X[0], %Y[1] == %X[1], %W[0] == %X[1],
              %X[1] <= COLS] {
  %c0, %crows, %ccols = tile.let 0, ROWS, COLS
  %one = tile.let 1.0 : f32
  %skip = tile.param "SKIP_W" : i1
  %r0, %n32 = tile.let block_id.x * ROWS, %X[1] : index, i32
  %nf = arith.sitofp %n32 : i32 to f32
  %invn = arith.divf %one, %nf : f32
  %x = tile.alloc_fragment [%crows, %ccols] : !tile.fragment<?x?xf32>
  %sq = tile.alloc_fragment [%crows, %ccols] : !tile.fragment<?x?xf32>
  %w = tile.alloc_fragment [%ccols] : !tile.fragment<?xf32>
  %s = tile.alloc_fragment [%crows] : !tile.fragment<?xf32>
  tile.copy %X[%r0, %c0] -> %x
  tile.copy %W[%c0] -> %w
  tile.parallel ins(%v = %x) outs(%o = %sq) { arith.mulf %v, %v : f32 }
  tile.reduce sum %sq -> %s {dim = 1 : i64, clear}
  // s = 1 / sqrt(s / N + eps), once per row.
  tile.parallel outs(%sum = %s) {
    %m = arith.mulf %sum, %invn : f32
    %a = arith.addf %m, %eps : f32
    math.rsqrt %a : f32
  }
  tile.parallel ins(%inv = %s[0], %wj = %w[1]) outs(%v = %x) {
    %g = arith.select %skip, %one, %wj : f32
    %t = arith.mulf %v, %inv : f32
    arith.mulf %t, %g : f32
  }
  tile.copy %x -> %Y[%r0, %c0]
}

// The kernel as it runs untuned (its parameters' values above).
tile.instance @rmsnorm_f16 = @rmsnorm {T = f16}
// The reference of rmsnorm.json: one row a block, the whole row of up to
// 4096 columns in one block's registers.
tile.instance @rmsnorm_one_row = @rmsnorm {ROWS = 1, COLS = 4096, THREADS = 128}
// The weight left out: wrong, for the tests to see a check fail.
tile.instance @rmsnorm_no_weight = @rmsnorm {SKIP_W = true}

// Rows of any length: a serial loop over chunks of CHUNK columns sums the
// squares into one value per row (tile.reduce without `clear` adds to
// it), and a second loop scales each chunk and stores it. The last chunk
// of a row reads zeros past its end and stores nothing there. The second
// pass reads X again; the blocks in flight keep their rows in the L2
// (132 SMs x 2 blocks x a 128 KB row of 65536 f16 is 34 MB).
tile.kernel @rmsnorm_long(%X: memref<?x?x!tile.param<"T">>,
    %W: memref<?x!tile.param<"T">>, %Y: memref<?x?x!tile.param<"T">>,
    %eps: f32)
    params {ROWS = 1, CHUNK = 2048, THREADS = 256, T = f16}
    space {ROWS = [1, 2, 4], CHUNK = [512, 1024, 2048, 4096],
           THREADS = [128, 256, 512]}
    where [32 * THREADS - ROWS * CHUNK >= 0]
    grid [%X[0] / ROWS] threads THREADS
    requires [%Y[0] == %X[0], %Y[1] == %X[1], %W[0] == %X[1]] {
  %c0, %crows, %chunk = tile.let 0, ROWS, CHUNK
  %one = tile.let 1.0 : f32
  %r0, %N, %n32 = tile.let block_id.x * ROWS, %X[1], %X[1] : index, index, i32
  %nf = arith.sitofp %n32 : i32 to f32
  %invn = arith.divf %one, %nf : f32
  %x = tile.alloc_fragment [%crows, %chunk] : !tile.fragment<?x?xf32>
  %sq = tile.alloc_fragment [%crows, %chunk] : !tile.fragment<?x?xf32>
  %w = tile.alloc_fragment [%chunk] : !tile.fragment<?xf32>
  %s = tile.alloc_fragment [%crows] : !tile.fragment<?xf32>
  tile.fill %s, 0.0
  scf.for %j = %c0 to %N step %chunk {
    tile.copy %X[%r0, %j] -> %x
    tile.parallel ins(%v = %x) outs(%o = %sq) { arith.mulf %v, %v : f32 }
    tile.reduce sum %sq -> %s {dim = 1 : i64}
  }
  tile.parallel outs(%sum = %s) {
    %m = arith.mulf %sum, %invn : f32
    %a = arith.addf %m, %eps : f32
    math.rsqrt %a : f32
  }
  scf.for %j = %c0 to %N step %chunk {
    tile.copy %X[%r0, %j] -> %x
    tile.copy %W[%j] -> %w
    tile.parallel ins(%inv = %s[0], %wj = %w[1]) outs(%v = %x) {
      %t = arith.mulf %v, %inv : f32
      arith.mulf %t, %wj : f32
    }
    tile.copy %x -> %Y[%r0, %j]
  }
}

tile.instance @rmsnorm_long_f16 = @rmsnorm_long {}
// Several chunks a row, and two rows a block: the reference of
// rmsnorm_long.json, whose rows no block of @rmsnorm holds.
tile.instance @rmsnorm_long_c512 = @rmsnorm_long {CHUNK = 512, ROWS = 2, THREADS = 128}
