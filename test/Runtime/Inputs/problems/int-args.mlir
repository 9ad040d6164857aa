// A kernel whose problem has integer arguments: Out = X + k, with an
// integer tensor Idx and an i64 scalar n that it does not read.
module {
  tile.kernel @add_k(%X: memref<?x?xf32>, %Idx: memref<?xi32>,
                     %Out: memref<?x?xf32>, %k: i32, %n: i64)
      grid [%X[1] / 256, %X[0] / 8] threads 128 {
    %bx = tile.block_id x
    %by = tile.block_id y
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %i0 = arith.muli %by, %c8 : index
    %j0 = arith.muli %bx, %c256 : index
    %x = tile.alloc_fragment [%c8, %c256] : !tile.fragment<?x?xf32>
    tile.copy %X[%i0, %j0] -> %x : memref<?x?xf32> -> !tile.fragment<?x?xf32>
    %kf = arith.sitofp %k : i32 to f32
    tile.parallel outs(%a = %x : !tile.fragment<?x?xf32>) {
      %r = arith.addf %a, %kf : f32
      tile.yield %r : f32
    }
    tile.copy %x -> %Out[%i0, %j0] : !tile.fragment<?x?xf32> -> memref<?x?xf32>
  }
}
