// Y[i, j] = X[i, j] * V[0, j]: V's columns come through the pipeline's ring
// beside X's tile, as the first row of an 8-row shared tile (TMA reads the
// rows past V's one as zeros), and each iteration reads that row into a
// 1-d fragment (copy_c11) that tile.parallel broadcasts over X's rows.
tile.kernel @row_broadcast(%X: memref<?x?xf16>, %V: memref<?x?xf16>, %Y: memref<?x?xf16>)
    params {BM = 32, BK = 256, STAGES = 3, THREADS = 128}
    grid [%X[0] / BM] threads THREADS
    requires [%V[0] == 1, %V[1] == %X[1], %Y[0] == %X[0], %Y[1] == %X[1]] {
  %c0 = tile.let 0
  %m0, %kt = tile.let block_id.x * BM, %X[1] ceildiv BK
  %eight, %bk = tile.let 8, BK
  %xs = tile.alloc_shared [BM, BK] : !tile.shared<?x?xf16>
  %vs = tile.alloc_shared [%eight, %bk] : !tile.shared<?x?xf16>
  %x = tile.alloc_fragment [BM, BK] : !tile.fragment<?x?xf32>
  %v = tile.alloc_fragment [BK] : !tile.fragment<?xf32>
  tile.pipelined %k to %kt num_stages STAGES {
    %k0 = tile.let %k * BK
    tile.copy %X[%m0, %k0] -> %xs
    tile.copy %V[%c0, %k0] -> %vs
    tile.copy %xs -> %x
    tile.copy %vs[%c0, %c0] -> %v
    tile.parallel ins(%s = %v[1]) outs(%o = %x) { arith.mulf %o, %s : f32 }
    tile.copy %x -> %Y[%m0, %k0]
  }
}

tile.instance @row_broadcast_f16 = @row_broadcast {}
tile.instance @row_broadcast_once_f16 = @row_broadcast {STAGES = 1}
