// C = relu(A . B + bias), nn.Linear with a ReLU, as docs/Tutorial.md builds
// it: a BM x BN tile of C per block, K walked BK at a time through a
// STAGES-deep pipeline of TMA loads into shared memory, the product on
// tensor cores into an f32 accumulator, then the epilogue in registers
// (the bias broadcast over the rows, the ReLU) and a masked store. M, N, K
// need not be multiples of the tiles; rows must be 16-byte aligned (K and
// N multiples of 8), as TMA requires.
tile.kernel @linear_relu(%A: memref<?x?x!tile.param<"T">>,
                         %B: memref<?x?x!tile.param<"T">>,
                         %bias: memref<?x!tile.param<"T">>,
                         %C: memref<?x?x!tile.param<"T">>)
    params {BM = 128 in [64, 128], BN = 128 in [64, 128, 256], BK = 64,
            STAGES = 3 in [2, 3, 4], THREADS = 256 in [128, 256], T = f16}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%C[1] / BN, %C[0] / BM] threads THREADS
    requires [%B[0] == %A[1], %C[0] == %A[0], %C[1] == %B[1],
              %bias[0] == %B[1]] {
  %c0 = tile.let 0
  %m0, %n0, %kt = tile.let block_id.y * BM, block_id.x * BN, %A[1] ceildiv BK
  %zero = tile.let 0.0 : f32
  %a = tile.alloc_shared [BM, BK] : !tile.shared<?x?x!tile.param<"T">>
  %b = tile.alloc_shared [BK, BN] : !tile.shared<?x?x!tile.param<"T">>
  %acc = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  %bv = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  tile.fill %acc, 0.0
  tile.pipelined %k to %kt num_stages STAGES {
    %k0 = tile.let %k * BK
    tile.copy %A[%m0, %k0] -> %a
    tile.copy %B[%k0, %n0] -> %b
    tile.gemm %a, %b, %acc
  }
  tile.copy %bias[%n0] -> %bv
  tile.parallel ins(%x = %acc, %v = %bv[1]) outs(%o = %acc) {
    %s = arith.addf %x, %v : f32
    arith.maximumf %s, %zero : f32
  }
  tile.copy %acc -> %C[%m0, %n0]
}

tile.instance @linear_relu_f16 = @linear_relu {}
tile.instance @linear_relu_bf16 = @linear_relu {T = bf16, BN = 64, THREADS = 128}
