// Row-wise softmax: Y[i, :] = exp(X[i, :] - max_i) / sum_i, fp16/bf16 in
// and out, fp32 math. The row maximum and sum stay in registers (reduced
// across lanes with shuffles and across warps through shared memory).
//
// Kernels, by the longest row they take in one pass (a runner picks the
// smallest that fits; each is correct for shorter rows), for T = f16, bf16:
//   softmax_n1024_T   N <= 1024: 8 rows per block of 256 threads
//   softmax_n4096_T   N <= 4096: 2 rows per block
//   softmax_n8192_T   N <= 8192: 1 row per block
//   softmax_T         any N: two passes over 8192-column chunks
//
// The one-pass kernels read and write each element once, holding its row in
// registers, and ask for enough resident blocks per multiprocessor to keep
// loads in flight. Column masks compare 32-bit values: a 64-bit compare is
// two instructions per element (2-3% of the time at these sizes).

module {
  // Rows of at most 1024 elements, 8 row(s) per block of 256 threads.
  tile.kernel @softmax_n1024_f16(%X: memref<?x?xf16>, %Y: memref<?x?xf16>)
      grid [%X[0] / 8] threads 256 attributes {min_blocks_per_sm = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %crows = arith.constant 8 : index
    %climit = arith.constant 1024 : index
    %ninf = arith.constant 0xFF800000 : f32
    %one = arith.constant 1.0 : f32
    %bx = tile.block_id x
    %r0 = arith.muli %bx, %crows : index
    %N = memref.dim %X, %c1 : memref<?x?xf16>
    %n = arith.minui %N, %climit : index
    %n32 = arith.index_cast %n : index to i32
    %x = tile.alloc_fragment : !tile.fragment<8x1024xf32>
    %m = tile.alloc_fragment : !tile.fragment<8xf32>
    %s = tile.alloc_fragment : !tile.fragment<8xf32>
    tile.copy %X[%r0, %c0] -> %x : memref<?x?xf16> -> !tile.fragment<8x1024xf32>
    // Columns past the end of the row do not take part.
    tile.parallel outs(%x : !tile.fragment<8x1024xf32>) attributes {
        indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%v: f32):
      %j = tile.index 1
      %j32 = arith.index_cast %j : index to i32
      %in = arith.cmpi slt, %j32, %n32 : i32
      %w = arith.select %in, %v, %ninf : f32
      tile.yield %w : f32
    }
    tile.reduce max %x -> %m {dim = 1 : i64, clear} : !tile.fragment<8x1024xf32> -> !tile.fragment<8xf32>
    tile.parallel ins(%m : !tile.fragment<8xf32>) outs(%x : !tile.fragment<8x1024xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%mx: f32, %v: f32):
      %d = arith.subf %v, %mx : f32
      %e = math.exp %d : f32
      tile.yield %e : f32
    }
    tile.reduce sum %x -> %s {dim = 1 : i64, clear} : !tile.fragment<8x1024xf32> -> !tile.fragment<8xf32>
    // One division per row, then products.
    tile.parallel outs(%s : !tile.fragment<8xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.parallel ins(%s : !tile.fragment<8xf32>) outs(%x : !tile.fragment<8x1024xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%inv: f32, %v: f32):
      %r = arith.mulf %v, %inv : f32
      tile.yield %r : f32
    }
    tile.copy %x -> %Y[%r0, %c0] : !tile.fragment<8x1024xf32> -> memref<?x?xf16>
  }

  // Rows of at most 4096 elements, 2 row(s) per block of 256 threads.
  tile.kernel @softmax_n4096_f16(%X: memref<?x?xf16>, %Y: memref<?x?xf16>)
      grid [%X[0] / 2] threads 256 attributes {min_blocks_per_sm = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %crows = arith.constant 2 : index
    %climit = arith.constant 4096 : index
    %ninf = arith.constant 0xFF800000 : f32
    %one = arith.constant 1.0 : f32
    %bx = tile.block_id x
    %r0 = arith.muli %bx, %crows : index
    %N = memref.dim %X, %c1 : memref<?x?xf16>
    %n = arith.minui %N, %climit : index
    %n32 = arith.index_cast %n : index to i32
    %x = tile.alloc_fragment : !tile.fragment<2x4096xf32>
    %m = tile.alloc_fragment : !tile.fragment<2xf32>
    %s = tile.alloc_fragment : !tile.fragment<2xf32>
    tile.copy %X[%r0, %c0] -> %x : memref<?x?xf16> -> !tile.fragment<2x4096xf32>
    // Columns past the end of the row do not take part.
    tile.parallel outs(%x : !tile.fragment<2x4096xf32>) attributes {
        indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%v: f32):
      %j = tile.index 1
      %j32 = arith.index_cast %j : index to i32
      %in = arith.cmpi slt, %j32, %n32 : i32
      %w = arith.select %in, %v, %ninf : f32
      tile.yield %w : f32
    }
    tile.reduce max %x -> %m {dim = 1 : i64, clear} : !tile.fragment<2x4096xf32> -> !tile.fragment<2xf32>
    tile.parallel ins(%m : !tile.fragment<2xf32>) outs(%x : !tile.fragment<2x4096xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%mx: f32, %v: f32):
      %d = arith.subf %v, %mx : f32
      %e = math.exp %d : f32
      tile.yield %e : f32
    }
    tile.reduce sum %x -> %s {dim = 1 : i64, clear} : !tile.fragment<2x4096xf32> -> !tile.fragment<2xf32>
    // One division per row, then products.
    tile.parallel outs(%s : !tile.fragment<2xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.parallel ins(%s : !tile.fragment<2xf32>) outs(%x : !tile.fragment<2x4096xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%inv: f32, %v: f32):
      %r = arith.mulf %v, %inv : f32
      tile.yield %r : f32
    }
    tile.copy %x -> %Y[%r0, %c0] : !tile.fragment<2x4096xf32> -> memref<?x?xf16>
  }

  // Rows of at most 8192 elements, 1 row(s) per block of 256 threads.
  tile.kernel @softmax_n8192_f16(%X: memref<?x?xf16>, %Y: memref<?x?xf16>)
      grid [%X[0] / 1] threads 256 attributes {min_blocks_per_sm = 3 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %crows = arith.constant 1 : index
    %climit = arith.constant 8192 : index
    %ninf = arith.constant 0xFF800000 : f32
    %one = arith.constant 1.0 : f32
    %bx = tile.block_id x
    %r0 = arith.muli %bx, %crows : index
    %N = memref.dim %X, %c1 : memref<?x?xf16>
    %n = arith.minui %N, %climit : index
    %n32 = arith.index_cast %n : index to i32
    %x = tile.alloc_fragment : !tile.fragment<1x8192xf32>
    %m = tile.alloc_fragment : !tile.fragment<1xf32>
    %s = tile.alloc_fragment : !tile.fragment<1xf32>
    tile.copy %X[%r0, %c0] -> %x : memref<?x?xf16> -> !tile.fragment<1x8192xf32>
    // Columns past the end of the row do not take part.
    tile.parallel outs(%x : !tile.fragment<1x8192xf32>) attributes {
        indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%v: f32):
      %j = tile.index 1
      %j32 = arith.index_cast %j : index to i32
      %in = arith.cmpi slt, %j32, %n32 : i32
      %w = arith.select %in, %v, %ninf : f32
      tile.yield %w : f32
    }
    tile.reduce max %x -> %m {dim = 1 : i64, clear} : !tile.fragment<1x8192xf32> -> !tile.fragment<1xf32>
    tile.parallel ins(%m : !tile.fragment<1xf32>) outs(%x : !tile.fragment<1x8192xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%mx: f32, %v: f32):
      %d = arith.subf %v, %mx : f32
      %e = math.exp %d : f32
      tile.yield %e : f32
    }
    tile.reduce sum %x -> %s {dim = 1 : i64, clear} : !tile.fragment<1x8192xf32> -> !tile.fragment<1xf32>
    // One division per row, then products.
    tile.parallel outs(%s : !tile.fragment<1xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.parallel ins(%s : !tile.fragment<1xf32>) outs(%x : !tile.fragment<1x8192xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%inv: f32, %v: f32):
      %r = arith.mulf %v, %inv : f32
      tile.yield %r : f32
    }
    tile.copy %x -> %Y[%r0, %c0] : !tile.fragment<1x8192xf32> -> memref<?x?xf16>
  }

  // Any row length, one row per block of 256 threads: the first pass keeps
  // the running maximum and sum (the sum rescaled when the maximum grows),
  // the second reads the row again (mostly from L2) and writes it scaled.
  tile.kernel @softmax_f16(%X: memref<?x?xf16>, %Y: memref<?x?xf16>)
      grid [%X[0] / 1] threads 256 attributes {min_blocks_per_sm = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cchunk = arith.constant 8192 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %r0 = tile.block_id x
    %N = memref.dim %X, %c1 : memref<?x?xf16>
    %chunks = arith.ceildivui %N, %cchunk : index
    %x = tile.alloc_fragment : !tile.fragment<1x8192xf32>
    %m = tile.alloc_fragment : !tile.fragment<1xf32>
    %mold = tile.alloc_fragment : !tile.fragment<1xf32>
    %s = tile.alloc_fragment : !tile.fragment<1xf32>
    tile.fill %m, %ninf : !tile.fragment<1xf32>, f32
    tile.fill %s, %zero : !tile.fragment<1xf32>, f32
    tile.pipelined %k = %c0 to %chunks step %c1 num_stages 1 {
      %col0 = arith.muli %k, %cchunk : index
      %rest = arith.subi %N, %col0 : index
      %n = arith.minui %rest, %cchunk : index
      %n32 = arith.index_cast %n : index to i32
      tile.copy %X[%r0, %col0] -> %x : memref<?x?xf16> -> !tile.fragment<1x8192xf32>
      tile.parallel outs(%x : !tile.fragment<1x8192xf32>) attributes {
          indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%v: f32):
        %j = tile.index 1
        %j32 = arith.index_cast %j : index to i32
        %in = arith.cmpi slt, %j32, %n32 : i32
        %w = arith.select %in, %v, %ninf : f32
        tile.yield %w : f32
      }
      tile.copy %m -> %mold : !tile.fragment<1xf32> -> !tile.fragment<1xf32>
      tile.reduce max %x -> %m {dim = 1 : i64} : !tile.fragment<1x8192xf32> -> !tile.fragment<1xf32>
      // s = s * exp(m_old - m) + sum(exp(x - m))
      tile.parallel ins(%mold, %m : !tile.fragment<1xf32>, !tile.fragment<1xf32>)
          outs(%s : !tile.fragment<1xf32>) attributes {indexing_maps = [
            affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%mo: f32, %mn: f32, %sv: f32):
        %d = arith.subf %mo, %mn : f32
        %e = math.exp %d : f32
        %r = arith.mulf %sv, %e : f32
        tile.yield %r : f32
      }
      tile.parallel ins(%m : !tile.fragment<1xf32>) outs(%x : !tile.fragment<1x8192xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%mx: f32, %v: f32):
        %d = arith.subf %v, %mx : f32
        %e = math.exp %d : f32
        tile.yield %e : f32
      }
      tile.reduce sum %x -> %s {dim = 1 : i64} : !tile.fragment<1x8192xf32> -> !tile.fragment<1xf32>
    }
    tile.parallel outs(%s : !tile.fragment<1xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.pipelined %k = %c0 to %chunks step %c1 num_stages 1 {
      %col0 = arith.muli %k, %cchunk : index
      tile.copy %X[%r0, %col0] -> %x : memref<?x?xf16> -> !tile.fragment<1x8192xf32>
      tile.parallel ins(%m, %s : !tile.fragment<1xf32>, !tile.fragment<1xf32>)
          outs(%x : !tile.fragment<1x8192xf32>) attributes {indexing_maps = [
            affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>,
            affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%mx: f32, %inv: f32, %v: f32):
        %d = arith.subf %v, %mx : f32
        %e = math.exp %d : f32
        %r = arith.mulf %e, %inv : f32
        tile.yield %r : f32
      }
      tile.copy %x -> %Y[%r0, %col0] : !tile.fragment<1x8192xf32> -> memref<?x?xf16>
    }
  }

  // Rows of at most 1024 elements, 8 row(s) per block of 256 threads.
  tile.kernel @softmax_n1024_bf16(%X: memref<?x?xbf16>, %Y: memref<?x?xbf16>)
      grid [%X[0] / 8] threads 256 attributes {min_blocks_per_sm = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %crows = arith.constant 8 : index
    %climit = arith.constant 1024 : index
    %ninf = arith.constant 0xFF800000 : f32
    %one = arith.constant 1.0 : f32
    %bx = tile.block_id x
    %r0 = arith.muli %bx, %crows : index
    %N = memref.dim %X, %c1 : memref<?x?xbf16>
    %n = arith.minui %N, %climit : index
    %n32 = arith.index_cast %n : index to i32
    %x = tile.alloc_fragment : !tile.fragment<8x1024xf32>
    %m = tile.alloc_fragment : !tile.fragment<8xf32>
    %s = tile.alloc_fragment : !tile.fragment<8xf32>
    tile.copy %X[%r0, %c0] -> %x : memref<?x?xbf16> -> !tile.fragment<8x1024xf32>
    // Columns past the end of the row do not take part.
    tile.parallel outs(%x : !tile.fragment<8x1024xf32>) attributes {
        indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%v: f32):
      %j = tile.index 1
      %j32 = arith.index_cast %j : index to i32
      %in = arith.cmpi slt, %j32, %n32 : i32
      %w = arith.select %in, %v, %ninf : f32
      tile.yield %w : f32
    }
    tile.reduce max %x -> %m {dim = 1 : i64, clear} : !tile.fragment<8x1024xf32> -> !tile.fragment<8xf32>
    tile.parallel ins(%m : !tile.fragment<8xf32>) outs(%x : !tile.fragment<8x1024xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%mx: f32, %v: f32):
      %d = arith.subf %v, %mx : f32
      %e = math.exp %d : f32
      tile.yield %e : f32
    }
    tile.reduce sum %x -> %s {dim = 1 : i64, clear} : !tile.fragment<8x1024xf32> -> !tile.fragment<8xf32>
    // One division per row, then products.
    tile.parallel outs(%s : !tile.fragment<8xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.parallel ins(%s : !tile.fragment<8xf32>) outs(%x : !tile.fragment<8x1024xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%inv: f32, %v: f32):
      %r = arith.mulf %v, %inv : f32
      tile.yield %r : f32
    }
    tile.copy %x -> %Y[%r0, %c0] : !tile.fragment<8x1024xf32> -> memref<?x?xbf16>
  }

  // Rows of at most 4096 elements, 2 row(s) per block of 256 threads.
  tile.kernel @softmax_n4096_bf16(%X: memref<?x?xbf16>, %Y: memref<?x?xbf16>)
      grid [%X[0] / 2] threads 256 attributes {min_blocks_per_sm = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %crows = arith.constant 2 : index
    %climit = arith.constant 4096 : index
    %ninf = arith.constant 0xFF800000 : f32
    %one = arith.constant 1.0 : f32
    %bx = tile.block_id x
    %r0 = arith.muli %bx, %crows : index
    %N = memref.dim %X, %c1 : memref<?x?xbf16>
    %n = arith.minui %N, %climit : index
    %n32 = arith.index_cast %n : index to i32
    %x = tile.alloc_fragment : !tile.fragment<2x4096xf32>
    %m = tile.alloc_fragment : !tile.fragment<2xf32>
    %s = tile.alloc_fragment : !tile.fragment<2xf32>
    tile.copy %X[%r0, %c0] -> %x : memref<?x?xbf16> -> !tile.fragment<2x4096xf32>
    // Columns past the end of the row do not take part.
    tile.parallel outs(%x : !tile.fragment<2x4096xf32>) attributes {
        indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%v: f32):
      %j = tile.index 1
      %j32 = arith.index_cast %j : index to i32
      %in = arith.cmpi slt, %j32, %n32 : i32
      %w = arith.select %in, %v, %ninf : f32
      tile.yield %w : f32
    }
    tile.reduce max %x -> %m {dim = 1 : i64, clear} : !tile.fragment<2x4096xf32> -> !tile.fragment<2xf32>
    tile.parallel ins(%m : !tile.fragment<2xf32>) outs(%x : !tile.fragment<2x4096xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%mx: f32, %v: f32):
      %d = arith.subf %v, %mx : f32
      %e = math.exp %d : f32
      tile.yield %e : f32
    }
    tile.reduce sum %x -> %s {dim = 1 : i64, clear} : !tile.fragment<2x4096xf32> -> !tile.fragment<2xf32>
    // One division per row, then products.
    tile.parallel outs(%s : !tile.fragment<2xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.parallel ins(%s : !tile.fragment<2xf32>) outs(%x : !tile.fragment<2x4096xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%inv: f32, %v: f32):
      %r = arith.mulf %v, %inv : f32
      tile.yield %r : f32
    }
    tile.copy %x -> %Y[%r0, %c0] : !tile.fragment<2x4096xf32> -> memref<?x?xbf16>
  }

  // Rows of at most 8192 elements, 1 row(s) per block of 256 threads.
  tile.kernel @softmax_n8192_bf16(%X: memref<?x?xbf16>, %Y: memref<?x?xbf16>)
      grid [%X[0] / 1] threads 256 attributes {min_blocks_per_sm = 3 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %crows = arith.constant 1 : index
    %climit = arith.constant 8192 : index
    %ninf = arith.constant 0xFF800000 : f32
    %one = arith.constant 1.0 : f32
    %bx = tile.block_id x
    %r0 = arith.muli %bx, %crows : index
    %N = memref.dim %X, %c1 : memref<?x?xbf16>
    %n = arith.minui %N, %climit : index
    %n32 = arith.index_cast %n : index to i32
    %x = tile.alloc_fragment : !tile.fragment<1x8192xf32>
    %m = tile.alloc_fragment : !tile.fragment<1xf32>
    %s = tile.alloc_fragment : !tile.fragment<1xf32>
    tile.copy %X[%r0, %c0] -> %x : memref<?x?xbf16> -> !tile.fragment<1x8192xf32>
    // Columns past the end of the row do not take part.
    tile.parallel outs(%x : !tile.fragment<1x8192xf32>) attributes {
        indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%v: f32):
      %j = tile.index 1
      %j32 = arith.index_cast %j : index to i32
      %in = arith.cmpi slt, %j32, %n32 : i32
      %w = arith.select %in, %v, %ninf : f32
      tile.yield %w : f32
    }
    tile.reduce max %x -> %m {dim = 1 : i64, clear} : !tile.fragment<1x8192xf32> -> !tile.fragment<1xf32>
    tile.parallel ins(%m : !tile.fragment<1xf32>) outs(%x : !tile.fragment<1x8192xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%mx: f32, %v: f32):
      %d = arith.subf %v, %mx : f32
      %e = math.exp %d : f32
      tile.yield %e : f32
    }
    tile.reduce sum %x -> %s {dim = 1 : i64, clear} : !tile.fragment<1x8192xf32> -> !tile.fragment<1xf32>
    // One division per row, then products.
    tile.parallel outs(%s : !tile.fragment<1xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.parallel ins(%s : !tile.fragment<1xf32>) outs(%x : !tile.fragment<1x8192xf32>)
        attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                     affine_map<(i, j) -> (i, j)>]} {
    ^bb0(%inv: f32, %v: f32):
      %r = arith.mulf %v, %inv : f32
      tile.yield %r : f32
    }
    tile.copy %x -> %Y[%r0, %c0] : !tile.fragment<1x8192xf32> -> memref<?x?xbf16>
  }

  // Any row length, one row per block of 256 threads: the first pass keeps
  // the running maximum and sum (the sum rescaled when the maximum grows),
  // the second reads the row again (mostly from L2) and writes it scaled.
  tile.kernel @softmax_bf16(%X: memref<?x?xbf16>, %Y: memref<?x?xbf16>)
      grid [%X[0] / 1] threads 256 attributes {min_blocks_per_sm = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cchunk = arith.constant 8192 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %r0 = tile.block_id x
    %N = memref.dim %X, %c1 : memref<?x?xbf16>
    %chunks = arith.ceildivui %N, %cchunk : index
    %x = tile.alloc_fragment : !tile.fragment<1x8192xf32>
    %m = tile.alloc_fragment : !tile.fragment<1xf32>
    %mold = tile.alloc_fragment : !tile.fragment<1xf32>
    %s = tile.alloc_fragment : !tile.fragment<1xf32>
    tile.fill %m, %ninf : !tile.fragment<1xf32>, f32
    tile.fill %s, %zero : !tile.fragment<1xf32>, f32
    tile.pipelined %k = %c0 to %chunks step %c1 num_stages 1 {
      %col0 = arith.muli %k, %cchunk : index
      %rest = arith.subi %N, %col0 : index
      %n = arith.minui %rest, %cchunk : index
      %n32 = arith.index_cast %n : index to i32
      tile.copy %X[%r0, %col0] -> %x : memref<?x?xbf16> -> !tile.fragment<1x8192xf32>
      tile.parallel outs(%x : !tile.fragment<1x8192xf32>) attributes {
          indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%v: f32):
        %j = tile.index 1
        %j32 = arith.index_cast %j : index to i32
        %in = arith.cmpi slt, %j32, %n32 : i32
        %w = arith.select %in, %v, %ninf : f32
        tile.yield %w : f32
      }
      tile.copy %m -> %mold : !tile.fragment<1xf32> -> !tile.fragment<1xf32>
      tile.reduce max %x -> %m {dim = 1 : i64} : !tile.fragment<1x8192xf32> -> !tile.fragment<1xf32>
      // s = s * exp(m_old - m) + sum(exp(x - m))
      tile.parallel ins(%mold, %m : !tile.fragment<1xf32>, !tile.fragment<1xf32>)
          outs(%s : !tile.fragment<1xf32>) attributes {indexing_maps = [
            affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} {
      ^bb0(%mo: f32, %mn: f32, %sv: f32):
        %d = arith.subf %mo, %mn : f32
        %e = math.exp %d : f32
        %r = arith.mulf %sv, %e : f32
        tile.yield %r : f32
      }
      tile.parallel ins(%m : !tile.fragment<1xf32>) outs(%x : !tile.fragment<1x8192xf32>)
          attributes {indexing_maps = [affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%mx: f32, %v: f32):
        %d = arith.subf %v, %mx : f32
        %e = math.exp %d : f32
        tile.yield %e : f32
      }
      tile.reduce sum %x -> %s {dim = 1 : i64} : !tile.fragment<1x8192xf32> -> !tile.fragment<1xf32>
    }
    tile.parallel outs(%s : !tile.fragment<1xf32>) attributes {
        indexing_maps = [affine_map<(i) -> (i)>]} {
    ^bb0(%sum: f32):
      %inv = arith.divf %one, %sum : f32
      tile.yield %inv : f32
    }
    tile.pipelined %k = %c0 to %chunks step %c1 num_stages 1 {
      %col0 = arith.muli %k, %cchunk : index
      tile.copy %X[%r0, %col0] -> %x : memref<?x?xbf16> -> !tile.fragment<1x8192xf32>
      tile.parallel ins(%m, %s : !tile.fragment<1xf32>, !tile.fragment<1xf32>)
          outs(%x : !tile.fragment<1x8192xf32>) attributes {indexing_maps = [
            affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>,
            affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%mx: f32, %inv: f32, %v: f32):
        %d = arith.subf %v, %mx : f32
        %e = math.exp %d : f32
        %r = arith.mulf %e, %inv : f32
        tile.yield %r : f32
      }
      tile.copy %x -> %Y[%r0, %col0] : !tile.fragment<1x8192xf32> -> memref<?x?xbf16>
    }
  }
}
