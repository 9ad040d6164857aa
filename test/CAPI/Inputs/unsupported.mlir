module {
  tile.kernel @k(%A: memref<?x?xf32>) grid [1] threads 128 {
    %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  }
}
