// Weight-only int4 GEMM (W4A16) with group-wise scales:
// C[M, N] = X[M, K] . (Wq[N, K] * s)^T, activations X of type T (f16 or
// bf16), weights of signed 4-bit integers (-8 .. 7), one f32 scale per
// output channel and group of 128 values of K. Two weights share a byte,
// packed offline in the layout this kernel reads (as Marlin packs its
// own): in each block of 256 values of K, byte j of a row holds value j in
// its low nibble and value 128 + j in its high one. So one 128-column
// byte tile unpacks into the two 128-deep halves of the block, each a
// K-major tile of T beside the matching 128 columns of X, and the two
// halves are two groups of the scales. Q is [N, 128 * ceil(K / 256)]
// bytes (zero past K), S is group-major, [ceil(K / 128), N].
//
// gemm_w8a16.mlir's schedule: the byte tiles come by TMA through the
// pipeline's ring with X, each iteration reads its stage into registers,
// sign-extends the nibbles (a shift left then an arithmetic shift right
// for the low one, an arithmetic shift right for the high one), scales
// them and writes them to the shared tiles the tensor cores read.
// Rows of X and Q are 16-byte aligned (TMA): K a multiple of 16.

tile.kernel @gemm_w4a16(%X: memref<?x?x!tile.param<"T">>, %Q: memref<?x?xi8>,
                        %S: memref<?x?xf32>, %C: memref<?x?x!tile.param<"T">>)
    params {BM = 64 in [64, 128], BN = 64 in [64, 128], HALF = 128, STAGES = 3 in [2, 3, 4],
            THREADS = 128, T = f16 in [f16, bf16]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%C[1] / BN, %C[0] / BM] threads THREADS
    requires [%Q[1] == (%X[1] ceildiv 256) * 128, %C[0] == %X[0], %C[1] == %Q[0],
              %S[1] == %Q[0], %S[0] == %X[1] ceildiv 128] {
  %m0, %n0, %kt = tile.let block_id.y * BM, block_id.x * BN, %X[1] ceildiv (2 * HALF)
  %four = arith.constant 4 : i8
  %xlo = tile.alloc_shared [BM, HALF] : !tile.shared<?x?x!tile.param<"T">>
  %xhi = tile.alloc_shared [BM, HALF] : !tile.shared<?x?x!tile.param<"T">>
  %qs = tile.alloc_shared [BN, HALF] : !tile.shared<?x?xi8>
  %wlo = tile.alloc_shared [BN, HALF] : !tile.shared<?x?x!tile.param<"T">>
  %whi = tile.alloc_shared [BN, HALF] : !tile.shared<?x?x!tile.param<"T">>
  %q = tile.alloc_fragment [BN, HALF] : !tile.fragment<?x?xi8>
  %wf = tile.alloc_fragment [BN, HALF] : !tile.fragment<?x?xf32>
  %slo = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  %shi = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  %acc = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  tile.fill %acc, 0.0
  tile.pipelined %k to %kt num_stages STAGES {
    %k0, %k1, %kq = tile.let %k * 2 * HALF, %k * 2 * HALF + HALF, %k * HALF
    %glo, %ghi = tile.let 2 * %k, 2 * %k + 1
    tile.copy %X[%m0, %k0] -> %xlo
    tile.copy %X[%m0, %k1] -> %xhi
    tile.copy %Q[%n0, %kq] -> %qs
    tile.copy %S[%glo, %n0] -> %slo
    tile.copy %S[%ghi, %n0] -> %shi
    tile.copy %qs -> %q
    tile.parallel ins(%v = %q, %sc = %slo[0]) outs(%o = %wf) {
      %up = arith.shli %v, %four : i8
      %lo = arith.shrsi %up, %four : i8
      %f = arith.sitofp %lo : i8 to f32
      arith.mulf %f, %sc : f32
    }
    tile.copy %wf -> %wlo
    tile.parallel ins(%v = %q, %sc = %shi[0]) outs(%o = %wf) {
      %hi = arith.shrsi %v, %four : i8
      %f = arith.sitofp %hi : i8 to f32
      arith.mulf %f, %sc : f32
    }
    tile.copy %wf -> %whi
    tile.gemm %xlo, %wlo, %acc {transpose_b}
    tile.gemm %xhi, %whi, %acc {transpose_b}
  }
  tile.copy %acc -> %C[%m0, %n0]
}

tile.instance @gemm_w4a16_f16 = @gemm_w4a16 {}
tile.instance @gemm_w4a16_bf16 = @gemm_w4a16 {T = bf16}
