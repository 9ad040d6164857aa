// Row-wise softmax: Y[i, :] = exp(X[i, :] - max_i) / sum_i, T (f16 or bf16)
// in and out, fp32 math. The row maximum and sum stay in registers
// (reduced across lanes with shuffles and across warps through shared
// memory).
//
// The row-length strategy is a parameter:
// - one pass (TWO_PASS = false): ROWS rows of at most COLS elements per
//   block, held in registers; each element is read and written once. A
//   row longer than COLS is refused at launch (the MAXN contract, equal to
//   COLS for this strategy).
// - two passes (TWO_PASS = true, ROWS = 1): any row length, COLS-column
//   chunks starting on 16-byte boundaries of X (so odd row lengths keep
//   vector accesses); the first pass keeps the running maximum and sum
//   (the sum rescaled when the maximum grows), the second reads the row
//   again (mostly from L2) and writes it scaled.
// - a row staged in shared memory (TWO_PASS = STAGED = true): the first
//   pass keeps each chunk, as T, in row k of an 8 x COLS shared tile, and
//   the later passes read it from there: X is read from memory once. As
//   the whole row is at hand, nothing is rescaled online: the first pass
//   keeps each thread's element-wise maximum, a second pass (over shared
//   memory) each thread's sums of exponentials, and each ends in one
//   cross-warp reduction per row; the last pass writes. Only the first
//   and the last chunk are masked: the first pass writes -inf over their
//   columns outside the row. Rows of up to 8 chunks (MAXN = 8 COLS - 7,
//   the first chunk's skew included); COLS = 7168 holds a vocabulary-sized
//   row (50257) in 112 KB, two blocks per multiprocessor (MINB = 2 keeps
//   the registers of two blocks within the file). With ASYNC = true the
//   chunks go from X to the shared tile directly, all of them in flight
//   at once (row copies, cp.async), and the first pass reads them from
//   there: a block does not wait for one chunk before it asks for the
//   next.
// - a row longer than the shared tile (TAIL = true, with STAGED and
//   ASYNC): its first 8 chunks are staged as above, the rest (the tail) is
//   read from X in the first pass and again, in reverse order while it is
//   still in L2, when Y is written. The first pass keeps per column the
//   running maximum and the sum of exponentials scaled to it (one
//   exponential per element), combined per row after it. X is read
//   1 + tail / N times instead of twice.
// MINB resident blocks per multiprocessor keep loads in flight. Column masks
// compare 32-bit values: a 64-bit compare is two instructions per element
// (2-3% of the time at these sizes).
//
// Instances, for T = f16 and bf16 (a runner picks the smallest kernel
// that fits; each is correct for shorter rows):
//   softmax_n128_T    N <= 128: 32 rows per block of 128 threads
//   softmax_n512_T    N <= 512: 4 rows per block of 128 threads
//   softmax_n1024_T   N <= 1024: 8 rows per block of 256 threads
//   softmax_n4096_T   N <= 4096: 2 rows per block
//   softmax_n8192_T   N <= 8192: 1 row per block
//   softmax_n57337_T  N <= 57337 (vocabulary sizes): a row staged in
//                     shared memory by row copies, two blocks per SM
//   softmax_T         any N: two passes over 8192-column chunks
//   softmax_long_T    any N, for rows past 57337: 8 chunks of 7168 staged,
//                     the tail read twice, two blocks per SM

