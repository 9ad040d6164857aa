// GEMM with a fused bias + GELU epilogue: C = gelu(A . B + bias), row-major,
// fp32 accumulation; bias has N elements. The same schedule as gemm.mlir
// (128x256 tiles, two warpgroups, 4 TMA stages); the bias is loaded into
// the accumulator's column layout (before the main loop, so that its load
// latency is hidden) and the epilogue runs on the accumulator
// registers, so the pre-activation matrix never reaches global memory.
// GELU in the tanh approximation (as cuBLASLt's GELU epilogue), and in the
// erf form in @gemm_bias_gelu_erf_f16.

module {
  tile.kernel @gemm_bias_gelu_f16(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
      %bias: memref<?xf16>, %C: memref<?x?xf16>)
      grid [%C[1] / 256, %C[0] / 128] threads 256 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %kcube = arith.constant 0.044715 : f32
    %ksqrt2pi = arith.constant 0.7978845608028654 : f32
    %bx = tile.block_id x
    %by = tile.block_id y
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c256 : index
    %K = memref.dim %A, %c1 : memref<?x?xf16>
    %kt = arith.ceildivui %K, %c64 : index
    %a = tile.alloc_shared : !tile.shared<128x64xf16>
    %b = tile.alloc_shared : !tile.shared<64x256xf16>
    %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
    // The bias is loaded before the main loop, so its latency hides behind
    // the loop.
    %bv = tile.alloc_fragment : !tile.fragment<256xf32>
    tile.copy %bias[%n0] -> %bv : memref<?xf16> -> !tile.fragment<256xf32>
    tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
    tile.pipelined %k = %c0 to %kt step %c1 num_stages 4 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0] -> %a : memref<?x?xf16> -> !tile.shared<128x64xf16>
      tile.copy %B[%k0, %n0] -> %b : memref<?x?xf16> -> !tile.shared<64x256xf16>
      tile.gemm %a, %b, %acc : !tile.shared<128x64xf16>, !tile.shared<64x256xf16>, !tile.fragment<128x256xf32>
    }
    tile.parallel ins(%acc, %bv : !tile.fragment<128x256xf32>, !tile.fragment<256xf32>)
        outs(%acc : !tile.fragment<128x256xf32>) attributes {indexing_maps = [
          affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
          affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%x: f32, %bj: f32, %o: f32):
      %y = arith.addf %x, %bj : f32
      // gelu(y) = 0.5 y (1 + tanh(sqrt(2/pi) (y + 0.044715 y^3)))
      %y2 = arith.mulf %y, %y : f32
      %y3 = arith.mulf %y2, %y : f32
      %u0 = arith.mulf %y3, %kcube : f32
      %u1 = arith.addf %y, %u0 : f32
      %u2 = arith.mulf %u1, %ksqrt2pi : f32
      %th = math.tanh %u2 : f32
      %g0 = arith.addf %th, %one : f32
      %hy = arith.mulf %y, %half : f32
      %g = arith.mulf %hy, %g0 : f32
      tile.yield %g : f32
    }
    tile.copy %acc -> %C[%m0, %n0] : !tile.fragment<128x256xf32> -> memref<?x?xf16>
  }

  tile.kernel @gemm_bias_gelu_erf_f16(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
      %bias: memref<?xf16>, %C: memref<?x?xf16>)
      grid [%C[1] / 256, %C[0] / 128] threads 256 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %krsqrt2 = arith.constant 0.7071067811865476 : f32
    %bx = tile.block_id x
    %by = tile.block_id y
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c256 : index
    %K = memref.dim %A, %c1 : memref<?x?xf16>
    %kt = arith.ceildivui %K, %c64 : index
    %a = tile.alloc_shared : !tile.shared<128x64xf16>
    %b = tile.alloc_shared : !tile.shared<64x256xf16>
    %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
    // The bias is loaded before the main loop, so its latency hides behind
    // the loop.
    %bv = tile.alloc_fragment : !tile.fragment<256xf32>
    tile.copy %bias[%n0] -> %bv : memref<?xf16> -> !tile.fragment<256xf32>
    tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
    tile.pipelined %k = %c0 to %kt step %c1 num_stages 4 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0] -> %a : memref<?x?xf16> -> !tile.shared<128x64xf16>
      tile.copy %B[%k0, %n0] -> %b : memref<?x?xf16> -> !tile.shared<64x256xf16>
      tile.gemm %a, %b, %acc : !tile.shared<128x64xf16>, !tile.shared<64x256xf16>, !tile.fragment<128x256xf32>
    }
    tile.parallel ins(%acc, %bv : !tile.fragment<128x256xf32>, !tile.fragment<256xf32>)
        outs(%acc : !tile.fragment<128x256xf32>) attributes {indexing_maps = [
          affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
          affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%x: f32, %bj: f32, %o: f32):
      %y = arith.addf %x, %bj : f32
      // gelu(y) = 0.5 y (1 + erf(y / sqrt(2)))
      %u = arith.mulf %y, %krsqrt2 : f32
      %er = math.erf %u : f32
      %g0 = arith.addf %er, %one : f32
      %hy = arith.mulf %y, %half : f32
      %g = arith.mulf %hy, %g0 : f32
      tile.yield %g : f32
    }
    tile.copy %acc -> %C[%m0, %n0] : !tile.fragment<128x256xf32> -> memref<?x?xf16>
  }

  tile.kernel @gemm_bias_gelu_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
      %bias: memref<?xbf16>, %C: memref<?x?xbf16>)
      grid [%C[1] / 256, %C[0] / 128] threads 256 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %kcube = arith.constant 0.044715 : f32
    %ksqrt2pi = arith.constant 0.7978845608028654 : f32
    %bx = tile.block_id x
    %by = tile.block_id y
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c256 : index
    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    %kt = arith.ceildivui %K, %c64 : index
    %a = tile.alloc_shared : !tile.shared<128x64xbf16>
    %b = tile.alloc_shared : !tile.shared<64x256xbf16>
    %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
    // The bias is loaded before the main loop, so its latency hides behind
    // the loop.
    %bv = tile.alloc_fragment : !tile.fragment<256xf32>
    tile.copy %bias[%n0] -> %bv : memref<?xbf16> -> !tile.fragment<256xf32>
    tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
    tile.pipelined %k = %c0 to %kt step %c1 num_stages 4 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0] -> %a : memref<?x?xbf16> -> !tile.shared<128x64xbf16>
      tile.copy %B[%k0, %n0] -> %b : memref<?x?xbf16> -> !tile.shared<64x256xbf16>
      tile.gemm %a, %b, %acc : !tile.shared<128x64xbf16>, !tile.shared<64x256xbf16>, !tile.fragment<128x256xf32>
    }
    tile.parallel ins(%acc, %bv : !tile.fragment<128x256xf32>, !tile.fragment<256xf32>)
        outs(%acc : !tile.fragment<128x256xf32>) attributes {indexing_maps = [
          affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
          affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%x: f32, %bj: f32, %o: f32):
      %y = arith.addf %x, %bj : f32
      // gelu(y) = 0.5 y (1 + tanh(sqrt(2/pi) (y + 0.044715 y^3)))
      %y2 = arith.mulf %y, %y : f32
      %y3 = arith.mulf %y2, %y : f32
      %u0 = arith.mulf %y3, %kcube : f32
      %u1 = arith.addf %y, %u0 : f32
      %u2 = arith.mulf %u1, %ksqrt2pi : f32
      %th = math.tanh %u2 : f32
      %g0 = arith.addf %th, %one : f32
      %hy = arith.mulf %y, %half : f32
      %g = arith.mulf %hy, %g0 : f32
      tile.yield %g : f32
    }
    tile.copy %acc -> %C[%m0, %n0] : !tile.fragment<128x256xf32> -> memref<?x?xbf16>
  }
}
