// Weight-only int4 GEMM for a few rows of activations (W4A16 at M = 2-64),
// the operands swapped: Y^T[N, M] = (Wq[N, K] * s) . X[M, K]^T, with
// gemm_w4a16.mlir's weights (signed 4-bit, packed two a byte offline: in
// each block of 256 values of K, byte j of a row holds value j in its low
// nibble and value 128 + j in its high one; Q is [N, 128 * ceil(K / 256)]
// bytes) and group-wise scales (S[ceil(K / 128), N], one f32 per output
// channel and group of 128 values of K), and gemm_w8a16_swapab.mlir's
// schedule. The output is Y transposed, row-major [N, M]: `yt.t()` is Y.
//
// BN = 64 weight rows fill the tensor cores' 64-row M side, the few
// activation rows their N side (BM = 16: wgmma's m64n16k16). The byte tile
// of a 256-deep block comes by TMA through the ring with the two matching
// 128-column tiles of X; each iteration reads its stage of bytes into
// registers in the accumulator's layout, turns each nibble into an f32
// with integer operations and one subtraction (no sign extension, no
// conversion instruction), scales it by its group's scale, and feeds the
// two 128-deep halves
// to wgmma as A operands from registers: no shared round trip and no block
// barrier for the weights. Rows of X and Q are 16-byte aligned (TMA): K a
// multiple of 16; M and N need not be multiples of the tiles.
tile.kernel @gemm_w4a16_swapab(%X: memref<?x?x!tile.param<"T">>, %Q: memref<?x?xi8>,
                               %S: memref<?x?xf32>, %YT: memref<?x?x!tile.param<"T">>)
    params {BN = 64 in [64, 128], BM = 16 in [16, 32, 64], HALF = 128,
            STAGES = 4 in [2, 3, 4, 6, 8], THREADS = 128, T = f16 in [f16, bf16]}
    where [BN mod (THREADS floordiv 2) == 0]
    grid [%YT[0] / BN, %YT[1] / BM] threads THREADS
    requires [%Q[1] == (%X[1] ceildiv 256) * 128, %YT[0] == %Q[0], %YT[1] == %X[0],
              %S[1] == %Q[0], %S[0] == %X[1] ceildiv 128] {
  %n0, %m0, %kt = tile.let block_id.x * BN, block_id.y * BM, %X[1] ceildiv (2 * HALF)
  %four, %mask, %magic = tile.let 4, 15, 1258291208 : i32, i32, i32
  %bias = tile.let 8388616.0 : f32
  %qs = tile.alloc_shared [BN, HALF] : !tile.shared<?x?xi8>
  %xlo = tile.alloc_shared [BM, HALF] : !tile.shared<?x?x!tile.param<"T">>
  %xhi = tile.alloc_shared [BM, HALF] : !tile.shared<?x?x!tile.param<"T">>
  // The weights in registers; as wgmma's A operand they take the
  // accumulator's layout (tile-infer-layouts), back to the bytes read.
  %q = tile.alloc_fragment [BN, HALF] : !tile.fragment<?x?xi8>
  %wf = tile.alloc_fragment [BN, HALF] : !tile.fragment<?x?xf32>
  %wlo = tile.alloc_fragment [BN, HALF] : !tile.fragment<?x?x!tile.param<"T">>
  %whi = tile.alloc_fragment [BN, HALF] : !tile.fragment<?x?x!tile.param<"T">>
  %slo = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  %shi = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  %acc = tile.alloc_fragment [BN, BM] : !tile.fragment<?x?xf32>
  tile.fill %acc, 0.0
  tile.pipelined %k to %kt num_stages STAGES {
    %k0, %k1, %kq = tile.let %k * 2 * HALF, %k * 2 * HALF + HALF, %k * HALF
    %glo, %ghi = tile.let 2 * %k, 2 * %k + 1
    tile.copy %Q[%n0, %kq] -> %qs
    tile.copy %X[%m0, %k0] -> %xlo
    tile.copy %X[%m0, %k1] -> %xhi
    tile.copy %S[%glo, %n0] -> %slo
    tile.copy %S[%ghi, %n0] -> %shi
    tile.copy %qs -> %q
    // A nibble t (two's complement n) to f32 without a conversion: t ^ 8
    // is n + 8 in 0..15, which goes into the low mantissa bits of 2^23;
    // subtracting 2^23 + 8 leaves n exactly.
    tile.parallel ins(%v = %q, %sc = %slo[0]) outs(%o = %wf) {
      %w = arith.extui %v : i8 to i32
      %t = arith.andi %w, %mask : i32
      %bits = arith.xori %t, %magic : i32
      %f = arith.bitcast %bits : i32 to f32
      %n = arith.subf %f, %bias : f32
      arith.mulf %n, %sc : f32
    }
    tile.copy %wf -> %wlo
    tile.parallel ins(%v = %q, %sc = %shi[0]) outs(%o = %wf) {
      %w = arith.extui %v : i8 to i32
      %t = arith.shrui %w, %four : i32
      %bits = arith.xori %t, %magic : i32
      %f = arith.bitcast %bits : i32 to f32
      %n = arith.subf %f, %bias : f32
      arith.mulf %n, %sc : f32
    }
    tile.copy %wf -> %whi
    tile.gemm %wlo, %xlo, %acc {transpose_b}
    tile.gemm %whi, %xhi, %acc {transpose_b}
  }
  tile.copy %acc -> %YT[%n0, %m0]
}

