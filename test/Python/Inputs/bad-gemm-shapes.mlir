// Parses, but fails verification (line 7): the gemm K dimensions differ.
module {
  tile.kernel @k(%A: memref<?x?xf16>) grid [1] threads 128 {
    %a = tile.alloc_shared : !tile.shared<64x32xf16>
    %b = tile.alloc_shared : !tile.shared<64x64xf16>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
    tile.gemm %a, %b, %acc : !tile.shared<64x32xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
}
