// Weight-only int8 GEMM (W8A16): C[M, N] = X[M, K] . (Q[N, K] * s[N])^T,
// activations X of type T (f16 or bf16), int8 weights Q kept as nn.Linear
// keeps its weight ([out_features, in_features]), one f32 scale per output
// channel. The int8 tiles arrive by TMA through the pipeline's ring with X;
// each iteration reads its stage of Q into registers, converts it there,
// and writes it to a shared tile of T that the tensor cores read K-major
// beside X. The scales apply once, to the accumulator. The body writes the
// gemm's B tile from registers, so the gemm does not stay in flight across
// iterations (gemm_c5). Rows of Q and X are 16-byte aligned (TMA): K a
// multiple of 16.
//
// A first schedule, correct before fast: the weights make two trips
// through shared memory. Register-A wgmma on the converted weights (C^T =
// W . X^T) would save one.

tile.kernel @gemm_w8a16(%X: memref<?x?x!tile.param<"T">>, %Q: memref<?x?xi8>,
                        %S: memref<?xf32>, %C: memref<?x?x!tile.param<"T">>)
    params {BM = 64 in [64, 128], BN = 64 in [64, 128], BK = 128, STAGES = 3 in [2, 3, 4],
            THREADS = 128, T = f16 in [f16, bf16]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%C[1] / BN, %C[0] / BM] threads THREADS
    requires [%Q[1] == %X[1], %C[0] == %X[0], %C[1] == %Q[0], %S[0] == %Q[0]] {
  %m0, %n0, %kt = tile.let block_id.y * BM, block_id.x * BN, %X[1] ceildiv BK
  %x = tile.alloc_shared [BM, BK] : !tile.shared<?x?x!tile.param<"T">>
  %qs = tile.alloc_shared [BN, BK] : !tile.shared<?x?xi8>
  %w = tile.alloc_shared [BN, BK] : !tile.shared<?x?x!tile.param<"T">>
  %q = tile.alloc_fragment [BN, BK] : !tile.fragment<?x?xi8>
  %wf = tile.alloc_fragment [BN, BK] : !tile.fragment<?x?xf32>
  %s = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  %acc = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  tile.copy %S[%n0] -> %s
  tile.fill %acc, 0.0
  tile.pipelined %k to %kt num_stages STAGES {
    %k0 = tile.let %k * BK
    tile.copy %X[%m0, %k0] -> %x
    tile.copy %Q[%n0, %k0] -> %qs
    tile.copy %qs -> %q
    tile.parallel ins(%v = %q) outs(%o = %wf) { arith.sitofp %v : i8 to f32 }
    tile.copy %wf -> %w
    tile.gemm %x, %w, %acc {transpose_b}
  }
  tile.parallel ins(%sc = %s[1]) outs(%a = %acc) { arith.mulf %a, %sc : f32 }
  tile.copy %acc -> %C[%m0, %n0]
}

tile.instance @gemm_w8a16_f16 = @gemm_w8a16 {}
tile.instance @gemm_w8a16_bf16 = @gemm_w8a16 {T = bf16}
