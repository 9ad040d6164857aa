// RUN: tile-opt %s -split-input-file --tile-specialize -verify-diagnostics
// RUN: not tile-opt %s -split-input-file --tile-specialize='bind=T=index' 2>&1 | FileCheck %s --check-prefix=BIND
// RUN: not tile-opt %s -split-input-file --tile-specialize='bind=BM=65536' 2>&1 | FileCheck %s --check-prefix=SIZE

// Specialisation builds types from bindings; each binding, and each type it
// produces, follows the rules the parser applies, so that no pass after it
// meets a tile of index elements or one of 2^32 elements.

// BIND: error: 'tile.kernel' op cannot be specialised as 'k': type parameter 'T' takes an integer or float element type, got index
tile.kernel @k(%X: memref<?x!tile.param<"T">>) params {T = f16}
    grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_fragment : !tile.fragment<128x!tile.param<"T">>
  tile.copy %X[%c0] -> %a : memref<?x!tile.param<"T">> -> !tile.fragment<128x!tile.param<"T">>
}

// -----

tile.kernel @k(%X: memref<?x!tile.param<"T">>) params {T = f16}
    grid [1] threads 128 {
}
// expected-error @+1 {{instance_c2: type parameter 'T' takes an integer or float element type, got index}}
tile.instance @k_bad = @k {T = index}

// -----

tile.kernel @k(%X: memref<?x!tile.param<"T">>) params {T = f16}
    grid [1] threads 128 {
}
// expected-error @+1 {{instance_c2: type parameter 'T' takes an integer or float element type, got vector<4xf16>}}
tile.instance @k_bad = @k {T = vector<4xf16>}

// -----

tile.kernel @k(%X: memref<?x!tile.param<"T">>) params {T = f16}
    grid [1] threads 128 {
}
// expected-error @+1 {{instance_c2: type parameter 'T' takes an integer or float element type, got complex<f32>}}
tile.instance @k_bad = @k {T = complex<f32>}

// -----

tile.kernel @k(%X: memref<?x!tile.param<"T">>) params {T = f16}
    grid [1] threads 128 {
}
// expected-error @+1 {{instance_c2: type parameter 'T' takes an integer or float element type, got none}}
tile.instance @k_bad = @k {T = none}

// -----

tile.kernel @k(%X: memref<?x!tile.param<"T">>) params {T = f16}
    grid [1] threads 128 {
}
// expected-error @+1 {{instance_c2: type parameter 'T' takes an integer or float element type, got tuple<>}}
tile.instance @k_bad = @k {T = tuple<>}

// -----

tile.kernel @k(%X: memref<?x!tile.param<"T">>) params {T = f16}
    grid [1] threads 128 {
}
// expected-error @+1 {{instance_c2: type parameter 'T' takes an integer or float element type, got memref<2xf32>}}
tile.instance @k_bad = @k {T = memref<2xf32>}

// -----

tile.kernel @k(%X: memref<?x!tile.param<"T">>) params {T = f16}
    grid [1] threads 128 {
}
// expected-error @+1 {{instance_c2: type parameter 'T' takes an integer or float element type, got tensor<2xf32>}}
tile.instance @k_bad = @k {T = tensor<2xf32>}

// -----

tile.kernel @k(%X: memref<?x!tile.param<"T">>) params {T = f16}
    grid [1] threads 128 {
}
// expected-error @+1 {{instance_c2: type parameter 'T' takes an integer or float element type, got !llvm.ptr}}
tile.instance @k_bad = @k {T = !llvm.ptr}

// -----

// A default is a binding too.
// expected-error @+1 {{kernel_c6: the default of type parameter 'T' takes an integer or float element type, got index}}
tile.kernel @k(%X: memref<?x!tile.param<"T">>) params {T = index}
    grid [1] threads 128 {
}

// -----

// So is a candidate.
// expected-error @+1 {{kernel_c7: type parameter 'T' takes an integer or float element type, got vector<4xf16>}}
tile.kernel @k(%X: memref<?x!tile.param<"T">>) params {T = f16}
    space {T = [f16, vector<4xf16>]} grid [1] threads 128 {
}

// -----

// A size bound through a parameter meets the limit of the tile types.
// SIZE: error: 'tile.alloc_fragment' op has type '!tile.fragment<65536x65536xf32>', which is invalid: a tile has at most 16777216 elements
// SIZE: note: in 'square', specialised with BM = 65536
tile.kernel @square(%X: memref<?x?xf16>) params {BM = 128}
    grid [%X[0] / BM] threads 128 {
  %zero = arith.constant 0.0 : f32
  %bm = tile.param "BM" : index
  %acc = tile.alloc_fragment [%bm, %bm] : !tile.fragment<?x?xf32>
  tile.fill %acc, %zero : !tile.fragment<?x?xf32>, f32
}

// -----

tile.kernel @k(%X: memref<?x?xf16>) params {BM = 128, BN = 128}
    grid [%X[0] / BM] threads 128 {
  %zero = arith.constant 0.0 : f32
  %bm = tile.param "BM" : index
  %bn = tile.param "BN" : index
  // expected-error @+1 {{has type '!tile.fragment<65536x65536xf32>', which is invalid: a tile has at most 16777216 elements}}
  %acc = tile.alloc_fragment [%bm, %bn] : !tile.fragment<?x?xf32>
  tile.fill %acc, %zero : !tile.fragment<?x?xf32>, f32
}
// expected-note @+1 {{in 'k_huge', specialised with BM = 65536, BN = 65536}}
tile.instance @k_huge = @k {BM = 65536, BN = 65536}

// -----

// 2^31 rows: refused before anything is planned for them.
tile.kernel @k(%X: memref<?x?xf32>) params {ROWS = 4}
    grid [%X[0] / ROWS] threads 128 {
  %c0 = arith.constant 0 : index
  %rows = tile.param "ROWS" : index
  // expected-error @+1 {{has type '!tile.shared<2147483648x1024xf32>', which is invalid: a tile has at most 16777216 elements}}
  %s = tile.alloc_shared [%rows] : !tile.shared<?x1024xf32>
  tile.copy %X[%c0, %c0] -> %s : memref<?x?xf32> -> !tile.shared<?x1024xf32>
}
// expected-note @+1 {{in 'k_rows', specialised with ROWS = 2147483648}}
tile.instance @k_rows = @k {ROWS = 2147483648}

// -----

// A bound kernel is verified as a whole: threads past a block's limit.
// expected-error @+1 {{kernel_c3: threads (65536) must be a positive multiple of the warp size (32), at most 1024}}
tile.kernel @k(%X: memref<?xf32>) params {THREADS = 128}
    grid [1] threads THREADS {
}
// expected-note @+1 {{in 'k_threads', specialised with THREADS = 65536}}
tile.instance @k_threads = @k {THREADS = 65536}
