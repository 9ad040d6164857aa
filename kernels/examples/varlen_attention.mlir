// Variable-length attention forward: a batch of sequences of different
// lengths packed without padding, as flash-attn's varlen interface takes
// them. Q and O hold the packed query rows of all sequences, K and V the
// packed keys, one [heads, rows, D] view each (the transposed view of a
// [rows, heads, D] tensor, read in place); sequence s owns query rows
// CUQ[s] .. CUQ[s+1] and key rows CUK[s] .. CUK[s+1] (cumulative offsets).
// The caller lists the query tiles: tile t covers the BM rows from ROW[t]
// of sequence SEQ[t], so the grid has one block per (tile, head) with work.
// A tile's rows past its sequence's end read the next sequence's queries,
// and the copy of O stops at CUQ[s+1] (`bounds`); its key blocks past
// CUK[s+1] are masked, like the end of the keys in flash_attention.mlir,
// whose online softmax this is. With CAUSAL the mask is aligned at the
// bottom right (query row i of a sequence of Lq queries and Lk keys sees
// key j when j <= i + Lk - Lq), which needs Lk >= Lq in every sequence.
// GROUP query heads share one key/value head.

tile.kernel @varlen_attention(%Q: memref<?x?x?x!tile.param<"T">>,
    %K: memref<?x?x?x!tile.param<"T">>, %V: memref<?x?x?x!tile.param<"T">>,
    %O: memref<?x?x?x!tile.param<"T">>, %CUQ: memref<?xi32>, %CUK: memref<?xi32>,
    %SEQ: memref<?xi32>, %ROW: memref<?xi32>, %scale: f32)
    params {D = 128 in [64, 128], CAUSAL = false, GROUP = 1, BM = 128 in [64, 128],
            BN = 128 in [64, 128], STAGES = 2 in [1, 2, 3], THREADS = 256 in [128, 256],
            T = f16 in [f16, bf16]}
    where [BM mod (THREADS floordiv 2) == 0]
    grid [%SEQ[0] / 1, %Q[0] / 1] threads THREADS
    requires [%K[0] * GROUP == %Q[0], %V[0] == %K[0], %O[0] == %Q[0],
              %V[1] == %K[1], %O[1] == %Q[1], %Q[2] == D, %K[2] == D, %V[2] == D,
              %O[2] == D, %ROW[0] == %SEQ[0], %CUK[0] == %CUQ[0]] {
  %c0 = tile.let 0
  %t, %h, %hkv, %heads = tile.let block_id.x, block_id.y, block_id.y floordiv GROUP, %Q[0]
  %s32 = memref.load %SEQ[%t] : memref<?xi32>
  %m032 = memref.load %ROW[%t] : memref<?xi32>
  %s = arith.index_cast %s32 : i32 to index
  %m0 = arith.index_cast %m032 : i32 to index
  %s1 = tile.let %s + 1
  %qend32 = memref.load %CUQ[%s1] : memref<?xi32>
  %kbeg32 = memref.load %CUK[%s] : memref<?xi32>
  %kend32 = memref.load %CUK[%s1] : memref<?xi32>
  %qend = arith.index_cast %qend32 : i32 to index
  %kbeg = arith.index_cast %kbeg32 : i32 to index
  %kend = arith.index_cast %kend32 : i32 to index
  // The last key row 0 of the tile sees (causal), and the last key.
  %diag0, %lastkey = tile.let %m0 + %kend - %qend, %kend - 1
  %nkv = tile.let (%kend - %kbeg) ceildiv BN
  %nblk = tile.let CAUSAL ? min(%nkv, (%diag0 + BM - %kbeg) ceildiv BN) : %nkv
  // The blocks before the first one that needs a mask.
  %nfull = tile.let (%kend - %kbeg) floordiv BN
  %nfree = tile.let CAUSAL ? min((%diag0 - %kbeg) floordiv BN, %nfull) : %nfull
  %ninf, %one, %log2e = tile.let -inf, 1.0, 1.4426950408889634 : f32, f32, f32
  %qk = arith.mulf %scale, %log2e : f32
  %nqk = arith.negf %qk : f32
  %q = tile.alloc_shared [BM, D] : !tile.shared<?x?x!tile.param<"T">>
  %k = tile.alloc_shared [BN, D] : !tile.shared<?x?x!tile.param<"T">>
  %v = tile.alloc_shared [BN, D] : !tile.shared<?x?x!tile.param<"T">>
  %sc = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?xf32>
  %o = tile.alloc_fragment [BM, D] : !tile.fragment<?x?xf32>
  %m = tile.alloc_fragment [BM] : !tile.fragment<?xf32>
  %mold = tile.alloc_fragment [BM] : !tile.fragment<?xf32>
  %l = tile.alloc_fragment [BM] : !tile.fragment<?xf32>
  %alpha = tile.alloc_fragment [BM] : !tile.fragment<?xf32>
  %pf = tile.alloc_fragment [BM, BN] : !tile.fragment<?x?x!tile.param<"T">>
  tile.copy %Q[%h, %m0, %c0] -> %q
  tile.fill %o, 0.0
  tile.fill %m, -inf
  tile.fill %l, 0.0
  tile.pipelined %j to %nblk num_stages STAGES {
    %n0 = tile.let %kbeg + %j * BN
    tile.copy %K[%hkv, %n0, %c0] -> %k
    tile.copy %V[%hkv, %n0, %c0] -> %v
    tile.fill %sc, 0.0
    tile.gemm %q, %k, %sc {transpose_b}
    %edge = arith.cmpi uge, %j, %nfree : index
    scf.if %edge {
      // Key n0 + jj is kept for row m0 + i when n0 + jj <= the row's last.
      tile.parallel outs(%x = %sc) {
        %i = tile.index 0
        %rowlast = tile.let CAUSAL ? min(%diag0 + %i, %lastkey) : %lastkey
        %lim = tile.let %rowlast - %n0 : i32
        %jj = tile.index 1 : i32
        %keep = arith.cmpi sle, %jj, %lim : i32
        arith.select %keep, %x, %ninf : f32
      }
    }
    tile.copy %m -> %mold
    tile.reduce max %sc -> %m {dim = 1 : i64}
    tile.parallel ins(%mo = %mold, %mn = %m) outs(%a = %alpha) {
      %d = arith.subf %mo, %mn : f32
      %y = arith.mulf %d, %qk : f32
      math.exp2 %y : f32
    }
    tile.parallel ins(%mx = %m[0]) outs(%x = %sc) {
      %mq = arith.mulf %mx, %nqk : f32
      %y = math.fma %x, %qk, %mq : f32
      math.exp2 %y : f32
    }
    tile.parallel ins(%a = %alpha) outs(%x = %l) { arith.mulf %x, %a : f32 }
    tile.reduce sum %sc -> %l {dim = 1 : i64}
    tile.parallel ins(%a = %alpha[0]) outs(%x = %o) { arith.mulf %x, %a : f32 }
    tile.copy %sc -> %pf
    tile.gemm %pf, %v, %o
  }
  tile.parallel outs(%sum = %l) { arith.divf %one, %sum : f32 }
  tile.parallel ins(%inv = %l[0]) outs(%x = %o) { arith.mulf %x, %inv : f32 }
  %d = tile.let D
  tile.copy %o -> %O[%h, %m0, %c0] bounds [%heads, %qend, %d]
}

tile.instance @varlen_attention_d128_f16 = @varlen_attention {}
tile.instance @varlen_attention_causal_d128_f16 = @varlen_attention {CAUSAL = true}
tile.instance @varlen_attention_d64_bf16 = @varlen_attention {D = 64, T = bf16}
tile.instance @varlen_attention_gqa4_causal_d128_bf16 = @varlen_attention {GROUP = 4, CAUSAL = true, T = bf16}
