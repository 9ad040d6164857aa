// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-specialize

// A parameter whose bound value makes a contract divide by a value that is
// not positive, or its folded integers pass 64 bits, is refused when the
// kernel is bound, not left to refuse every launch.

// expected-error @below {{contract 0 cannot be checked: it divides by 0 once the parameters are bound; a divisor must be positive}}
tile.kernel @k(%X: memref<?xf16>) params {B = 0} grid [1] threads 128 requires [%X[0] mod B == 0] {
}
// expected-note @below {{in 'k0', specialised with B = 0}}
tile.instance @k0 = @k {}

// -----

// expected-error @below {{contract 0 cannot be checked: its integers pass 64 bits (|x| <= 9223372036854775807) once the parameters are bound}}
tile.kernel @k(%X: memref<?xf16>) params {B = 4611686018427387904} grid [1] threads 128 requires [%X[0] <= B * 2] {
}
// expected-note @below {{in 'kb', specialised with B = 4611686018427387904}}
tile.instance @kb = @k {}
