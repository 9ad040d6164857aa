// A small kernel for tile-fuzz's binding seeds around the hostile classes
// of docs/Robustness.md: a chunk loop whose step is a parameter (0 and
// negative values must be refused, not hang), a contract dividing by a
// parameter (0 must be refused where it is bound), a row sum combined by a
// scalar tile.atomic (uniform across the block), and fills at the edges of
// their element types.
module {
  tile.kernel @chunks(%X: memref<?x?xf32>, %S: memref<?xf32>)
      params {COLS = 128, STEP = 128, DIV = 8, THREADS = 128}
      grid [%X[0] / 1] threads THREADS
      requires [%X[1] mod DIV == 0, %X[1] <= COLS * 8 + DIV] {
    %c0 = arith.constant 0 : index
    %c1024 = arith.constant 1024 : index
    %cols = tile.param "COLS" : index
    %step = tile.param "STEP" : index
    %bx = tile.block_id x
    %row = tile.alloc_fragment [%cols] : !tile.fragment<?xf32>
    %acc = tile.alloc_fragment [%cols] : !tile.fragment<?xf32>
    %edge = tile.alloc_fragment [%cols] : !tile.fragment<?xf16>
    tile.fill %acc, 0.0 : !tile.fragment<?xf32>
    tile.fill %edge, 65504.0 : !tile.fragment<?xf16>
    tile.fill %edge, -inf : !tile.fragment<?xf16>
    scf.for %j = %c0 to %c1024 step %step {
      tile.copy %X[%bx, %j] -> %row : memref<?x?xf32> -> !tile.fragment<?xf32>
      tile.parallel ins(%a = %row : !tile.fragment<?xf32>)
          outs(%b = %acc : !tile.fragment<?xf32>) {
        %s = arith.addf %a, %b : f32
        tile.yield %s : f32
      }
    }
    %sum = tile.reduction sum %acc : !tile.fragment<?xf32> -> f32
    tile.atomic add %sum -> %S[%c0] : f32 -> memref<?xf32>
  }
  tile.instance @chunks_default = @chunks {}
}
