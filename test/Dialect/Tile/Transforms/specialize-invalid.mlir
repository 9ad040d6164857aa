// RUN: tile-opt %s --tile-specialize="bind=BM=96" -split-input-file -verify-diagnostics
// RUN: not tile-opt %s -split-input-file --tile-specialize='bind=BM' 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: not tile-opt %s -split-input-file --tile-specialize='kernels=nope' 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not tile-opt %s -split-input-file --tile-specialize='bind=T=notatype' 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not tile-opt %s -split-input-file --tile-to-llvm='bind=BM=96' 2>&1 | FileCheck %s --check-prefix=PIPELINE

// TEXT: tile-specialize: a binding is NAME=VALUE, got 'BM'
// NAME: tile-specialize: no kernel or instance named 'nope'
// VALUE: tile-specialize: the value of 'T' must be an integer, true, false or a type, got 'notatype'
// A float is no parameter value; the type parser's own message stays out.
// RUN: not tile-opt %s -split-input-file --tile-specialize='bind=BM=1e-10' 2>&1 | FileCheck %s --check-prefix=FLOAT --implicit-check-not="non-function type"
// FLOAT: tile-specialize: the value of 'BM' must be an integer, true, false or a type, got '1e-10'

// A binding outside the candidates names the parameter.
// expected-error @+1 {{cannot be specialised as 'k': parameter 'BM' = 96 is not among its candidates [64, 128]}}
tile.kernel @k(%X: memref<?xf32>) params {BM = 64} space {BM = [64, 128]}
    grid [%X[0] / BM] threads 128 {
}

// -----

// So does a broken constraint.
// PIPELINE: error: 'tile.kernel' op cannot be specialised as 'k': constraint 'BM mod 64 == 0' does not hold for BM = 96
// expected-error @+1 {{cannot be specialised as 'k': constraint 'BM mod 64 == 0' does not hold for BM = 96}}
tile.kernel @k(%X: memref<?xf32>) params {BM = 64} where [BM mod 64 == 0]
    grid [%X[0] / BM] threads 128 {
}

// -----

// expected-error @+1 {{cannot be specialised as 'k': parameter 'BM' takes a type, got 96}}
tile.kernel @k(%X: memref<?x!tile.param<"BM">>) params {BM = f16}
    grid [1] threads 128 {
}

// -----

// expected-error @+1 {{cannot be specialised as 'k': kernel 'k' has no parameter 'BM'}}
tile.kernel @k(%X: memref<?xf32>) params {BN = 64} grid [1] threads 128 {
}

// -----

// The bound kernel is verified; its errors say which bindings made it.
// expected-note @+1 {{in 'k', specialised with BM = 96}}
tile.kernel @k(%X: memref<?xf32>) params {BM = 64} grid [1] threads 128 {
  %bm = tile.param "BM" : index
  %a = tile.alloc_shared [%bm] : !tile.shared<?x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{gemm_c2: C is 64x64, it must be 96x64 (M of op(A) by N of op(B))}}
  tile.gemm %a, %b, %c : !tile.shared<?x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
}

// -----

// expected-note @+1 {{in 'k', specialised with BM = 96}}
tile.kernel @k(%X: memref<?xf32>) params {BM = 64} grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %n = memref.dim %X, %c0 : memref<?xf32>
  // expected-error @+1 {{alloc_c3: size #0 of '!tile.fragment<?xf32>' must fold to a positive constant once the parameters are bound}}
  %f = tile.alloc_fragment [%n] : !tile.fragment<?xf32>
  %zero = arith.constant 0.0 : f32
  tile.fill %f, %zero : !tile.fragment<?xf32>, f32
}

// -----

// A cluster given by a parameter is checked once it is bound.
// expected-error @+2 {{kernel_c11: a cluster of 96 blocks; at most 8 (the portable cluster size)}}
// expected-note @+1 {{in 'k', specialised with BM = 96}}
tile.kernel @k(%X: memref<?xf32>) params {BM = 2} grid [%X[0] / 64] threads 128 cluster [BM] {
}
