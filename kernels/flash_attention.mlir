// FlashAttention forward: O = softmax(Q . K^T * scale) . V for [batch,
// heads, seq, head_dim] tensors, one block of THREADS / 128 warpgroups per BM
// query rows of one head. Key and value blocks of BN arrive by TMA through
// a pipeline of STAGES stages (defaults: 128 x 128 blocks, 3 stages, 224 KB
// of shared memory at head_dim D = 128; at 64, 112 KB, and two resident
// blocks asked for with MINB = 2, which caps the registers at 128).
// The row maximum and sum are kept online in registers, the maximum over the
// raw scores: exp(x * scale - max * scale) = exp2(x * qk - max * qk) with
// qk = scale * log2(e) is one fma and one exp2 per score (for scale > 0 the
// maximum of the raw scores is that of the scaled ones).
// The probabilities, converted to 16 bits in the accumulator's layout, are
// the register operand of the second tensor-core product, so neither the
// scores nor the probabilities leave the registers.
// Sequence lengths that are not multiples of BN are masked; with CAUSAL the
// kernel keeps key j for query row i when j <= min(i, S - 1), one compare
// per score against a per-row limit, and skips the blocks past the
// diagonal. Only the key blocks that reach the diagonal or the end of the
// sequence are masked, in a branch of the loop body. GROUP query heads
// share one key/value head (grouped-query attention; 1 for multi-head, the
// query heads for multi-query): head h reads K and V of head h / GROUP.
// WS runs the loop warp-specialised (a producer warpgroup issues the K and V
// loads); PP, with it, lets the two consumer warpgroups take turns
// (FlashAttention-3's ping-pong): a warpgroup's turn issues its P . V and
// the next block's Q . K^T, so one warpgroup's products run while the
// other computes its softmax. LONGEST_FIRST (causal only) launches the
// query blocks with the most key blocks first.
// The contracts: Q, K, V and O share batch, K and V have GROUP times fewer
// heads than Q and O, their head_dim is D, V has K's sequence and O has
// Q's.
//
// Instances:
//   attention_d64_T, attention_d128_T                 not causal
//   attention_causal_d64_T, attention_causal_d128_T   causal
// for T = f16 and bf16; attention_gqa4_d128_T and its causal twin (four
// query heads a key/value head, Llama's 32 over 8). The head_dim 128
// instances are warp-specialised (1.05-1.15x the plain loop on the H200,
// docs/Performance.md); ping-pong turns measured slower there and stay off.
// Their causal instances launch the longest query blocks first.

