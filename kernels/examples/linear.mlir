// C = relu(A . B + bias), nn.Linear with a ReLU, as docs/Tutorial.md builds
// it: a BM x BN tile of C per block, K walked BK at a time through a
// STAGES-deep pipeline of TMA loads into shared memory, the product on
// tensor cores into an f32 accumulator, then the epilogue in registers
// (the bias broadcast over the rows, the ReLU) and a masked store. M, N, K
// need not be multiples of the tiles; rows must be 16-byte aligned (K and
// N multiples of 8), as TMA requires.
module {
  tile.kernel @linear_relu(%A: memref<?x?x!tile.param<"T">>,
                           %B: memref<?x?x!tile.param<"T">>,
                           %bias: memref<?x!tile.param<"T">>,
                           %C: memref<?x?x!tile.param<"T">>)
      params {BM = 128, BN = 128, BK = 64, STAGES = 3, THREADS = 256, T = f16}
      space {BM = [64, 128], BN = [64, 128, 256], STAGES = [2, 3, 4],
             THREADS = [128, 256]}
      where [BM mod (THREADS floordiv 2) == 0]
      grid [%C[1] / BN, %C[0] / BM] threads THREADS
      requires [%B[0] == %A[1], %C[0] == %A[0], %C[1] == %B[1],
                %bias[0] == %B[1]] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bm = tile.param "BM" : index
    %bn = tile.param "BN" : index
    %bk = tile.param "BK" : index
    %zero = arith.constant 0.0 : f32
    %bx = tile.block_id x
    %by = tile.block_id y
    %m0 = arith.muli %by, %bm : index
    %n0 = arith.muli %bx, %bn : index
    %K = memref.dim %A, %c1 : memref<?x?x!tile.param<"T">>
    %kt = arith.ceildivui %K, %bk : index
    %a = tile.alloc_shared [%bm, %bk] : !tile.shared<?x?x!tile.param<"T">>
    %b = tile.alloc_shared [%bk, %bn] : !tile.shared<?x?x!tile.param<"T">>
    %acc = tile.alloc_fragment [%bm, %bn] : !tile.fragment<?x?xf32>
    %bv = tile.alloc_fragment [%bn] : !tile.fragment<?xf32>
    tile.fill %acc, 0.0 : !tile.fragment<?x?xf32>
    tile.pipelined %k = %c0 to %kt step %c1 num_stages STAGES {
      %k0 = arith.muli %k, %bk : index
      tile.copy %A[%m0, %k0] -> %a : memref<?x?x!tile.param<"T">> -> !tile.shared<?x?x!tile.param<"T">>
      tile.copy %B[%k0, %n0] -> %b : memref<?x?x!tile.param<"T">> -> !tile.shared<?x?x!tile.param<"T">>
      tile.gemm %a, %b, %acc : !tile.shared<?x?x!tile.param<"T">>, !tile.shared<?x?x!tile.param<"T">>, !tile.fragment<?x?xf32>
    }
    tile.copy %bias[%n0] -> %bv : memref<?x!tile.param<"T">> -> !tile.fragment<?xf32>
    tile.parallel ins(%x = %acc, %v = %bv[1] : !tile.fragment<?x?xf32>, !tile.fragment<?xf32>)
        outs(%o = %acc : !tile.fragment<?x?xf32>) {
      %s = arith.addf %x, %v : f32
      %r = arith.maximumf %s, %zero : f32
      tile.yield %r : f32
    }
    tile.copy %acc -> %C[%m0, %n0] : !tile.fragment<?x?xf32> -> memref<?x?x!tile.param<"T">>
  }

  tile.instance @linear_relu_f16 = @linear_relu {}
  tile.instance @linear_relu_bf16 = @linear_relu {T = bf16, BN = 64, THREADS = 128}
}
