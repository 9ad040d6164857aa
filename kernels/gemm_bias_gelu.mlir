// GEMM with a fused bias + GELU epilogue: C = gelu(A . B + bias), row-major,
// fp32 accumulation; bias has N elements. The schedule parameters are
// gemm.mlir's (defaults 128x256 tiles, two warpgroups, 4 TMA stages); the
// bias is loaded into the accumulator's column layout before the main loop
// (its load latency hides behind the loop) and the epilogue runs on the
// accumulator registers, so the pre-activation matrix never reaches global
// memory. GELU in the tanh approximation (as cuBLASLt's GELU epilogue), or
// with ERF = true in the erf form; the other form folds away when the
// kernel is specialised.

module {
  tile.kernel @gemm_bias_gelu(%A: memref<?x?x!tile.param<"T">>,
      %B: memref<?x?x!tile.param<"T">>, %bias: memref<?x!tile.param<"T">>,
      %C: memref<?x?x!tile.param<"T">>)
      params {BM = 128, BN = 256, BK = 64, STAGES = 4, THREADS = 256,
              ERF = false, T = f16}
      space {BM = [64, 128, 256], BN = [64, 128, 192, 256], BK = [64, 128],
             STAGES = [2, 3, 4, 5, 6], THREADS = [128, 256],
             T = [f16, bf16]}
      where [BM mod (THREADS floordiv 2) == 0]
      grid [%C[1] / BN, %C[0] / BM] threads THREADS
      requires [%B[0] == %A[1], %C[0] == %A[0], %C[1] == %B[1],
                %bias[0] == %B[1]] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bm = tile.param "BM" : index
    %bn = tile.param "BN" : index
    %bk = tile.param "BK" : index
    %erf = tile.param "ERF" : i1
    %zero = arith.constant 0.0 : f32
    %half = arith.constant 0.5 : f32
    %kcube = arith.constant 0.044715 : f32
    %ksqrt2pi = arith.constant 0.7978845608028654 : f32
    %krsqrt2 = arith.constant 0.7071067811865476 : f32
    %bx = tile.block_id x
    %by = tile.block_id y
    %m0 = arith.muli %by, %bm : index
    %n0 = arith.muli %bx, %bn : index
    %K = memref.dim %A, %c1 : memref<?x?x!tile.param<"T">>
    %kt = arith.ceildivui %K, %bk : index
    %a = tile.alloc_shared [%bm, %bk] : !tile.shared<?x?x!tile.param<"T">>
    %b = tile.alloc_shared [%bk, %bn] : !tile.shared<?x?x!tile.param<"T">>
    %acc = tile.alloc_fragment [%bm, %bn] : !tile.fragment<?x?xf32>
    // The bias is loaded before the main loop, so its latency hides behind
    // the loop.
    %bv = tile.alloc_fragment [%bn] : !tile.fragment<?xf32>
    tile.copy %bias[%n0] -> %bv : memref<?x!tile.param<"T">> -> !tile.fragment<?xf32>
    tile.fill %acc, %zero : !tile.fragment<?x?xf32>, f32
    tile.pipelined %k = %c0 to %kt step %c1 num_stages STAGES {
      %k0 = arith.muli %k, %bk : index
      tile.copy %A[%m0, %k0] -> %a : memref<?x?x!tile.param<"T">> -> !tile.shared<?x?x!tile.param<"T">>
      tile.copy %B[%k0, %n0] -> %b : memref<?x?x!tile.param<"T">> -> !tile.shared<?x?x!tile.param<"T">>
      tile.gemm %a, %b, %acc : !tile.shared<?x?x!tile.param<"T">>, !tile.shared<?x?x!tile.param<"T">>, !tile.fragment<?x?xf32>
    }
    tile.parallel ins(%acc, %bv : !tile.fragment<?x?xf32>, !tile.fragment<?xf32>)
        outs(%acc : !tile.fragment<?x?xf32>) attributes {indexing_maps = [
          affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
          affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%x: f32, %bj: f32, %o: f32):
      %y = arith.addf %x, %bj : f32
      %t = scf.if %erf -> f32 {
        // erf(y / sqrt(2))
        %u = arith.mulf %y, %krsqrt2 : f32
        %er = math.erf %u : f32
        scf.yield %er : f32
      } else {
        // tanh(sqrt(2/pi) (y + 0.044715 y^3))
        %y2 = arith.mulf %y, %y : f32
        %y3 = arith.mulf %y2, %y : f32
        %u0 = arith.mulf %y3, %kcube : f32
        %u1 = arith.addf %y, %u0 : f32
        %u = arith.mulf %u1, %ksqrt2pi : f32
        %th = math.tanh %u : f32
        scf.yield %th : f32
      }
      // y/2 (1 + t) as y/2 t + y/2: one fma once contracted.
      %hy = arith.mulf %y, %half : f32
      %ht = arith.mulf %hy, %t : f32
      %g = arith.addf %ht, %hy : f32
      tile.yield %g : f32
    }
    tile.copy %acc -> %C[%m0, %n0] : !tile.fragment<?x?xf32> -> memref<?x?x!tile.param<"T">>
  }

  tile.instance @gemm_bias_gelu_f16 = @gemm_bias_gelu {}
  tile.instance @gemm_bias_gelu_erf_f16 = @gemm_bias_gelu {ERF = true}
  tile.instance @gemm_bias_gelu_bf16 = @gemm_bias_gelu {T = bf16}
}
