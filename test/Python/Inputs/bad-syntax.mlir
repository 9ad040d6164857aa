// A tile kernel with a syntax error on line 4.
module {
  tile.kernel @k(%A: memref<?x?xf16>) grid [1] threads 128 {
    %c0 = arith.constant 0 :
  }
}
