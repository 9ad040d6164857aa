// Row-wise softmax of rows too long for one block (65536 to 262144
// columns: a vocabulary's logits, few rows at a time), Y = softmax(X) along
// dim 1, with each element of X read from memory once.
//
// A row is split over the CX blocks of a thread-block cluster (grid x),
// one W-column chunk each, held in registers as f32 (W / THREADS a thread:
// 64 at the defaults). Each block reduces its chunk's maximum; the
// cluster's blocks combine theirs through each other's shared memory
// (tile.reduction ... across cluster); then the sum of exp(x - max) the
// same way, and each block writes its chunk of Y. Columns past the row
// are set to -inf, whose exponential is 0. The rows are the grid's y.
//
// softmax.mlir's TAIL form reads the columns past its staged chunks twice
// and runs one block a row: 8 rows of 262144 columns fill 8 of 132 SMs.
// Here the same rows run 64 blocks, each reading 64 KB once.
tile.kernel @softmax_cluster(%X: memref<?x?x!tile.param<"T">>, %Y: memref<?x?x!tile.param<"T">>)
    params {W = 32768 in [8192, 16384, 32768], CX = 8 in [2, 4, 8],
            THREADS = 512 in [256, 512, 1024], T = f16 in [f16, bf16]}
    grid [CX, %X[0] / 1] threads THREADS cluster [CX]
    requires [%Y[0] == %X[0], %Y[1] == %X[1], %X[1] <= CX * W] {
  %row, %col0 = tile.let block_id.y, block_id.x * W
  %ninf, %log2e = tile.let -inf, 1.44269504 : f32, f32
  // The chunk's columns left in the row (none for a chunk past its end).
  %n = tile.let %X[1]
  %start = arith.minui %col0, %n : index
  %left = arith.subi %n, %start : index
  %left32 = arith.index_cast %left : index to i32
  %x = tile.alloc_fragment [W] : !tile.fragment<?xf32>
  tile.copy %X[%row, %col0] -> %x
  // Columns past the end of the row do not take part.
  tile.parallel outs(%v = %x) {
    %j = tile.index 0
    %j32 = arith.index_cast %j : index to i32
    %in = arith.cmpi slt, %j32, %left32 : i32
    arith.select %in, %v, %ninf : f32
  }
  %m = tile.reduction max %x across cluster
  // exp(v - m) as 2^(v log2(e) - m log2(e)): one fma and ex2.
  %ml = arith.mulf %m, %log2e : f32
  tile.parallel outs(%v = %x) {
    %vl = arith.mulf %v, %log2e : f32
    %d = arith.subf %vl, %ml : f32
    math.exp2 %d : f32
  }
  %s = tile.reduction sum %x across cluster
  %one = tile.let 1.0 : f32
  %r = arith.divf %one, %s : f32
  tile.parallel outs(%v = %x) { arith.mulf %v, %r : f32 }
  tile.copy %x -> %Y[%row, %col0]
}

tile.instance @softmax_cluster_f16 = @softmax_cluster {}
tile.instance @softmax_cluster_bf16 = @softmax_cluster {T = bf16}
tile.instance @softmax_cluster_w16k_f16 = @softmax_cluster {W = 16384, CX = 4}