tile.kernel @softmax(%X: memref<?x?x!tile.param<"T">>, %Y: memref<?x?x!tile.param<"T">>)
    params {ROWS = 2, COLS = 4096, MAXN = 4096, TWO_PASS = false,
            STAGED = false, ASYNC = false, TAIL = false, MINB = 4, THREADS = 256,
            T = f16}
    space {ROWS = [1, 2, 4, 8, 16, 32, 64],
           COLS = [32, 64, 128, 256, 512, 1024, 2048, 4096, 7168, 8192, 12288, 16384],
           MAXN = [32, 64, 128, 256, 512, 1024, 2048, 4096, 7168, 8192, 16384, 32761,
                   57337, 65529, 9223372036854775807],
           TWO_PASS = [false, true], STAGED = [false, true],
           ASYNC = [false, true], TAIL = [false, true],
           MINB = [1, 2, 3, 4], THREADS = [128, 256, 512], T = [f16, bf16]}
    where [(1 - TWO_PASS) * (MAXN - COLS) == 0, TWO_PASS * (ROWS - 1) == 0,
           STAGED * (1 - TWO_PASS) == 0, ASYNC * (1 - STAGED) == 0,
           TWO_PASS * (1 - STAGED) * (9223372036854775807 - MAXN) == 0,
           TAIL * (1 - ASYNC) == 0, TAIL * (9223372036854775807 - MAXN) == 0,
           STAGED * (1 - TAIL) * (MAXN - (8 * COLS - 7)) == 0]
    grid [%X[0] / ROWS] threads THREADS
    requires [%Y[0] == %X[0], %Y[1] == %X[1], %X[1] <= MAXN]
    attributes {min_blocks_per_sm = #tile.param<"MINB">} {
  // A row copy's shared offset is a constant op (copy_c6).
  %c0 = arith.constant 0 : index
  %c1, %crows, %ccols = tile.let 1, ROWS, COLS
  %twopass = tile.param "TWO_PASS" : i1
  %staged = tile.param "STAGED" : i1
  %async = tile.param "ASYNC" : i1
  %tail = tile.param "TAIL" : i1
  %ninf, %one, %log2e = tile.let -inf, 1.0, 1.44269504 : f32, f32, f32
  %lowest, %zero = tile.let -3.40282347e+38, 0.0 : f32, f32
  %true = arith.constant true
  %c8 = arith.constant 8 : index
  %r0, %N = tile.let block_id.x * ROWS, %X[1]
  %x = tile.alloc_fragment [%crows, %ccols] : !tile.fragment<?x?xf32>
  %m = tile.alloc_fragment [%crows] : !tile.fragment<?xf32>
  %mold = tile.alloc_fragment [%crows] : !tile.fragment<?xf32>
  %s = tile.alloc_fragment [%crows] : !tile.fragment<?xf32>
  %acc = tile.alloc_fragment [%crows, %ccols] : !tile.fragment<?x?xf32>
  // TAIL: each column's sum of exponentials.
  %x2 = tile.alloc_fragment [%crows, %ccols] : !tile.fragment<?x?xf32>
  // STAGED: the row, one COLS-column chunk per row of the tile.
  %row = tile.alloc_shared [%ccols] : !tile.shared<8x?x!tile.param<"T">>
  scf.if %twopass {
    // The chunks start on multiples of 8 elements of X (16 bytes), so a
    // row of any length (an odd vocabulary size) loads and stores whole
    // vectors: the first chunk starts `skew` columns before the row, and
    // those columns are masked.
    %rowstart = arith.muli %r0, %N : index
    %skew = arith.remui %rowstart, %c8 : index
    %span = arith.addi %N, %skew : index
    %chunks = arith.ceildivui %span, %ccols : index
    scf.if %staged {
      // The whole row is kept in shared memory, so its maximum is known
      // before any exponential: a first pass keeps each thread's
      // element-wise maximum over the chunks and a second pass the sums
      // of exp(x - max). One cross-warp reduction each per row, instead
      // of a maximum, a rescale and a sum per chunk.
      %upto8 = arith.minui %chunks, %c8 : index
      %nshared = arith.select %tail, %upto8, %chunks : index
      scf.if %async {
        tile.pipelined %k = %c0 to %nshared step %c1 num_stages 1 {
          %k0 = arith.muli %k, %ccols : index
          %col0 = arith.subi %k0, %skew : index
          tile.copy %X[%r0, %col0] -> %row[%k, %c0]
        }
      }
      %lastk = arith.subi %chunks, %c1 : index
      // One first pass for both: each chunk from the shared row (or, past
      // the staged chunks of TAIL and without ASYNC, from X). Only the
      // first and the last chunk hold columns outside the row; the pass
      // sets those to -inf in the fragment and, without TAIL, in the
      // shared copy, so that no later pass masks the chunks in between.
      // Without TAIL it keeps each column's maximum; the later passes read
      // the whole row from shared memory, so nothing is rescaled online.
      // TAIL: the row's first 8 chunks are in shared memory, the rest (the
      // tail) is read from X here and again when Y is written. The pass
      // also keeps, per column of the fragment, the sum of exponentials
      // scaled to its running maximum (%x2); one exponential per element:
      // exp(-|v - max|) either scales the sum (a new maximum) or is added
      // to it. The maximum starts at the lowest finite value, so masked
      // columns (-inf) add exp(-inf) = 0.
      %notail = arith.xori %tail, %true : i1
      %sync = arith.xori %async, %true : i1
      %start = arith.select %tail, %lowest, %ninf : f32
      tile.fill %acc, %start
      scf.if %tail {
        tile.fill %x2, 0.0
      }
      tile.pipelined %k = %c0 to %chunks step %c1 num_stages 1 {
        %k0 = arith.muli %k, %ccols : index
        %col0 = arith.subi %k0, %skew : index
        %inshared = arith.cmpi ult, %k, %c8 : index
        %staged8 = arith.ori %notail, %inshared : i1
        %fromrow = arith.andi %async, %staged8 : i1
        scf.if %fromrow {
          tile.copy %row[%k, %c0] -> %x
        } else {
          tile.copy %X[%r0, %col0] -> %x
        }
        %first = arith.cmpi eq, %k, %c0 : index
        %last = arith.cmpi eq, %k, %lastk : index
        %edge = arith.ori %first, %last : i1
        scf.if %edge {
          %rest = arith.subi %span, %k0 : index
          %n = arith.minui %rest, %ccols : index
          %n32 = arith.index_cast %n : index to i32
          %lo = arith.select %first, %skew, %c0 : index
          %lo32 = arith.index_cast %lo : index to i32
          tile.parallel outs(%v = %x) {
            %j = tile.index 1
            %j32 = arith.index_cast %j : index to i32
            %below = arith.cmpi slt, %j32, %n32 : i32
            %above = arith.cmpi sge, %j32, %lo32 : i32
            %in = arith.andi %below, %above : i1
            arith.select %in, %v, %ninf : f32
          }
        }
        %written = arith.ori %sync, %edge : i1
        %keep = arith.andi %notail, %written : i1
        scf.if %keep {
          tile.copy %x -> %row[%k, %c0]
        }
        scf.if %tail {
          tile.parallel ins(%mx = %acc, %v = %x) outs(%sv = %x2) {
            %d = arith.subf %v, %mx : f32
            %ad = math.absf %d : f32
            %nl = arith.mulf %ad, %log2e : f32
            %nd = arith.negf %nl : f32
            %e = math.exp2 %nd : f32
            %grew = arith.cmpf ogt, %d, %zero : f32
            %scaled = math.fma %sv, %e, %one : f32
            %added = arith.addf %sv, %e : f32
            arith.select %grew, %scaled, %added : f32
          }
        }
        tile.parallel ins(%v = %x) outs(%a = %acc) { arith.maximumf %a, %v : f32 }
      }
      tile.reduce max %acc -> %m {dim = 1 : i64, clear}
      scf.if %tail {
        // Each column's sum rescaled to the row's maximum.
        tile.parallel ins(%mx = %m[0], %a = %acc) outs(%sv = %x2) {
          %al = arith.mulf %a, %log2e : f32
          %ml = arith.mulf %mx, %log2e : f32
          %d = arith.subf %al, %ml : f32
          %e = math.exp2 %d : f32
          arith.mulf %sv, %e : f32
        }
        tile.reduce sum %x2 -> %s {dim = 1 : i64, clear}
      } else {
        tile.fill %acc, 0.0
        tile.pipelined %k = %c0 to %chunks step %c1 num_stages 1 {
          tile.copy %row[%k, %c0] -> %x
          // exp(v - m) as 2^(v log2(e) - m log2(e)): one fma and ex2.
          tile.parallel ins(%mx = %m[0], %v = %x) outs(%a = %acc) {
            %vl = arith.mulf %v, %log2e : f32
            %ml = arith.mulf %mx, %log2e : f32
            %d = arith.subf %vl, %ml : f32
            %e = math.exp2 %d : f32
            arith.addf %a, %e : f32
          }
        }
        tile.reduce sum %acc -> %s {dim = 1 : i64, clear}
      }
    } else {
      tile.fill %m, -inf
      tile.fill %s, 0.0
      tile.pipelined %k = %c0 to %chunks step %c1 num_stages 1 {
        %k0 = arith.muli %k, %ccols : index
        %col0 = arith.subi %k0, %skew : index
        %rest = arith.subi %span, %k0 : index
        %n = arith.minui %rest, %ccols : index
        %n32 = arith.index_cast %n : index to i32
        %first = arith.cmpi eq, %k, %c0 : index
        %lo = arith.select %first, %skew, %c0 : index
        %lo32 = arith.index_cast %lo : index to i32
        tile.copy %X[%r0, %col0] -> %x
        tile.parallel outs(%v = %x) {
          %j = tile.index 1
          %j32 = arith.index_cast %j : index to i32
          %below = arith.cmpi slt, %j32, %n32 : i32
          %above = arith.cmpi sge, %j32, %lo32 : i32
          %in = arith.andi %below, %above : i1
          arith.select %in, %v, %ninf : f32
        }
        tile.copy %m -> %mold
        tile.reduce max %x -> %m {dim = 1 : i64}
        // s = s * exp(m_old - m) + sum(exp(x - m))
        tile.parallel ins(%mo = %mold, %mn = %m) outs(%sv = %s) {
          %d = arith.subf %mo, %mn : f32
          %e = math.exp %d : f32
          arith.mulf %sv, %e : f32
        }
        tile.parallel ins(%mx = %m[0]) outs(%v = %x) {
          %d = arith.subf %v, %mx : f32
          math.exp %d : f32
        }
        tile.reduce sum %x -> %s {dim = 1 : i64}
      }
    }
    tile.parallel outs(%sum = %s) { arith.divf %one, %sum : f32 }
    // TAIL: the chunks read last (the tail's, from X) are written first,
    // while they are still in L2.
    %lastw = arith.subi %chunks, %c1 : index
    tile.pipelined %kf = %c0 to %chunks step %c1 num_stages 1 {
      %kb = arith.subi %lastw, %kf : index
      %k = arith.select %tail, %kb, %kf : index
      %k0 = arith.muli %k, %ccols : index
      %col0 = arith.subi %k0, %skew : index
      %inshared = arith.cmpi ult, %k, %c8 : index
      %notail = arith.xori %tail, %true : i1
      %staged8 = arith.ori %notail, %inshared : i1
      %fromrow = arith.andi %staged, %staged8 : i1
      scf.if %fromrow {
        tile.copy %row[%k, %c0] -> %x
      } else {
        tile.copy %X[%r0, %col0] -> %x
      }
      tile.parallel ins(%mx = %m[0], %inv = %s[0]) outs(%v = %x) {
        %vl = arith.mulf %v, %log2e : f32
        %ml = arith.mulf %mx, %log2e : f32
        %d = arith.subf %vl, %ml : f32
        %e = math.exp2 %d : f32
        arith.mulf %e, %inv : f32
      }
      tile.copy %x -> %Y[%r0, %col0]
    }
  } else {
    %n = arith.minui %N, %ccols : index
    %n32 = arith.index_cast %n : index to i32
    tile.copy %X[%r0, %c0] -> %x
    // Columns past the end of the row do not take part.
    tile.parallel outs(%v = %x) {
      %j = tile.index 1
      %j32 = arith.index_cast %j : index to i32
      %in = arith.cmpi slt, %j32, %n32 : i32
      arith.select %in, %v, %ninf : f32
    }
    tile.reduce max %x -> %m {dim = 1 : i64, clear}
    tile.parallel ins(%mx = %m[0]) outs(%v = %x) {
      %d = arith.subf %v, %mx : f32
      math.exp %d : f32
    }
    tile.reduce sum %x -> %s {dim = 1 : i64, clear}
    // One division per row, then products.
    tile.parallel outs(%sum = %s) { arith.divf %one, %sum : f32 }
    tile.parallel ins(%inv = %s[0]) outs(%v = %x) { arith.mulf %v, %inv : f32 }
    tile.copy %x -> %Y[%r0, %c0]
  }
}

