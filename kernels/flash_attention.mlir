// FlashAttention forward: O = softmax(Q . K^T * scale) . V for [batch,
// heads, seq, head_dim] tensors, one block of two warpgroups per 128 query
// rows of one head. Key and value blocks of 128 arrive by TMA through a
// pipeline of 3 stages (224 KB of shared memory at head_dim 128; at 64,
// 112 KB, and two resident blocks asked for, which caps the registers at 128).
// The row maximum and sum are kept online in registers, the maximum over the
// raw scores: exp(x * scale - max * scale) = exp2(x * qk - max * qk) with
// qk = scale * log2(e) is one fma and one exp2 per score (for scale > 0 the
// maximum of the raw scores is that of the scaled ones).
// The probabilities, converted to 16 bits in the accumulator's layout, are
// the register operand of the second tensor-core product, so neither the
// scores nor the probabilities leave the registers.
// Sequence lengths that are not multiples of 128 are masked; the causal
// kernels keep key j for query row i when j <= min(i, S - 1), one compare
// per score against a per-row limit, and skip the blocks past the diagonal.
// Only the key blocks that reach the diagonal or the end of the sequence
// are masked, in a branch of the loop body.
//
//   attention_d64_T, attention_d128_T                 not causal
//   attention_causal_d64_T, attention_causal_d128_T   causal
// for T = f16 and bf16.