tile.kernel @attention(%Q: memref<?x?x?x?x!tile.param<"T">>,
    %K: memref<?x?x?x?x!tile.param<"T">>, %V: memref<?x?x?x?x!tile.param<"T">>,
    %O: memref<?x?x?x?x!tile.param<"T">>, %scale: f32)
    params {D = 128 in [64, 128], CAUSAL = false, GROUP = 1, BM = 128 in [64, 128],
            BN = 128 in [64, 128, 176], STAGES = 3 in [1, 2, 3, 4], THREADS = 256 in [128, 256],
            MINB = 1 in [1, 2], LONGEST_FIRST = false, WS = false, PP = false, T = f16 in [f16, bf16]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%Q[2] / BM, %Q[1] / 1, %Q[0] / 1] threads THREADS
    requires [%K[0] == %Q[0], %V[0] == %Q[0], %O[0] == %Q[0],
              %K[1] * GROUP == %Q[1], %V[1] == %K[1], %O[1] == %Q[1],
              %Q[3] == D, %K[3] == D, %V[3] == D, %O[3] == D, %V[2] == %K[2], %O[2] == %Q[2]]
    attributes {min_blocks_per_sm = #tile.param<"MINB">} {
  %c0 = tile.let 0
  // Causal with LONGEST_FIRST: the query blocks with the most key blocks
  // (the last ones) are launched first, so the short ones fill the GPU's
  // last wave. It pays with the producer warpgroup at head_dim 128 and
  // loses with two blocks per SM at head_dim 64 (docs/Performance.md,
  // step 27).
  %qblk = tile.let LONGEST_FIRST ? %Q[2] ceildiv BM - 1 - block_id.x : block_id.x
  %m0 = tile.let CAUSAL ? %qblk * BM : block_id.x * BM
  %b, %h, %hkv = tile.let block_id.z, block_id.y, block_id.y floordiv GROUP
  %nkv, %lastkey = tile.let %K[2] ceildiv BN, %K[2] - 1
  // Causal: key blocks past the last query row of this block are skipped.
  %nblk = tile.let CAUSAL ? min(%nkv, (%m0 + BM) ceildiv BN) : %nkv
  // The blocks before the first one that needs a mask: the one holding
  // the diagonal of the block's first query row m0 (causal; key block
  // m0 / BN, which is the query block's index only when BM == BN), or the
  // first one past the last full block.
  %nfree = tile.let CAUSAL ? min(%m0 floordiv BN, %K[2] floordiv BN) : %K[2] floordiv BN
  %ninf, %one, %log2e = tile.let -inf, 1.0, 1.4426950408889634 : f32, f32, f32
  %qk = arith.mulf %scale, %log2e : f32
  %nqk = arith.negf %qk : f32
  %q = tile.alloc_shared [BM, D] : !tile.shared<?x?x!tile.param<"T">>
  %k = tile.alloc_shared [BN, D] : !tile.shared<?x?x!tile.param<"T">>
  %v = tile.alloc_shared [BN, D] : !tile.shared<?x?x!tile.param<"T">>
  %s = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  %o = tile.alloc_fragment [BM, D] : !tile.fragment<?x?xf32>
  %m = tile.alloc_fragment [BM] : !tile.fragment<?xf32>
  %mold = tile.alloc_fragment [BM] : !tile.fragment<?xf32>
  %l = tile.alloc_fragment [BM] : !tile.fragment<?xf32>
  %alpha = tile.alloc_fragment [BM] : !tile.fragment<?xf32>
  %pf = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?x!tile.param<"T">>
  tile.copy %Q[%b, %h, %m0, %c0] -> %q
  tile.fill %o, 0.0
  tile.fill %m, -inf
  tile.fill %l, 0.0
  tile.pipelined %j to %nblk num_stages STAGES warp_specialize WS {
    %n0 = tile.let %j * BN
    tile.copy %K[%b, %hkv, %n0, %c0] -> %k
    tile.copy %V[%b, %hkv, %n0, %c0] -> %v
    // S = Q . K^T: K is N x K (K-major), the layout warpgroup MMA reads.
    tile.fill %s, 0.0
    // In flight, so that the turn passes as soon as the product is issued;
    // its wait comes where S is first read.
    tile.gemm %q, %k, %s {transpose_b, in_flight}
    tile.turn pass if PP
    // Only the blocks from the diagonal on, or past the last full
    // one, need the mask.
    %edge = arith.cmpi uge, %j, %nfree : index
    scf.if %edge {
      // Key n0 + jj is kept for query row m0 + i when n0 + jj <= S - 1
      // and, causal, n0 + jj <= m0 + i: one 32-bit compare per score.
      tile.parallel outs(%x = %s) {
        %i = tile.index 0
        %rowlast = tile.let CAUSAL ? min(%m0 + %i, %lastkey) : %lastkey
        %lim = tile.let %rowlast - %n0 : i32
        %jj = tile.index 1 : i32
        %keep = arith.cmpi sle, %jj, %lim : i32
        arith.select %keep, %x, %ninf : f32
      }
    }
    // Online softmax: new row maximum, rescale factor, probabilities.
    tile.copy %m -> %mold
    tile.reduce max %s -> %m {dim = 1 : i64}
    tile.parallel ins(%mo = %mold, %mn = %m) outs(%a = %alpha) {
      %d = arith.subf %mo, %mn : f32
      %y = arith.mulf %d, %qk : f32
      math.exp2 %y : f32
    }
    tile.parallel ins(%mx = %m[0]) outs(%x = %s) {
      %mq = arith.mulf %mx, %nqk : f32
      %y = math.fma %x, %qk, %mq : f32
      math.exp2 %y : f32
    }
    tile.parallel ins(%a = %alpha) outs(%x = %l) { arith.mulf %x, %a : f32 }
    tile.reduce sum %s -> %l {dim = 1 : i64}
    tile.parallel ins(%a = %alpha[0]) outs(%x = %o) { arith.mulf %x, %a : f32 }
    // O += P . V, with P in registers as the first operand: the scores and
    // probabilities never leave the registers.
    tile.copy %s -> %pf
    tile.turn take if PP
    tile.gemm %pf, %v, %o
  }
  // O / l, one division per row.
  tile.parallel outs(%sum = %l) { arith.divf %one, %sum : f32 }
  tile.parallel ins(%inv = %l[0]) outs(%x = %o) { arith.mulf %x, %inv : f32 }
  tile.copy %o -> %O[%b, %h, %m0, %c0]
}

tile.instance @attention_d64_f16 = @attention {D = 64, MINB = 2}
tile.instance @attention_d128_f16 = @attention {D = 128, WS = true}
tile.instance @attention_causal_d64_f16 = @attention {D = 64, MINB = 2, CAUSAL = true}
tile.instance @attention_causal_d128_f16 = @attention {D = 128, WS = true, LONGEST_FIRST = true, CAUSAL = true}
tile.instance @attention_d64_bf16 = @attention {D = 64, MINB = 2, T = bf16}
tile.instance @attention_d128_bf16 = @attention {D = 128, WS = true, T = bf16}
tile.instance @attention_causal_d64_bf16 = @attention {D = 64, MINB = 2, CAUSAL = true, T = bf16}
tile.instance @attention_causal_d128_bf16 = @attention {D = 128, WS = true, LONGEST_FIRST = true, CAUSAL = true, T = bf16}
tile.instance @attention_gqa4_d128_f16 = @attention {D = 128, WS = true, GROUP = 4}
tile.instance @attention_gqa4_causal_d128_f16 = @attention {D = 128, WS = true, LONGEST_FIRST = true, GROUP = 4, CAUSAL = true}
tile.instance @attention_gqa4_d128_bf16 = @attention {D = 128, WS = true, GROUP = 4, T = bf16}
tile.instance @attention_gqa4_causal_d128_bf16 = @attention {D = 128, WS = true, LONGEST_FIRST = true, GROUP = 4, CAUSAL = true, T = bf16}
