module {
  tile.kernel @k(%A: memref<?x?xf16>) grid [1] threads 128 {
    %a = tile.alloc_shared : !tile.shared<64x32xf16>
  }
}
