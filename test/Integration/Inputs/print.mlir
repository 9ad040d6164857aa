// A 64x64x64-tile GEMM that also prints: a scalar from one thread, the
// accumulator from one thread of block (1, 0), and a fragment of known
// values (1000 i + j) from thread 0 of block (0, 0).
tile.kernel @gemm_print(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>)
    grid [%C[1] / 64, %C[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %bx = tile.block_id x
  %by = tile.block_id y
  %m0 = arith.muli %by, %c64 : index
  %n0 = arith.muli %bx, %c64 : index
  %K = memref.dim %A, %c1 : memref<?x?xf16>
  %kt = arith.ceildivui %K, %c64 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
  tile.pipelined %k = %c0 to %kt step %c1 num_stages 2 {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%m0, %k0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %B[%k0, %n0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %b, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.print "K" %K {block = array<i64: 0, 0>, thread = 0} : index
  tile.print "acc" %acc {block = array<i64: 1, 0>, thread = 5} : !tile.fragment<64x64xf32>
  %ix = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.parallel outs(%ix : !tile.fragment<64x64xf32>)
      attributes {indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%o: f32):
    %i = tile.index 0
    %j = tile.index 1
    %c1000 = arith.constant 1000 : index
    %ik = arith.muli %i, %c1000 : index
    %v = arith.addi %ik, %j : index
    %v32 = arith.index_cast %v : index to i32
    %f = arith.sitofp %v32 : i32 to f32
    tile.yield %f : f32
  }
  tile.print "ix" %ix {block = array<i64: 0, 0>, thread = 0} : !tile.fragment<64x64xf32>
  tile.copy %acc -> %C[%m0, %n0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}
