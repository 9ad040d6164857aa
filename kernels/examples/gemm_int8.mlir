// 8-bit integer GEMMs on the tensor cores, operands K-major (A [M, K] and
// W [N, K], as nn.Linear keeps W), products accumulated exactly in i32
// (m64nNk32 wgmma, s8 x s8 -> s32): gemm_c6's layout rule holds for every
// 8-bit type. gemm_fp8.mlir's schedule: one BM x BN tile of C per block, K
// walked BK (128) values at a time through a STAGES-deep pipeline of TMA
// loads. Rows of A and W are 16-byte aligned (TMA): K a multiple of 16.
//
//   @int_mm:    C = A . W^T in i32, torch._int_mm's product (exact);
//   @gemm_w8a8: C = (A . W^T) * SA[i] * SW[j] in T, per-token scales of
//               the activations and per-channel scales of the weights
//               (SmoothQuant's W8A8), applied once to the accumulator.

tile.kernel @int_mm(%A: memref<?x?xi8>, %W: memref<?x?xi8>, %C: memref<?x?xi32>)
    params {BM = 128 in [64, 128], BN = 128 in [64, 128, 256], BK = 128,
            STAGES = 4 in [2, 3, 4], THREADS = 256 in [128, 256]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%C[1] / BN, %C[0] / BM] threads THREADS
    requires [%W[1] == %A[1], %C[0] == %A[0], %C[1] == %W[0]] {
  %m0, %n0, %kt = tile.let block_id.y * BM, block_id.x * BN, %A[1] ceildiv BK
  %a = tile.alloc_shared [BM, BK] : !tile.shared<?x?xi8>
  %w = tile.alloc_shared [BN, BK] : !tile.shared<?x?xi8>
  %acc = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xi32>
  tile.fill %acc, 0
  tile.pipelined %k to %kt num_stages STAGES {
    %k0 = tile.let %k * BK
    tile.copy %A[%m0, %k0] -> %a
    tile.copy %W[%n0, %k0] -> %w
    tile.gemm %a, %w, %acc {transpose_b}
  }
  tile.copy %acc -> %C[%m0, %n0]
}

tile.kernel @gemm_w8a8(%A: memref<?x?xi8>, %W: memref<?x?xi8>, %SA: memref<?xf32>,
                       %SW: memref<?xf32>, %C: memref<?x?x!tile.param<"T">>)
    params {BM = 128 in [64, 128], BN = 128 in [64, 128, 256], BK = 128,
            STAGES = 4 in [2, 3, 4], THREADS = 256 in [128, 256], T = f16 in [f16, bf16]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%C[1] / BN, %C[0] / BM] threads THREADS
    requires [%W[1] == %A[1], %C[0] == %A[0], %C[1] == %W[0], %SA[0] == %A[0],
              %SW[0] == %W[0]] {
  %m0, %n0, %kt = tile.let block_id.y * BM, block_id.x * BN, %A[1] ceildiv BK
  %a = tile.alloc_shared [BM, BK] : !tile.shared<?x?xi8>
  %w = tile.alloc_shared [BN, BK] : !tile.shared<?x?xi8>
  %acc = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xi32>
  %c = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  %sa = tile.alloc_fragment [BM] : !tile.fragment<?xf32>
  %sw = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  %cs = tile.alloc_shared [BM, BN] : !tile.shared<?x?x!tile.param<"T">>
  tile.copy %SA[%m0] -> %sa
  tile.copy %SW[%n0] -> %sw
  tile.fill %acc, 0
  tile.pipelined %k to %kt num_stages STAGES {
    %k0 = tile.let %k * BK
    tile.copy %A[%m0, %k0] -> %a
    tile.copy %W[%n0, %k0] -> %w
    tile.gemm %a, %w, %acc {transpose_b}
  }
  tile.parallel ins(%x = %acc, %s = %sa[0], %t = %sw[1]) outs(%o = %c) {
    %f = arith.sitofp %x : i32 to f32
    %st = arith.mulf %s, %t : f32
    arith.mulf %f, %st : f32
  }
  tile.copy %c -> %cs
  tile.copy %cs -> %C[%m0, %n0]
}

tile.instance @int_mm_i32 = @int_mm {}
tile.instance @int_mm_i32_m64 = @int_mm {BM = 64, THREADS = 128, STAGES = 3}
tile.instance @gemm_w8a8_f16 = @gemm_w8a8 {}
tile.instance @gemm_w8a8_bf16 = @gemm_w8a8 {T = bf16}
