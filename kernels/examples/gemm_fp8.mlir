// 8-bit float GEMM, C[M,N] = A[M,K] . W[N,K]^T, fp32 accumulation: the
// x . W^T of a linear layer whose activations and weights are stored in
// f8E4M3FN (or f8E5M2), both K-major, the only layout in which tensor cores
// read 8-bit operands (gemm_c6). gemm.mlir's schedule: one BM x BN tile of C
// per block, K walked BK elements (one 128-byte panel) at a time through a
// STAGES-deep pipeline of TMA loads, m64nNk32 wgmma steps, the tile of C
// staged in shared memory and stored with TMA. SCALE is the product of the
// two tensors' scales (torch._scaled_mm's scale_a * scale_b), applied once
// to the accumulator: C = SCALE . A . W^T, in TC.

tile.kernel @gemm_fp8(%A: memref<?x?x!tile.param<"T">>, %W: memref<?x?x!tile.param<"T">>,
                      %C: memref<?x?x!tile.param<"TC">>, %SCALE: f32)
    params {BM = 128 in [64, 128], BN = 256 in [64, 128, 256], BK = 128 in [128],
            STAGES = 3 in [2, 3, 4], THREADS = 256 in [128, 256],
            T = f8E4M3FN in [f8E4M3FN, f8E5M2], TC = bf16 in [f16, bf16, f32]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%C[1] / BN, %C[0] / BM] threads THREADS
    requires [%W[1] == %A[1], %C[0] == %A[0], %C[1] == %W[0]] {
  %m0, %n0, %kt = tile.let block_id.y * BM, block_id.x * BN, %A[1] ceildiv BK
  %a = tile.alloc_shared [BM, BK] : !tile.shared<?x?x!tile.param<"T">>
  %w = tile.alloc_shared [BN, BK] : !tile.shared<?x?x!tile.param<"T">>
  %acc = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  %cs = tile.alloc_shared [BM, BN] : !tile.shared<?x?x!tile.param<"TC">>
  tile.fill %acc, 0.0
  tile.pipelined %k to %kt num_stages STAGES {
    %k0 = tile.let %k * BK
    tile.copy %A[%m0, %k0] -> %a
    tile.copy %W[%n0, %k0] -> %w
    tile.gemm %a, %w, %acc {transpose_b}
  }
  tile.parallel outs(%x = %acc) { arith.mulf %x, %SCALE : f32 }
  tile.copy %acc -> %cs
  tile.copy %cs -> %C[%m0, %n0]
}

// Block-scaled 8-bit GEMM (DeepSeek-V3's recipe): every 128 values of K of
// a row of A have their own scale (SA, stored K-block major, [K/128, M],
// the layout in which torch passes 1x128 scales), and every 128 x 128 block
// of W has one (SW, [N/128, K/128]). Each K block's product is taken alone
// into P, then added to the f32 accumulator with its two scales,
// C += P * SA[kb, i] * SW[nb, kb]; BK and BN are the scales' 128, so a
// block of C sees one scale of W per K block. The gemm's result is read
// in its own iteration, so it is waited for there, while the TMA loads of
// the next stages stay in flight.
tile.kernel @gemm_fp8_blockscale(%A: memref<?x?x!tile.param<"T">>, %W: memref<?x?x!tile.param<"T">>,
                                 %SA: memref<?x?xf32>, %SW: memref<?x?xf32>,
                                 %C: memref<?x?x!tile.param<"TC">>)
    params {BM = 128 in [64, 128], BN = 128, BK = 128, STAGES = 4 in [2, 3, 4],
            THREADS = 256 in [128, 256], T = f8E4M3FN in [f8E4M3FN, f8E5M2],
            TC = bf16 in [f16, bf16, f32]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%C[1] / BN, %C[0] / BM] threads THREADS
    requires [%W[1] == %A[1], %C[0] == %A[0], %C[1] == %W[0], %SA[1] == %A[0],
              %SA[0] == %A[1] ceildiv 128, %SW[0] == %W[0] ceildiv 128,
              %SW[1] == %A[1] ceildiv 128] {
  %m0, %n0, %nb, %kt = tile.let block_id.y * BM, block_id.x * BN, block_id.x, %A[1] ceildiv BK
  %a = tile.alloc_shared [BM, BK] : !tile.shared<?x?x!tile.param<"T">>
  %w = tile.alloc_shared [BN, BK] : !tile.shared<?x?x!tile.param<"T">>
  %p = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  %acc = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  %sa = tile.alloc_fragment [BM] : !tile.fragment<?xf32>
  %cs = tile.alloc_shared [BM, BN] : !tile.shared<?x?x!tile.param<"TC">>
  tile.fill %acc, 0.0
  tile.pipelined %k to %kt num_stages STAGES {
    %k0 = tile.let %k * BK
    tile.copy %A[%m0, %k0] -> %a
    tile.copy %W[%n0, %k0] -> %w
    tile.fill %p, 0.0
    tile.gemm %a, %w, %p {transpose_b}
    tile.copy %SA[%k, %m0] -> %sa
    %sw = memref.load %SW[%nb, %k] : memref<?x?xf32>
    tile.parallel ins(%q = %p, %s = %sa[0]) outs(%c = %acc) {
      %t = arith.mulf %s, %sw : f32
      math.fma %q, %t, %c : f32
    }
  }
  tile.copy %acc -> %cs
  tile.copy %cs -> %C[%m0, %n0]
}

tile.instance @gemm_fp8_e4m3 = @gemm_fp8 {}
tile.instance @gemm_fp8_e5m2 = @gemm_fp8 {T = f8E5M2}
tile.instance @gemm_fp8_e4m3_f16 = @gemm_fp8 {TC = f16, BN = 128, THREADS = 128, BM = 64}
tile.instance @gemm_fp8_blockscale_e4m3 = @gemm_fp8_blockscale {}
tile.instance @gemm_fp8_blockscale_e4m3_m64 = @gemm_fp8_blockscale {BM = 64, THREADS = 128}