tile.instance @gemm_w4a16_swapab_f16 = @gemm_w4a16_swapab {}
tile.instance @gemm_w4a16_swapab_bf16 = @gemm_w4a16_swapab {T = bf16}
tile.instance @gemm_w4a16_swapab_m64_f16 = @gemm_w4a16_swapab {BM = 64, STAGES = 3}

// The same product with K split over SPLIT blocks (the grid's z): N / BN
// blocks of four warps leave one or two warps a scheduler at N = 4096-14336,
// and each warp's conversions then set the time. Each block converts and
// multiplies its share of the 256-deep blocks of K (their group scales
// applied as above), writes its f32 partial tile of Y^T into W[z] (SPLIT x
// N x M floats) and arrives at its tile's counter in Count (one i32 per
// tile of Y^T, zero before the first launch; every launch leaves it zero);
// the last to arrive adds the partials in the order of z and writes the
// tile once, in T (gemm_splitk_reduce.mlir's combination).
tile.kernel @gemm_w4a16_swapab_splitk(%X: memref<?x?x!tile.param<"T">>, %Q: memref<?x?xi8>,
                                      %S: memref<?x?xf32>, %YT: memref<?x?x!tile.param<"T">>,
                                      %W: memref<?x?x?xf32>, %Count: memref<?xi32>)
    params {BN = 64 in [64, 128], BM = 16 in [16, 32, 64], HALF = 128,
            STAGES = 4 in [2, 3, 4, 6, 8], THREADS = 128, SPLIT = 2 in [1, 2, 3, 4],
            T = f16 in [f16, bf16]}
    where [BN mod (THREADS floordiv 2) == 0]
    grid [%YT[0] / BN, %YT[1] / BM, SPLIT] threads THREADS
    requires [%Q[1] == (%X[1] ceildiv 256) * 128, %YT[0] == %Q[0], %YT[1] == %X[0],
              %S[1] == %Q[0], %S[0] == %X[1] ceildiv 128,
              %W[0] == SPLIT, %W[1] == %YT[0], %W[2] == %YT[1],
              %Count[0] >= (%YT[0] ceildiv BN) * (%YT[1] ceildiv BM)] {
  %c0, %c1, %split = tile.let 0, 1, SPLIT
  %bz, %n0, %m0 = tile.let block_id.z, block_id.x * BN, block_id.y * BM
  %t = tile.let block_id.y * (%YT[0] ceildiv BN) + block_id.x
  // This block's 256-deep blocks of K: [lo, hi), empty when SPLIT exceeds
  // them.
  %kt = tile.let %X[1] ceildiv (2 * HALF)
  %per = tile.let %kt ceildiv SPLIT
  %lo = tile.let min(%bz * %per, %kt)
  %hi = tile.let min(%lo + %per, %kt)
  %four, %mask, %magic = tile.let 4, 15, 1258291208 : i32, i32, i32
  %bias = tile.let 8388616.0 : f32
  %qs = tile.alloc_shared [BN, HALF] : !tile.shared<?x?xi8>
  %xlo = tile.alloc_shared [BM, HALF] : !tile.shared<?x?x!tile.param<"T">>
  %xhi = tile.alloc_shared [BM, HALF] : !tile.shared<?x?x!tile.param<"T">>
  %q = tile.alloc_fragment [BN, HALF] : !tile.fragment<?x?xi8>
  %wf = tile.alloc_fragment [BN, HALF] : !tile.fragment<?x?xf32>
  %wlo = tile.alloc_fragment [BN, HALF] : !tile.fragment<?x?x!tile.param<"T">>
  %whi = tile.alloc_fragment [BN, HALF] : !tile.fragment<?x?x!tile.param<"T">>
  %slo = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  %shi = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
  %acc = tile.alloc_fragment [BN, BM] : !tile.fragment<?x?xf32>
  %part = tile.alloc_fragment [BN, BM] : !tile.fragment<?x?xf32>
  tile.fill %acc, 0.0
  tile.pipelined %k = %lo to %hi step %c1 num_stages STAGES {
    %k0, %k1, %kq = tile.let %k * 2 * HALF, %k * 2 * HALF + HALF, %k * HALF
    %glo, %ghi = tile.let 2 * %k, 2 * %k + 1
    tile.copy %Q[%n0, %kq] -> %qs
    tile.copy %X[%m0, %k0] -> %xlo
    tile.copy %X[%m0, %k1] -> %xhi
    tile.copy %S[%glo, %n0] -> %slo
    tile.copy %S[%ghi, %n0] -> %shi
    tile.copy %qs -> %q
    tile.parallel ins(%v = %q, %sc = %slo[0]) outs(%o = %wf) {
      %w = arith.extui %v : i8 to i32
      %lo4 = arith.andi %w, %mask : i32
      %bits = arith.xori %lo4, %magic : i32
      %f = arith.bitcast %bits : i32 to f32
      %n = arith.subf %f, %bias : f32
      arith.mulf %n, %sc : f32
    }
    tile.copy %wf -> %wlo
    tile.parallel ins(%v = %q, %sc = %shi[0]) outs(%o = %wf) {
      %w = arith.extui %v : i8 to i32
      %hi4 = arith.shrui %w, %four : i32
      %bits = arith.xori %hi4, %magic : i32
      %f = arith.bitcast %bits : i32 to f32
      %n = arith.subf %f, %bias : f32
      arith.mulf %n, %sc : f32
    }
    tile.copy %wf -> %whi
    tile.gemm %wlo, %xlo, %acc {transpose_b}
    tile.gemm %whi, %xhi, %acc {transpose_b}
  }
  tile.copy %acc -> %W[%bz, %n0, %m0]
  %last = tile.arrive %Count[%t] count %split
  scf.if %last {
    tile.fill %acc, 0.0
    scf.for %z = %c0 to %split step %c1 {
      tile.copy %W[%z, %n0, %m0] -> %part
      tile.parallel ins(%p = %part) outs(%a = %acc) { arith.addf %a, %p : f32 }
    }
    tile.copy %acc -> %YT[%n0, %m0]
  }
}

tile.instance @gemm_w4a16_swapab_splitk_f16 = @gemm_w4a16_swapab_splitk {}
tile.instance @gemm_w4a16_swapab_splitk_bf16 = @gemm_w4a16_swapab_splitk {T = bf16, SPLIT = 3}
tile.instance @gemm_w4a16_swapab_splitk4_f16 = @gemm_w4a16_swapab_splitk {SPLIT = 4}
