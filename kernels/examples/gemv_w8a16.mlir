// Weight-only int8 matrix-vector product (W8A16 at M = 1, a decode step):
// y[N] = (Q[N, K] * s[N]) . x[K], activations of type T (f16 or bf16), int8
// weights kept as nn.Linear keeps its weight ([out_features,
// in_features]), one f32 scale per output channel. gemm_w8a16.mlir's
// tensor-core tile would be 63/64 padding here; the time is that of
// reading Q once, half the bytes of an fp16 weight.
//
// kernels/gemv.mlir's schedule: one block per BN outputs walks K through a
// STAGES-deep TMA ring of Q's BN x BK tiles, converts each int8 weight in
// registers and multiplies it by x (loaded from global memory, the same
// for every block) into a fragment of the tile's shape; the sum over K is
// one reduction after the loop, and the scale applies to the BN sums.
// Loads past Q and x read zeros. Rows of Q are 16-byte aligned (TMA): K a
// multiple of 16. BN = 8 (512 blocks at N = 4096) measured fastest on an
// H100: 1.39-1.53x torch's fp16 x @ W.T from 4096 to 14336 outputs,
// against 1.31-1.45x with BN = 16 (docs/Performance.md, step 30).
tile.kernel @gemv_w8a16(%X: memref<?x!tile.param<"T">>, %Q: memref<?x?xi8>,
                        %S: memref<?xf32>, %Y: memref<?x!tile.param<"T">>)
    params {BN = 8 in [8, 16, 32], BK = 512 in [256, 512, 1024],
            STAGES = 4 in [2, 3, 4, 6], THREADS = 128 in [128, 256],
            T = f16 in [f16, bf16]}
    grid [%Y[0] / BN] threads THREADS
    requires [%Q[1] == %X[0], %Y[0] == %Q[0], %S[0] == %Q[0]] {
  %n0, %kt = tile.let block_id.x * BN, %X[0] ceildiv BK
  %qs = tile.alloc_shared [BN, BK] : !tile.shared<?x?xi8>
  %q = tile.alloc_fragment [BN, BK] : !tile.fragment<?x?xi8>
  %acc = tile.alloc_fragment [BN, BK] : !tile.fragment<?x?xf32>
  %x = tile.alloc_fragment [BK] : !tile.fragment<?xf32>
  %y = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  %s = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  tile.fill %acc, 0.0
  tile.pipelined %k to %kt num_stages STAGES {
    %k0 = tile.let %k * BK
    tile.copy %Q[%n0, %k0] -> %qs
    tile.copy %X[%k0] -> %x
    tile.copy %qs -> %q
    tile.parallel ins(%xv = %x[1], %qv = %q) outs(%a = %acc) {
      %w = arith.sitofp %qv : i8 to f32
      math.fma %xv, %w, %a : f32
    }
  }
  tile.reduce sum %acc -> %y {dim = 1 : i64, clear}
  tile.copy %S[%n0] -> %s
  tile.parallel ins(%sc = %s) outs(%v = %y) { arith.mulf %v, %sc : f32 }
  tile.copy %y -> %Y[%n0]
}

tile.instance @gemv_w8a16_f16 = @gemv_w8a16 {}
tile.instance @gemv_w8a16_bf16 = @gemv_w8a16 {T = bf16}
