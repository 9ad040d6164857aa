// Residual add, RMSNorm and fp8 quantisation in one pass over the rows, as
// an inference stack runs them between two fp8 GEMMs:
//   H[i, :] = X[i, :] + R[i, :]                       (the new residual, T)
//   Y[i, :] = (H[i, :] * W / sqrt(mean(H[i, :]^2) + eps) / SCALE).to(T8)
// H is rounded to T before it is normalised, as the unfused torch code
// does. The copy of Y converts into T8 (one byte a value), rounding to
// nearest even and saturating at the format's largest finite value, which
// is torch's `.clamp(-max, max).to(T8)`. A block takes ROWS rows of at
// most COLS columns, held in registers (rmsnorm.mlir's schedule).

tile.kernel @add_rmsnorm_fp8(%X: memref<?x?x!tile.param<"T">>,
    %R: memref<?x?x!tile.param<"T">>, %W: memref<?x!tile.param<"T">>,
    %H: memref<?x?x!tile.param<"T">>, %Y: memref<?x?x!tile.param<"T8">>,
    %eps: f32, %SCALE: f32)
    params {ROWS = 4 in [1, 2, 4, 8], COLS = 1024 in [1024, 2048, 4096, 8192],
            THREADS = 128 in [128, 256, 512], T = f16 in [f16, bf16],
            T8 = f8E4M3FN in [f8E4M3FN, f8E5M2]}
    where [32 * THREADS - ROWS * COLS >= 0]
    grid [%X[0] / ROWS] threads THREADS
    requires [%R[0] == %X[0], %R[1] == %X[1], %H[0] == %X[0], %H[1] == %X[1],
              %Y[0] == %X[0], %Y[1] == %X[1], %W[0] == %X[1], %X[1] <= COLS] {
  %c0 = tile.let 0
  %one = tile.let 1.0 : f32
  %r0, %n32 = tile.let block_id.x * ROWS, %X[1] : index, i32
  %nf = arith.sitofp %n32 : i32 to f32
  %invn = arith.divf %one, %nf : f32
  %x = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xf32>
  %r = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xf32>
  %h = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?x!tile.param<"T">>
  %w = tile.alloc_fragment [COLS] : !tile.fragment<?xf32>
  %s = tile.alloc_fragment [ROWS] : !tile.fragment<?xf32>
  tile.copy %X[%r0, %c0] -> %x
  tile.copy %R[%r0, %c0] -> %r
  tile.copy %W[%c0] -> %w
  // H = X + R, rounded to T, stored, and read back in f32.
  tile.parallel ins(%v = %r) outs(%o = %x) { arith.addf %o, %v : f32 }
  tile.copy %x -> %h
  tile.copy %h -> %H[%r0, %c0]
  tile.copy %h -> %x
  tile.parallel ins(%v = %x) outs(%o = %r) { arith.mulf %v, %v : f32 }
  tile.reduce sum %r -> %s {dim = 1 : i64, clear}
  // s = 1 / (sqrt(s / N + eps) * SCALE), once per row.
  tile.parallel outs(%sum = %s) {
    %m = arith.mulf %sum, %invn : f32
    %a = arith.addf %m, %eps : f32
    %q = math.rsqrt %a : f32
    arith.divf %q, %SCALE : f32
  }
  tile.parallel ins(%inv = %s[0], %wj = %w[1]) outs(%v = %x) {
    %t = arith.mulf %v, %inv : f32
    arith.mulf %t, %wj : f32
  }
  tile.copy %x -> %Y[%r0, %c0]
}

tile.instance @add_rmsnorm_fp8_f16 = @add_rmsnorm_fp8 {}
tile.instance @add_rmsnorm_fp8_bf16 = @add_rmsnorm_fp8 {T = bf16}
tile.instance @add_rmsnorm_fp8_long_f16 = @add_rmsnorm_fp8 {ROWS = 1, COLS = 8192, THREADS = 256}