tile.instance @softmax_n128_f16 = @softmax {ROWS = 32, COLS = 128, MAXN = 128, THREADS = 128}
tile.instance @softmax_n512_f16 = @softmax {ROWS = 4, COLS = 512, MAXN = 512, THREADS = 128, MINB = 1}
tile.instance @softmax_n1024_f16 = @softmax {ROWS = 8, COLS = 1024, MAXN = 1024}
tile.instance @softmax_n4096_f16 = @softmax {}
tile.instance @softmax_n8192_f16 = @softmax {ROWS = 1, COLS = 8192, MAXN = 8192, MINB = 3}
tile.instance @softmax_n57337_f16 = @softmax {TWO_PASS = true, STAGED = true, ASYNC = true, ROWS = 1, COLS = 7168, MAXN = 57337, MINB = 2}
tile.instance @softmax_f16 = @softmax {TWO_PASS = true, ROWS = 1, COLS = 8192, MAXN = 9223372036854775807}
tile.instance @softmax_long_f16 = @softmax {TWO_PASS = true, STAGED = true, ASYNC = true, TAIL = true, ROWS = 1, COLS = 7168, MAXN = 9223372036854775807, MINB = 2}
tile.instance @softmax_n128_bf16 = @softmax {ROWS = 32, COLS = 128, MAXN = 128, THREADS = 128, T = bf16}
tile.instance @softmax_n512_bf16 = @softmax {ROWS = 4, COLS = 512, MAXN = 512, THREADS = 128, MINB = 1, T = bf16}
tile.instance @softmax_n1024_bf16 = @softmax {ROWS = 8, COLS = 1024, MAXN = 1024, T = bf16}
tile.instance @softmax_n4096_bf16 = @softmax {T = bf16}
tile.instance @softmax_n8192_bf16 = @softmax {ROWS = 1, COLS = 8192, MAXN = 8192, MINB = 3, T = bf16}
tile.instance @softmax_n57337_bf16 = @softmax {TWO_PASS = true, STAGED = true, ASYNC = true, ROWS = 1, COLS = 7168, MAXN = 57337, MINB = 2, T = bf16}
tile.instance @softmax_bf16 = @softmax {TWO_PASS = true, ROWS = 1, COLS = 8192, MAXN = 9223372036854775807, T = bf16}
tile.instance @softmax_long_bf16 = @softmax {TWO_PASS = true, STAGED = true, ASYNC = true, TAIL = true, ROWS = 1, COLS = 7168, MAXN = 9223372036854775807, MINB = 2, T = bf16}
