// Tensor-core GEMM, C[M,N] = A[M,K] . B[K,N], row-major, fp32 accumulation.
//
// One 128x256 tile of C per block of two warpgroups (each owns 64 rows); K is
// walked 64 at a time through a 4-stage pipeline of TMA loads (48 KB a stage). M, N, K need not be multiples of
// the tile sizes (out-of-range elements read as zero and are not stored);
// the runtime requires 16-byte aligned rows (K and N multiples of 8).
// The kernels differ only in element types: f16 -> f16, bf16 -> bf16 and
// f16 -> f32.

module {
  tile.kernel @gemm_f16(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>)
      grid [%C[1] / 256, %C[0] / 128] threads 256 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %bx = tile.block_id x
    %by = tile.block_id y
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c256 : index
    %K = memref.dim %A, %c1 : memref<?x?xf16>
    %kt = arith.ceildivui %K, %c64 : index
    %a = tile.alloc_shared : !tile.shared<128x64xf16>
    %b = tile.alloc_shared : !tile.shared<64x256xf16>
    %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
    tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
    tile.pipelined %k = %c0 to %kt step %c1 num_stages 4 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0] -> %a : memref<?x?xf16> -> !tile.shared<128x64xf16>
      tile.copy %B[%k0, %n0] -> %b : memref<?x?xf16> -> !tile.shared<64x256xf16>
      tile.gemm %a, %b, %acc : !tile.shared<128x64xf16>, !tile.shared<64x256xf16>, !tile.fragment<128x256xf32>
    }
    tile.copy %acc -> %C[%m0, %n0] : !tile.fragment<128x256xf32> -> memref<?x?xf16>
  }

  tile.kernel @gemm_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xbf16>)
      grid [%C[1] / 256, %C[0] / 128] threads 256 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %bx = tile.block_id x
    %by = tile.block_id y
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c256 : index
    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    %kt = arith.ceildivui %K, %c64 : index
    %a = tile.alloc_shared : !tile.shared<128x64xbf16>
    %b = tile.alloc_shared : !tile.shared<64x256xbf16>
    %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
    tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
    tile.pipelined %k = %c0 to %kt step %c1 num_stages 4 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0] -> %a : memref<?x?xbf16> -> !tile.shared<128x64xbf16>
      tile.copy %B[%k0, %n0] -> %b : memref<?x?xbf16> -> !tile.shared<64x256xbf16>
      tile.gemm %a, %b, %acc : !tile.shared<128x64xbf16>, !tile.shared<64x256xbf16>, !tile.fragment<128x256xf32>
    }
    tile.copy %acc -> %C[%m0, %n0] : !tile.fragment<128x256xf32> -> memref<?x?xbf16>
  }

  tile.kernel @gemm_f16_f32(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>)
      grid [%C[1] / 256, %C[0] / 128] threads 256 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %bx = tile.block_id x
    %by = tile.block_id y
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c256 : index
    %K = memref.dim %A, %c1 : memref<?x?xf16>
    %kt = arith.ceildivui %K, %c64 : index
    %a = tile.alloc_shared : !tile.shared<128x64xf16>
    %b = tile.alloc_shared : !tile.shared<64x256xf16>
    %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
    tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
    tile.pipelined %k = %c0 to %kt step %c1 num_stages 4 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0] -> %a : memref<?x?xf16> -> !tile.shared<128x64xf16>
      tile.copy %B[%k0, %n0] -> %b : memref<?x?xf16> -> !tile.shared<64x256xf16>
      tile.gemm %a, %b, %acc : !tile.shared<128x64xf16>, !tile.shared<64x256xf16>, !tile.fragment<128x256xf32>
    }
    tile.copy %acc -> %C[%m0, %n0] : !tile.fragment<128x256xf32> -> memref<?x?xf32>
  }
}
