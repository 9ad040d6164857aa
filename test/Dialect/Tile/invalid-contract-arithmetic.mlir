// RUN: tile-opt %s -split-input-file -verify-diagnostics

// Contracts and constraints compute in 64-bit integers: a constant that
// would wrap while the expression folds, a literal out of range, and a
// divisor that is not positive are refused where they are written
// (invalid-contract-binding.mlir: where bound parameters make them so).

// expected-error @+1 {{its integers pass 64 bits (|x| <= 9223372036854775807)}}
tile.kernel @k(%X: memref<?xf16>) grid [1] threads 128 requires [%X[0] <= 9223372036854775807 * 2] {
}

// -----

// expected-error @+1 {{its integers pass 64 bits}}
tile.kernel @k(%X: memref<?xf16>) grid [1] threads 128 requires [%X[0] <= 9223372036854775807 + 1] {
}

// -----

// expected-error @+1 {{its integers pass 64 bits}}
tile.kernel @k(%X: memref<?xf16>) grid [1] threads 128 requires [%X[0] * 4611686018427387904 * 2 >= 1] {
}

// -----

// expected-error @+1 {{the integer is out of the range an expression computes in (|x| <= 9223372036854775807)}}
tile.kernel @k(%X: memref<?xf16>) grid [1] threads 128 requires [%X[0] >= -9223372036854775808] {
}

// -----

// expected-error @+1 {{'floordiv 0': the divisor must be positive}}
tile.kernel @k(%X: memref<?xf16>) grid [1] threads 128 requires [%X[0] floordiv 0 >= 1] {
}

// -----

// expected-error @+1 {{'mod -4': the divisor must be positive}}
tile.kernel @k(%X: memref<?xf16>) grid [1] threads 128 requires [%X[0] mod -4 == 0] {
}

// -----

// A constraint over parameters is checked for every binding, the defaults
// first; one that overflows for them is refused.
// expected-error @+1 {{kernel_c7: the defaults break a constraint 'B * -9223372036854775807 - 9223372036854775807 >= 0' cannot be evaluated for B = 1}}
tile.kernel @k(%X: memref<?xf16>) params {B = 1} where [B * 9223372036854775807 <= -9223372036854775807] grid [1] threads 128 {
}

// -----

// The largest magnitudes themselves are fine.
tile.kernel @k(%X: memref<?xf16>) grid [1] threads 128 requires [%X[0] <= 9223372036854775807, %X[0] >= -9223372036854775807] {
}