module {
  tile.kernel @attention_d64_f16(%Q: memref<?x?x?x?xf16>, %K: memref<?x?x?x?xf16>,
      %V: memref<?x?x?x?xf16>, %O: memref<?x?x?x?xf16>, %scale: f32)
      grid [%Q[2] / 128, %Q[1] / 1, %Q[0] / 1] threads 256 attributes {min_blocks_per_sm = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %cbm = arith.constant 128 : index
    %cbn = arith.constant 128 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %log2e = arith.constant 1.4426950408889634 : f32
    %qb = tile.block_id x
    %h = tile.block_id y
    %b = tile.block_id z
    %m0 = arith.muli %qb, %cbm : index
    %skv = memref.dim %K, %c2 : memref<?x?x?x?xf16>
    %nkv = arith.ceildivui %skv, %cbn : index
    %lastkey = arith.subi %skv, %c1 : index
    %nfull = arith.divui %skv, %cbn : index
    %nfree = arith.addi %nfull, %c0 : index
    %qk = arith.mulf %scale, %log2e : f32
    %nqk = arith.negf %qk : f32
    %q = tile.alloc_shared : !tile.shared<128x64xf16>
    %k = tile.alloc_shared : !tile.shared<128x64xf16>
    %v = tile.alloc_shared : !tile.shared<128x64xf16>
    %s = tile.alloc_fragment : !tile.fragment<128x128xf32>
    %o = tile.alloc_fragment : !tile.fragment<128x64xf32>
    %m = tile.alloc_fragment : !tile.fragment<128xf32>
    %mold = tile.alloc_fragment : !tile.fragment<128xf32>
    %l = tile.alloc_fragment : !tile.fragment<128xf32>
    %alpha = tile.alloc_fragment : !tile.fragment<128xf32>
    %pf = tile.alloc_fragment : !tile.fragment<128x128xf16>
    tile.copy %Q[%b, %h, %m0, %c0] -> %q : memref<?x?x?x?xf16> -> !tile.shared<128x64xf16>
    tile.fill %o, %zero : !tile.fragment<128x64xf32>, f32
    tile.fill %m, %ninf : !tile.fragment<128xf32>, f32
    tile.fill %l, %zero : !tile.fragment<128xf32>, f32
    tile.pipelined %j = %c0 to %nkv step %c1 num_stages 3 {
      %n0 = arith.muli %j, %cbn : index
      tile.copy %K[%b, %h, %n0, %c0] -> %k : memref<?x?x?x?xf16> -> !tile.shared<128x64xf16>
      tile.copy %V[%b, %h, %n0, %c0] -> %v : memref<?x?x?x?xf16> -> !tile.shared<128x64xf16>
      // S = Q . K^T: K is N x K (K-major), the layout warpgroup MMA reads.
      tile.fill %s, %zero : !tile.fragment<128x128xf32>, f32
      tile.gemm %q, %k, %s {transpose_b} : !tile.shared<128x64xf16>, !tile.shared<128x64xf16>, !tile.fragment<128x128xf32>
      // Only the blocks from the diagonal on, or past the last full
      // one, need the mask.
      %edge = arith.cmpi uge, %j, %nfree : index
      scf.if %edge {
        // Key n0 + jj is kept when n0 + jj <= S - 1.
        %lim = arith.subi %lastkey, %n0 : index
        %lim32 = arith.index_cast %lim : index to i32
        tile.parallel outs(%s : !tile.fragment<128x128xf32>) attributes {
            indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
        ^bb0(%x: f32):
          %jj = tile.index 1
          %j32 = arith.index_cast %jj : index to i32
          %keep = arith.cmpi sle, %j32, %lim32 : i32
          %w = arith.select %keep, %x, %ninf : f32
          tile.yield %w : f32
        }
      }
      // Online softmax: new row maximum, rescale factor, probabilities.
      tile.copy %m -> %mold : !tile.fragment<128xf32> -> !tile.fragment<128xf32>
      tile.reduce max %s -> %m {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%mold, %m : !tile.fragment<128xf32>, !tile.fragment<128xf32>)
          outs(%alpha : !tile.fragment<128xf32>) attributes {indexing_maps = [
            affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%mo: f32, %mn: f32, %a: f32):
        %d = arith.subf %mo, %mn : f32
        %y = arith.mulf %d, %qk : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%m : !tile.fragment<128xf32>) outs(%s : !tile.fragment<128x128xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%mx: f32, %x: f32):
        %mq = arith.mulf %mx, %nqk : f32
        %y = math.fma %x, %qk, %mq : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%l : !tile.fragment<128xf32>)
          attributes {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      tile.reduce sum %s -> %l {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x64xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      // O += P . V, with P in registers as the first operand: the scores and
      // probabilities never leave the registers.
      tile.copy %s -> %pf : !tile.fragment<128x128xf32> -> !tile.fragment<128x128xf16>
      tile.gemm %pf, %v, %o : !tile.fragment<128x128xf16>, !tile.shared<128x64xf16>, !tile.fragment<128x64xf32>
    }
    // O / l, one division per row.
    tile.parallel outs(%l : !tile.fragment<128xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.parallel ins(%l : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x64xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%inv: f32, %x: f32):
      %r = arith.mulf %x, %inv : f32
      tile.yield %r : f32
    }
    tile.copy %o -> %O[%b, %h, %m0, %c0] : !tile.fragment<128x64xf32> -> memref<?x?x?x?xf16>
  }

  tile.kernel @attention_d128_f16(%Q: memref<?x?x?x?xf16>, %K: memref<?x?x?x?xf16>,
      %V: memref<?x?x?x?xf16>, %O: memref<?x?x?x?xf16>, %scale: f32)
      grid [%Q[2] / 128, %Q[1] / 1, %Q[0] / 1] threads 256 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %cbm = arith.constant 128 : index
    %cbn = arith.constant 128 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %log2e = arith.constant 1.4426950408889634 : f32
    %qb = tile.block_id x
    %h = tile.block_id y
    %b = tile.block_id z
    %m0 = arith.muli %qb, %cbm : index
    %skv = memref.dim %K, %c2 : memref<?x?x?x?xf16>
    %nkv = arith.ceildivui %skv, %cbn : index
    %lastkey = arith.subi %skv, %c1 : index
    %nfull = arith.divui %skv, %cbn : index
    %nfree = arith.addi %nfull, %c0 : index
    %qk = arith.mulf %scale, %log2e : f32
    %nqk = arith.negf %qk : f32
    %q = tile.alloc_shared : !tile.shared<128x128xf16>
    %k = tile.alloc_shared : !tile.shared<128x128xf16>
    %v = tile.alloc_shared : !tile.shared<128x128xf16>
    %s = tile.alloc_fragment : !tile.fragment<128x128xf32>
    %o = tile.alloc_fragment : !tile.fragment<128x128xf32>
    %m = tile.alloc_fragment : !tile.fragment<128xf32>
    %mold = tile.alloc_fragment : !tile.fragment<128xf32>
    %l = tile.alloc_fragment : !tile.fragment<128xf32>
    %alpha = tile.alloc_fragment : !tile.fragment<128xf32>
    %pf = tile.alloc_fragment : !tile.fragment<128x128xf16>
    tile.copy %Q[%b, %h, %m0, %c0] -> %q : memref<?x?x?x?xf16> -> !tile.shared<128x128xf16>
    tile.fill %o, %zero : !tile.fragment<128x128xf32>, f32
    tile.fill %m, %ninf : !tile.fragment<128xf32>, f32
    tile.fill %l, %zero : !tile.fragment<128xf32>, f32
    tile.pipelined %j = %c0 to %nkv step %c1 num_stages 3 {
      %n0 = arith.muli %j, %cbn : index
      tile.copy %K[%b, %h, %n0, %c0] -> %k : memref<?x?x?x?xf16> -> !tile.shared<128x128xf16>
      tile.copy %V[%b, %h, %n0, %c0] -> %v : memref<?x?x?x?xf16> -> !tile.shared<128x128xf16>
      // S = Q . K^T: K is N x K (K-major), the layout warpgroup MMA reads.
      tile.fill %s, %zero : !tile.fragment<128x128xf32>, f32
      tile.gemm %q, %k, %s {transpose_b} : !tile.shared<128x128xf16>, !tile.shared<128x128xf16>, !tile.fragment<128x128xf32>
      // Only the blocks from the diagonal on, or past the last full
      // one, need the mask.
      %edge = arith.cmpi uge, %j, %nfree : index
      scf.if %edge {
        // Key n0 + jj is kept when n0 + jj <= S - 1.
        %lim = arith.subi %lastkey, %n0 : index
        %lim32 = arith.index_cast %lim : index to i32
        tile.parallel outs(%s : !tile.fragment<128x128xf32>) attributes {
            indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
        ^bb0(%x: f32):
          %jj = tile.index 1
          %j32 = arith.index_cast %jj : index to i32
          %keep = arith.cmpi sle, %j32, %lim32 : i32
          %w = arith.select %keep, %x, %ninf : f32
          tile.yield %w : f32
        }
      }
      // Online softmax: new row maximum, rescale factor, probabilities.
      tile.copy %m -> %mold : !tile.fragment<128xf32> -> !tile.fragment<128xf32>
      tile.reduce max %s -> %m {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%mold, %m : !tile.fragment<128xf32>, !tile.fragment<128xf32>)
          outs(%alpha : !tile.fragment<128xf32>) attributes {indexing_maps = [
            affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%mo: f32, %mn: f32, %a: f32):
        %d = arith.subf %mo, %mn : f32
        %y = arith.mulf %d, %qk : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%m : !tile.fragment<128xf32>) outs(%s : !tile.fragment<128x128xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%mx: f32, %x: f32):
        %mq = arith.mulf %mx, %nqk : f32
        %y = math.fma %x, %qk, %mq : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%l : !tile.fragment<128xf32>)
          attributes {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      tile.reduce sum %s -> %l {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x128xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      // O += P . V, with P in registers as the first operand: the scores and
      // probabilities never leave the registers.
      tile.copy %s -> %pf : !tile.fragment<128x128xf32> -> !tile.fragment<128x128xf16>
      tile.gemm %pf, %v, %o : !tile.fragment<128x128xf16>, !tile.shared<128x128xf16>, !tile.fragment<128x128xf32>
    }
    // O / l, one division per row.
    tile.parallel outs(%l : !tile.fragment<128xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.parallel ins(%l : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x128xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%inv: f32, %x: f32):
      %r = arith.mulf %x, %inv : f32
      tile.yield %r : f32
    }
    tile.copy %o -> %O[%b, %h, %m0, %c0] : !tile.fragment<128x128xf32> -> memref<?x?x?x?xf16>
  }

  tile.kernel @attention_causal_d64_f16(%Q: memref<?x?x?x?xf16>, %K: memref<?x?x?x?xf16>,
      %V: memref<?x?x?x?xf16>, %O: memref<?x?x?x?xf16>, %scale: f32)
      grid [%Q[2] / 128, %Q[1] / 1, %Q[0] / 1] threads 256 attributes {min_blocks_per_sm = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %cbm = arith.constant 128 : index
    %cbn = arith.constant 128 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %log2e = arith.constant 1.4426950408889634 : f32
    %qb = tile.block_id x
    %h = tile.block_id y
    %b = tile.block_id z
    %m0 = arith.muli %qb, %cbm : index
    %skv = memref.dim %K, %c2 : memref<?x?x?x?xf16>
    %nkv = arith.ceildivui %skv, %cbn : index
    // Causal: key blocks past the last query row of this block are skipped.
    %last = arith.addi %m0, %cbm : index
    %lastblk = arith.ceildivui %last, %cbn : index
    %nblk = arith.minui %nkv, %lastblk : index
    %lastkey = arith.subi %skv, %c1 : index
    %nfull = arith.divui %skv, %cbn : index
    %nfree = arith.minui %qb, %nfull : index
    %qk = arith.mulf %scale, %log2e : f32
    %nqk = arith.negf %qk : f32
    %q = tile.alloc_shared : !tile.shared<128x64xf16>
    %k = tile.alloc_shared : !tile.shared<128x64xf16>
    %v = tile.alloc_shared : !tile.shared<128x64xf16>
    %s = tile.alloc_fragment : !tile.fragment<128x128xf32>
    %o = tile.alloc_fragment : !tile.fragment<128x64xf32>
    %m = tile.alloc_fragment : !tile.fragment<128xf32>
    %mold = tile.alloc_fragment : !tile.fragment<128xf32>
    %l = tile.alloc_fragment : !tile.fragment<128xf32>
    %alpha = tile.alloc_fragment : !tile.fragment<128xf32>
    %pf = tile.alloc_fragment : !tile.fragment<128x128xf16>
    tile.copy %Q[%b, %h, %m0, %c0] -> %q : memref<?x?x?x?xf16> -> !tile.shared<128x64xf16>
    tile.fill %o, %zero : !tile.fragment<128x64xf32>, f32
    tile.fill %m, %ninf : !tile.fragment<128xf32>, f32
    tile.fill %l, %zero : !tile.fragment<128xf32>, f32
    tile.pipelined %j = %c0 to %nblk step %c1 num_stages 3 {
      %n0 = arith.muli %j, %cbn : index
      tile.copy %K[%b, %h, %n0, %c0] -> %k : memref<?x?x?x?xf16> -> !tile.shared<128x64xf16>
      tile.copy %V[%b, %h, %n0, %c0] -> %v : memref<?x?x?x?xf16> -> !tile.shared<128x64xf16>
      // S = Q . K^T: K is N x K (K-major), the layout warpgroup MMA reads.
      tile.fill %s, %zero : !tile.fragment<128x128xf32>, f32
      tile.gemm %q, %k, %s {transpose_b} : !tile.shared<128x64xf16>, !tile.shared<128x64xf16>, !tile.fragment<128x128xf32>
      // Only the blocks from the diagonal on, or past the last full
      // one, need the mask.
      %edge = arith.cmpi uge, %j, %nfree : index
      scf.if %edge {
        // Key n0 + jj is kept for query row m0 + i when n0 + jj <= min(m0 + i, S - 1).
        tile.parallel outs(%s : !tile.fragment<128x128xf32>) attributes {
            indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
        ^bb0(%x: f32):
          %i = tile.index 0
          %row = arith.addi %m0, %i : index
          %rowlast = arith.minui %row, %lastkey : index
          %lim = arith.subi %rowlast, %n0 : index
          %lim32 = arith.index_cast %lim : index to i32
          %jj = tile.index 1
          %j32 = arith.index_cast %jj : index to i32
          %keep = arith.cmpi sle, %j32, %lim32 : i32
          %w = arith.select %keep, %x, %ninf : f32
          tile.yield %w : f32
        }
      }
      // Online softmax: new row maximum, rescale factor, probabilities.
      tile.copy %m -> %mold : !tile.fragment<128xf32> -> !tile.fragment<128xf32>
      tile.reduce max %s -> %m {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%mold, %m : !tile.fragment<128xf32>, !tile.fragment<128xf32>)
          outs(%alpha : !tile.fragment<128xf32>) attributes {indexing_maps = [
            affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%mo: f32, %mn: f32, %a: f32):
        %d = arith.subf %mo, %mn : f32
        %y = arith.mulf %d, %qk : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%m : !tile.fragment<128xf32>) outs(%s : !tile.fragment<128x128xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%mx: f32, %x: f32):
        %mq = arith.mulf %mx, %nqk : f32
        %y = math.fma %x, %qk, %mq : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%l : !tile.fragment<128xf32>)
          attributes {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      tile.reduce sum %s -> %l {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x64xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      // O += P . V, with P in registers as the first operand: the scores and
      // probabilities never leave the registers.
      tile.copy %s -> %pf : !tile.fragment<128x128xf32> -> !tile.fragment<128x128xf16>
      tile.gemm %pf, %v, %o : !tile.fragment<128x128xf16>, !tile.shared<128x64xf16>, !tile.fragment<128x64xf32>
    }
    // O / l, one division per row.
    tile.parallel outs(%l : !tile.fragment<128xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.parallel ins(%l : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x64xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%inv: f32, %x: f32):
      %r = arith.mulf %x, %inv : f32
      tile.yield %r : f32
    }
    tile.copy %o -> %O[%b, %h, %m0, %c0] : !tile.fragment<128x64xf32> -> memref<?x?x?x?xf16>
  }

  tile.kernel @attention_causal_d128_f16(%Q: memref<?x?x?x?xf16>, %K: memref<?x?x?x?xf16>,
      %V: memref<?x?x?x?xf16>, %O: memref<?x?x?x?xf16>, %scale: f32)
      grid [%Q[2] / 128, %Q[1] / 1, %Q[0] / 1] threads 256 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %cbm = arith.constant 128 : index
    %cbn = arith.constant 128 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %log2e = arith.constant 1.4426950408889634 : f32
    %qb = tile.block_id x
    %h = tile.block_id y
    %b = tile.block_id z
    %m0 = arith.muli %qb, %cbm : index
    %skv = memref.dim %K, %c2 : memref<?x?x?x?xf16>
    %nkv = arith.ceildivui %skv, %cbn : index
    // Causal: key blocks past the last query row of this block are skipped.
    %last = arith.addi %m0, %cbm : index
    %lastblk = arith.ceildivui %last, %cbn : index
    %nblk = arith.minui %nkv, %lastblk : index
    %lastkey = arith.subi %skv, %c1 : index
    %nfull = arith.divui %skv, %cbn : index
    %nfree = arith.minui %qb, %nfull : index
    %qk = arith.mulf %scale, %log2e : f32
    %nqk = arith.negf %qk : f32
    %q = tile.alloc_shared : !tile.shared<128x128xf16>
    %k = tile.alloc_shared : !tile.shared<128x128xf16>
    %v = tile.alloc_shared : !tile.shared<128x128xf16>
    %s = tile.alloc_fragment : !tile.fragment<128x128xf32>
    %o = tile.alloc_fragment : !tile.fragment<128x128xf32>
    %m = tile.alloc_fragment : !tile.fragment<128xf32>
    %mold = tile.alloc_fragment : !tile.fragment<128xf32>
    %l = tile.alloc_fragment : !tile.fragment<128xf32>
    %alpha = tile.alloc_fragment : !tile.fragment<128xf32>
    %pf = tile.alloc_fragment : !tile.fragment<128x128xf16>
    tile.copy %Q[%b, %h, %m0, %c0] -> %q : memref<?x?x?x?xf16> -> !tile.shared<128x128xf16>
    tile.fill %o, %zero : !tile.fragment<128x128xf32>, f32
    tile.fill %m, %ninf : !tile.fragment<128xf32>, f32
    tile.fill %l, %zero : !tile.fragment<128xf32>, f32
    tile.pipelined %j = %c0 to %nblk step %c1 num_stages 3 {
      %n0 = arith.muli %j, %cbn : index
      tile.copy %K[%b, %h, %n0, %c0] -> %k : memref<?x?x?x?xf16> -> !tile.shared<128x128xf16>
      tile.copy %V[%b, %h, %n0, %c0] -> %v : memref<?x?x?x?xf16> -> !tile.shared<128x128xf16>
      // S = Q . K^T: K is N x K (K-major), the layout warpgroup MMA reads.
      tile.fill %s, %zero : !tile.fragment<128x128xf32>, f32
      tile.gemm %q, %k, %s {transpose_b} : !tile.shared<128x128xf16>, !tile.shared<128x128xf16>, !tile.fragment<128x128xf32>
      // Only the blocks from the diagonal on, or past the last full
      // one, need the mask.
      %edge = arith.cmpi uge, %j, %nfree : index
      scf.if %edge {
        // Key n0 + jj is kept for query row m0 + i when n0 + jj <= min(m0 + i, S - 1).
        tile.parallel outs(%s : !tile.fragment<128x128xf32>) attributes {
            indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
        ^bb0(%x: f32):
          %i = tile.index 0
          %row = arith.addi %m0, %i : index
          %rowlast = arith.minui %row, %lastkey : index
          %lim = arith.subi %rowlast, %n0 : index
          %lim32 = arith.index_cast %lim : index to i32
          %jj = tile.index 1
          %j32 = arith.index_cast %jj : index to i32
          %keep = arith.cmpi sle, %j32, %lim32 : i32
          %w = arith.select %keep, %x, %ninf : f32
          tile.yield %w : f32
        }
      }
      // Online softmax: new row maximum, rescale factor, probabilities.
      tile.copy %m -> %mold : !tile.fragment<128xf32> -> !tile.fragment<128xf32>
      tile.reduce max %s -> %m {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%mold, %m : !tile.fragment<128xf32>, !tile.fragment<128xf32>)
          outs(%alpha : !tile.fragment<128xf32>) attributes {indexing_maps = [
            affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%mo: f32, %mn: f32, %a: f32):
        %d = arith.subf %mo, %mn : f32
        %y = arith.mulf %d, %qk : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%m : !tile.fragment<128xf32>) outs(%s : !tile.fragment<128x128xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%mx: f32, %x: f32):
        %mq = arith.mulf %mx, %nqk : f32
        %y = math.fma %x, %qk, %mq : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%l : !tile.fragment<128xf32>)
          attributes {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      tile.reduce sum %s -> %l {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x128xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      // O += P . V, with P in registers as the first operand: the scores and
      // probabilities never leave the registers.
      tile.copy %s -> %pf : !tile.fragment<128x128xf32> -> !tile.fragment<128x128xf16>
      tile.gemm %pf, %v, %o : !tile.fragment<128x128xf16>, !tile.shared<128x128xf16>, !tile.fragment<128x128xf32>
    }
    // O / l, one division per row.
    tile.parallel outs(%l : !tile.fragment<128xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.parallel ins(%l : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x128xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%inv: f32, %x: f32):
      %r = arith.mulf %x, %inv : f32
      tile.yield %r : f32
    }
    tile.copy %o -> %O[%b, %h, %m0, %c0] : !tile.fragment<128x128xf32> -> memref<?x?x?x?xf16>
  }

  tile.kernel @attention_d64_bf16(%Q: memref<?x?x?x?xbf16>, %K: memref<?x?x?x?xbf16>,
      %V: memref<?x?x?x?xbf16>, %O: memref<?x?x?x?xbf16>, %scale: f32)
      grid [%Q[2] / 128, %Q[1] / 1, %Q[0] / 1] threads 256 attributes {min_blocks_per_sm = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %cbm = arith.constant 128 : index
    %cbn = arith.constant 128 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %log2e = arith.constant 1.4426950408889634 : f32
    %qb = tile.block_id x
    %h = tile.block_id y
    %b = tile.block_id z
    %m0 = arith.muli %qb, %cbm : index
    %skv = memref.dim %K, %c2 : memref<?x?x?x?xbf16>
    %nkv = arith.ceildivui %skv, %cbn : index
    %lastkey = arith.subi %skv, %c1 : index
    %nfull = arith.divui %skv, %cbn : index
    %nfree = arith.addi %nfull, %c0 : index
    %qk = arith.mulf %scale, %log2e : f32
    %nqk = arith.negf %qk : f32
    %q = tile.alloc_shared : !tile.shared<128x64xbf16>
    %k = tile.alloc_shared : !tile.shared<128x64xbf16>
    %v = tile.alloc_shared : !tile.shared<128x64xbf16>
    %s = tile.alloc_fragment : !tile.fragment<128x128xf32>
    %o = tile.alloc_fragment : !tile.fragment<128x64xf32>
    %m = tile.alloc_fragment : !tile.fragment<128xf32>
    %mold = tile.alloc_fragment : !tile.fragment<128xf32>
    %l = tile.alloc_fragment : !tile.fragment<128xf32>
    %alpha = tile.alloc_fragment : !tile.fragment<128xf32>
    %pf = tile.alloc_fragment : !tile.fragment<128x128xbf16>
    tile.copy %Q[%b, %h, %m0, %c0] -> %q : memref<?x?x?x?xbf16> -> !tile.shared<128x64xbf16>
    tile.fill %o, %zero : !tile.fragment<128x64xf32>, f32
    tile.fill %m, %ninf : !tile.fragment<128xf32>, f32
    tile.fill %l, %zero : !tile.fragment<128xf32>, f32
    tile.pipelined %j = %c0 to %nkv step %c1 num_stages 3 {
      %n0 = arith.muli %j, %cbn : index
      tile.copy %K[%b, %h, %n0, %c0] -> %k : memref<?x?x?x?xbf16> -> !tile.shared<128x64xbf16>
      tile.copy %V[%b, %h, %n0, %c0] -> %v : memref<?x?x?x?xbf16> -> !tile.shared<128x64xbf16>
      // S = Q . K^T: K is N x K (K-major), the layout warpgroup MMA reads.
      tile.fill %s, %zero : !tile.fragment<128x128xf32>, f32
      tile.gemm %q, %k, %s {transpose_b} : !tile.shared<128x64xbf16>, !tile.shared<128x64xbf16>, !tile.fragment<128x128xf32>
      // Only the blocks from the diagonal on, or past the last full
      // one, need the mask.
      %edge = arith.cmpi uge, %j, %nfree : index
      scf.if %edge {
        // Key n0 + jj is kept when n0 + jj <= S - 1.
        %lim = arith.subi %lastkey, %n0 : index
        %lim32 = arith.index_cast %lim : index to i32
        tile.parallel outs(%s : !tile.fragment<128x128xf32>) attributes {
            indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
        ^bb0(%x: f32):
          %jj = tile.index 1
          %j32 = arith.index_cast %jj : index to i32
          %keep = arith.cmpi sle, %j32, %lim32 : i32
          %w = arith.select %keep, %x, %ninf : f32
          tile.yield %w : f32
        }
      }
      // Online softmax: new row maximum, rescale factor, probabilities.
      tile.copy %m -> %mold : !tile.fragment<128xf32> -> !tile.fragment<128xf32>
      tile.reduce max %s -> %m {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%mold, %m : !tile.fragment<128xf32>, !tile.fragment<128xf32>)
          outs(%alpha : !tile.fragment<128xf32>) attributes {indexing_maps = [
            affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%mo: f32, %mn: f32, %a: f32):
        %d = arith.subf %mo, %mn : f32
        %y = arith.mulf %d, %qk : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%m : !tile.fragment<128xf32>) outs(%s : !tile.fragment<128x128xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%mx: f32, %x: f32):
        %mq = arith.mulf %mx, %nqk : f32
        %y = math.fma %x, %qk, %mq : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%l : !tile.fragment<128xf32>)
          attributes {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      tile.reduce sum %s -> %l {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x64xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      // O += P . V, with P in registers as the first operand: the scores and
      // probabilities never leave the registers.
      tile.copy %s -> %pf : !tile.fragment<128x128xf32> -> !tile.fragment<128x128xbf16>
      tile.gemm %pf, %v, %o : !tile.fragment<128x128xbf16>, !tile.shared<128x64xbf16>, !tile.fragment<128x64xf32>
    }
    // O / l, one division per row.
    tile.parallel outs(%l : !tile.fragment<128xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.parallel ins(%l : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x64xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%inv: f32, %x: f32):
      %r = arith.mulf %x, %inv : f32
      tile.yield %r : f32
    }
    tile.copy %o -> %O[%b, %h, %m0, %c0] : !tile.fragment<128x64xf32> -> memref<?x?x?x?xbf16>
  }

  tile.kernel @attention_d128_bf16(%Q: memref<?x?x?x?xbf16>, %K: memref<?x?x?x?xbf16>,
      %V: memref<?x?x?x?xbf16>, %O: memref<?x?x?x?xbf16>, %scale: f32)
      grid [%Q[2] / 128, %Q[1] / 1, %Q[0] / 1] threads 256 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %cbm = arith.constant 128 : index
    %cbn = arith.constant 128 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %log2e = arith.constant 1.4426950408889634 : f32
    %qb = tile.block_id x
    %h = tile.block_id y
    %b = tile.block_id z
    %m0 = arith.muli %qb, %cbm : index
    %skv = memref.dim %K, %c2 : memref<?x?x?x?xbf16>
    %nkv = arith.ceildivui %skv, %cbn : index
    %lastkey = arith.subi %skv, %c1 : index
    %nfull = arith.divui %skv, %cbn : index
    %nfree = arith.addi %nfull, %c0 : index
    %qk = arith.mulf %scale, %log2e : f32
    %nqk = arith.negf %qk : f32
    %q = tile.alloc_shared : !tile.shared<128x128xbf16>
    %k = tile.alloc_shared : !tile.shared<128x128xbf16>
    %v = tile.alloc_shared : !tile.shared<128x128xbf16>
    %s = tile.alloc_fragment : !tile.fragment<128x128xf32>
    %o = tile.alloc_fragment : !tile.fragment<128x128xf32>
    %m = tile.alloc_fragment : !tile.fragment<128xf32>
    %mold = tile.alloc_fragment : !tile.fragment<128xf32>
    %l = tile.alloc_fragment : !tile.fragment<128xf32>
    %alpha = tile.alloc_fragment : !tile.fragment<128xf32>
    %pf = tile.alloc_fragment : !tile.fragment<128x128xbf16>
    tile.copy %Q[%b, %h, %m0, %c0] -> %q : memref<?x?x?x?xbf16> -> !tile.shared<128x128xbf16>
    tile.fill %o, %zero : !tile.fragment<128x128xf32>, f32
    tile.fill %m, %ninf : !tile.fragment<128xf32>, f32
    tile.fill %l, %zero : !tile.fragment<128xf32>, f32
    tile.pipelined %j = %c0 to %nkv step %c1 num_stages 3 {
      %n0 = arith.muli %j, %cbn : index
      tile.copy %K[%b, %h, %n0, %c0] -> %k : memref<?x?x?x?xbf16> -> !tile.shared<128x128xbf16>
      tile.copy %V[%b, %h, %n0, %c0] -> %v : memref<?x?x?x?xbf16> -> !tile.shared<128x128xbf16>
      // S = Q . K^T: K is N x K (K-major), the layout warpgroup MMA reads.
      tile.fill %s, %zero : !tile.fragment<128x128xf32>, f32
      tile.gemm %q, %k, %s {transpose_b} : !tile.shared<128x128xbf16>, !tile.shared<128x128xbf16>, !tile.fragment<128x128xf32>
      // Only the blocks from the diagonal on, or past the last full
      // one, need the mask.
      %edge = arith.cmpi uge, %j, %nfree : index
      scf.if %edge {
        // Key n0 + jj is kept when n0 + jj <= S - 1.
        %lim = arith.subi %lastkey, %n0 : index
        %lim32 = arith.index_cast %lim : index to i32
        tile.parallel outs(%s : !tile.fragment<128x128xf32>) attributes {
            indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
        ^bb0(%x: f32):
          %jj = tile.index 1
          %j32 = arith.index_cast %jj : index to i32
          %keep = arith.cmpi sle, %j32, %lim32 : i32
          %w = arith.select %keep, %x, %ninf : f32
          tile.yield %w : f32
        }
      }
      // Online softmax: new row maximum, rescale factor, probabilities.
      tile.copy %m -> %mold : !tile.fragment<128xf32> -> !tile.fragment<128xf32>
      tile.reduce max %s -> %m {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%mold, %m : !tile.fragment<128xf32>, !tile.fragment<128xf32>)
          outs(%alpha : !tile.fragment<128xf32>) attributes {indexing_maps = [
            affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%mo: f32, %mn: f32, %a: f32):
        %d = arith.subf %mo, %mn : f32
        %y = arith.mulf %d, %qk : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%m : !tile.fragment<128xf32>) outs(%s : !tile.fragment<128x128xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%mx: f32, %x: f32):
        %mq = arith.mulf %mx, %nqk : f32
        %y = math.fma %x, %qk, %mq : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%l : !tile.fragment<128xf32>)
          attributes {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      tile.reduce sum %s -> %l {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x128xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      // O += P . V, with P in registers as the first operand: the scores and
      // probabilities never leave the registers.
      tile.copy %s -> %pf : !tile.fragment<128x128xf32> -> !tile.fragment<128x128xbf16>
      tile.gemm %pf, %v, %o : !tile.fragment<128x128xbf16>, !tile.shared<128x128xbf16>, !tile.fragment<128x128xf32>
    }
    // O / l, one division per row.
    tile.parallel outs(%l : !tile.fragment<128xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.parallel ins(%l : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x128xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%inv: f32, %x: f32):
      %r = arith.mulf %x, %inv : f32
      tile.yield %r : f32
    }
    tile.copy %o -> %O[%b, %h, %m0, %c0] : !tile.fragment<128x128xf32> -> memref<?x?x?x?xbf16>
  }

  tile.kernel @attention_causal_d64_bf16(%Q: memref<?x?x?x?xbf16>, %K: memref<?x?x?x?xbf16>,
      %V: memref<?x?x?x?xbf16>, %O: memref<?x?x?x?xbf16>, %scale: f32)
      grid [%Q[2] / 128, %Q[1] / 1, %Q[0] / 1] threads 256 attributes {min_blocks_per_sm = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %cbm = arith.constant 128 : index
    %cbn = arith.constant 128 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %log2e = arith.constant 1.4426950408889634 : f32
    %qb = tile.block_id x
    %h = tile.block_id y
    %b = tile.block_id z
    %m0 = arith.muli %qb, %cbm : index
    %skv = memref.dim %K, %c2 : memref<?x?x?x?xbf16>
    %nkv = arith.ceildivui %skv, %cbn : index
    // Causal: key blocks past the last query row of this block are skipped.
    %last = arith.addi %m0, %cbm : index
    %lastblk = arith.ceildivui %last, %cbn : index
    %nblk = arith.minui %nkv, %lastblk : index
    %lastkey = arith.subi %skv, %c1 : index
    %nfull = arith.divui %skv, %cbn : index
    %nfree = arith.minui %qb, %nfull : index
    %qk = arith.mulf %scale, %log2e : f32
    %nqk = arith.negf %qk : f32
    %q = tile.alloc_shared : !tile.shared<128x64xbf16>
    %k = tile.alloc_shared : !tile.shared<128x64xbf16>
    %v = tile.alloc_shared : !tile.shared<128x64xbf16>
    %s = tile.alloc_fragment : !tile.fragment<128x128xf32>
    %o = tile.alloc_fragment : !tile.fragment<128x64xf32>
    %m = tile.alloc_fragment : !tile.fragment<128xf32>
    %mold = tile.alloc_fragment : !tile.fragment<128xf32>
    %l = tile.alloc_fragment : !tile.fragment<128xf32>
    %alpha = tile.alloc_fragment : !tile.fragment<128xf32>
    %pf = tile.alloc_fragment : !tile.fragment<128x128xbf16>
    tile.copy %Q[%b, %h, %m0, %c0] -> %q : memref<?x?x?x?xbf16> -> !tile.shared<128x64xbf16>
    tile.fill %o, %zero : !tile.fragment<128x64xf32>, f32
    tile.fill %m, %ninf : !tile.fragment<128xf32>, f32
    tile.fill %l, %zero : !tile.fragment<128xf32>, f32
    tile.pipelined %j = %c0 to %nblk step %c1 num_stages 3 {
      %n0 = arith.muli %j, %cbn : index
      tile.copy %K[%b, %h, %n0, %c0] -> %k : memref<?x?x?x?xbf16> -> !tile.shared<128x64xbf16>
      tile.copy %V[%b, %h, %n0, %c0] -> %v : memref<?x?x?x?xbf16> -> !tile.shared<128x64xbf16>
      // S = Q . K^T: K is N x K (K-major), the layout warpgroup MMA reads.
      tile.fill %s, %zero : !tile.fragment<128x128xf32>, f32
      tile.gemm %q, %k, %s {transpose_b} : !tile.shared<128x64xbf16>, !tile.shared<128x64xbf16>, !tile.fragment<128x128xf32>
      // Only the blocks from the diagonal on, or past the last full
      // one, need the mask.
      %edge = arith.cmpi uge, %j, %nfree : index
      scf.if %edge {
        // Key n0 + jj is kept for query row m0 + i when n0 + jj <= min(m0 + i, S - 1).
        tile.parallel outs(%s : !tile.fragment<128x128xf32>) attributes {
            indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
        ^bb0(%x: f32):
          %i = tile.index 0
          %row = arith.addi %m0, %i : index
          %rowlast = arith.minui %row, %lastkey : index
          %lim = arith.subi %rowlast, %n0 : index
          %lim32 = arith.index_cast %lim : index to i32
          %jj = tile.index 1
          %j32 = arith.index_cast %jj : index to i32
          %keep = arith.cmpi sle, %j32, %lim32 : i32
          %w = arith.select %keep, %x, %ninf : f32
          tile.yield %w : f32
        }
      }
      // Online softmax: new row maximum, rescale factor, probabilities.
      tile.copy %m -> %mold : !tile.fragment<128xf32> -> !tile.fragment<128xf32>
      tile.reduce max %s -> %m {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%mold, %m : !tile.fragment<128xf32>, !tile.fragment<128xf32>)
          outs(%alpha : !tile.fragment<128xf32>) attributes {indexing_maps = [
            affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%mo: f32, %mn: f32, %a: f32):
        %d = arith.subf %mo, %mn : f32
        %y = arith.mulf %d, %qk : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%m : !tile.fragment<128xf32>) outs(%s : !tile.fragment<128x128xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%mx: f32, %x: f32):
        %mq = arith.mulf %mx, %nqk : f32
        %y = math.fma %x, %qk, %mq : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%l : !tile.fragment<128xf32>)
          attributes {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      tile.reduce sum %s -> %l {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x64xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      // O += P . V, with P in registers as the first operand: the scores and
      // probabilities never leave the registers.
      tile.copy %s -> %pf : !tile.fragment<128x128xf32> -> !tile.fragment<128x128xbf16>
      tile.gemm %pf, %v, %o : !tile.fragment<128x128xbf16>, !tile.shared<128x64xbf16>, !tile.fragment<128x64xf32>
    }
    // O / l, one division per row.
    tile.parallel outs(%l : !tile.fragment<128xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.parallel ins(%l : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x64xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%inv: f32, %x: f32):
      %r = arith.mulf %x, %inv : f32
      tile.yield %r : f32
    }
    tile.copy %o -> %O[%b, %h, %m0, %c0] : !tile.fragment<128x64xf32> -> memref<?x?x?x?xbf16>
  }

  tile.kernel @attention_causal_d128_bf16(%Q: memref<?x?x?x?xbf16>, %K: memref<?x?x?x?xbf16>,
      %V: memref<?x?x?x?xbf16>, %O: memref<?x?x?x?xbf16>, %scale: f32)
      grid [%Q[2] / 128, %Q[1] / 1, %Q[0] / 1] threads 256 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %cbm = arith.constant 128 : index
    %cbn = arith.constant 128 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %log2e = arith.constant 1.4426950408889634 : f32
    %qb = tile.block_id x
    %h = tile.block_id y
    %b = tile.block_id z
    %m0 = arith.muli %qb, %cbm : index
    %skv = memref.dim %K, %c2 : memref<?x?x?x?xbf16>
    %nkv = arith.ceildivui %skv, %cbn : index
    // Causal: key blocks past the last query row of this block are skipped.
    %last = arith.addi %m0, %cbm : index
    %lastblk = arith.ceildivui %last, %cbn : index
    %nblk = arith.minui %nkv, %lastblk : index
    %lastkey = arith.subi %skv, %c1 : index
    %nfull = arith.divui %skv, %cbn : index
    %nfree = arith.minui %qb, %nfull : index
    %qk = arith.mulf %scale, %log2e : f32
    %nqk = arith.negf %qk : f32
    %q = tile.alloc_shared : !tile.shared<128x128xbf16>
    %k = tile.alloc_shared : !tile.shared<128x128xbf16>
    %v = tile.alloc_shared : !tile.shared<128x128xbf16>
    %s = tile.alloc_fragment : !tile.fragment<128x128xf32>
    %o = tile.alloc_fragment : !tile.fragment<128x128xf32>
    %m = tile.alloc_fragment : !tile.fragment<128xf32>
    %mold = tile.alloc_fragment : !tile.fragment<128xf32>
    %l = tile.alloc_fragment : !tile.fragment<128xf32>
    %alpha = tile.alloc_fragment : !tile.fragment<128xf32>
    %pf = tile.alloc_fragment : !tile.fragment<128x128xbf16>
    tile.copy %Q[%b, %h, %m0, %c0] -> %q : memref<?x?x?x?xbf16> -> !tile.shared<128x128xbf16>
    tile.fill %o, %zero : !tile.fragment<128x128xf32>, f32
    tile.fill %m, %ninf : !tile.fragment<128xf32>, f32
    tile.fill %l, %zero : !tile.fragment<128xf32>, f32
    tile.pipelined %j = %c0 to %nblk step %c1 num_stages 3 {
      %n0 = arith.muli %j, %cbn : index
      tile.copy %K[%b, %h, %n0, %c0] -> %k : memref<?x?x?x?xbf16> -> !tile.shared<128x128xbf16>
      tile.copy %V[%b, %h, %n0, %c0] -> %v : memref<?x?x?x?xbf16> -> !tile.shared<128x128xbf16>
      // S = Q . K^T: K is N x K (K-major), the layout warpgroup MMA reads.
      tile.fill %s, %zero : !tile.fragment<128x128xf32>, f32
      tile.gemm %q, %k, %s {transpose_b} : !tile.shared<128x128xbf16>, !tile.shared<128x128xbf16>, !tile.fragment<128x128xf32>
      // Only the blocks from the diagonal on, or past the last full
      // one, need the mask.
      %edge = arith.cmpi uge, %j, %nfree : index
      scf.if %edge {
        // Key n0 + jj is kept for query row m0 + i when n0 + jj <= min(m0 + i, S - 1).
        tile.parallel outs(%s : !tile.fragment<128x128xf32>) attributes {
            indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
        ^bb0(%x: f32):
          %i = tile.index 0
          %row = arith.addi %m0, %i : index
          %rowlast = arith.minui %row, %lastkey : index
          %lim = arith.subi %rowlast, %n0 : index
          %lim32 = arith.index_cast %lim : index to i32
          %jj = tile.index 1
          %j32 = arith.index_cast %jj : index to i32
          %keep = arith.cmpi sle, %j32, %lim32 : i32
          %w = arith.select %keep, %x, %ninf : f32
          tile.yield %w : f32
        }
      }
      // Online softmax: new row maximum, rescale factor, probabilities.
      tile.copy %m -> %mold : !tile.fragment<128xf32> -> !tile.fragment<128xf32>
      tile.reduce max %s -> %m {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%mold, %m : !tile.fragment<128xf32>, !tile.fragment<128xf32>)
          outs(%alpha : !tile.fragment<128xf32>) attributes {indexing_maps = [
            affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%mo: f32, %mn: f32, %a: f32):
        %d = arith.subf %mo, %mn : f32
        %y = arith.mulf %d, %qk : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%m : !tile.fragment<128xf32>) outs(%s : !tile.fragment<128x128xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%mx: f32, %x: f32):
        %mq = arith.mulf %mx, %nqk : f32
        %y = math.fma %x, %qk, %mq : f32
        %e = math.exp2 %y : f32
        tile.yield %e : f32
      }
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%l : !tile.fragment<128xf32>)
          attributes {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      tile.reduce sum %s -> %l {dim = 1 : i64} : !tile.fragment<128x128xf32> -> !tile.fragment<128xf32>
      tile.parallel ins(%alpha : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x128xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%a: f32, %x: f32):
        %r = arith.mulf %x, %a : f32
        tile.yield %r : f32
      }
      // O += P . V, with P in registers as the first operand: the scores and
      // probabilities never leave the registers.
      tile.copy %s -> %pf : !tile.fragment<128x128xf32> -> !tile.fragment<128x128xbf16>
      tile.gemm %pf, %v, %o : !tile.fragment<128x128xbf16>, !tile.shared<128x128xbf16>, !tile.fragment<128x128xf32>
    }
    // O / l, one division per row.
    tile.parallel outs(%l : !tile.fragment<128xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.parallel ins(%l : !tile.fragment<128xf32>) outs(%o : !tile.fragment<128x128xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%inv: f32, %x: f32):
      %r = arith.mulf %x, %inv : f32
      tile.yield %r : f32
    }
    tile.copy %o -> %O[%b, %h, %m0, %c0] : !tile.fragment<128x128xf32> -> memref<?x?x?x?xbf16>
  }
}
