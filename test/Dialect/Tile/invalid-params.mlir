// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{kernel_c6: parameter name 'mod' must be an identifier (letters, digits, _) and not floordiv, ceildiv or mod}}
tile.kernel @k(%X: memref<?xf16>) params {mod = 1} grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c6: parameter 'P' must default to an integer, a boolean or a type, got "x"}}
tile.kernel @k(%X: memref<?xf16>) params {P = "x"} grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c6: 'BN' is not an integer parameter of kernel 'k'}}
tile.kernel @k(%X: memref<?xf16>) params {BM = 64} grid [%X[0] / BN] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c6: 'T' is not an integer parameter of kernel 'k'}}
tile.kernel @k(%X: memref<?xf16>) params {T = f16} grid [1] threads T {
}

// -----

// expected-error @+1 {{kernel_c6: 'U' is not a type parameter of kernel 'k'}}
tile.kernel @k(%X: memref<?x!tile.param<"U">>) params {T = f16} grid [1] threads 128 {
}

// -----

tile.kernel @k(%X: memref<?xf16>) params {T = f16} grid [1] threads 128 {
  %c = arith.constant 0 : index
  // expected-error @+1 {{kernel_c6: 'T' is not an integer parameter of kernel 'k'}}
  tile.pipelined %i = %c to %c step %c num_stages T {
  }
}

// -----

// A flag names an integer or boolean parameter, and no other size does.
tile.kernel @k(%X: memref<?xf16>) params {T = f16} grid [1] threads 128 {
  %c = arith.constant 0 : index
  // expected-error @+1 {{kernel_c6: 'T' is not an integer or boolean parameter of kernel 'k'}}
  tile.pipelined %i = %c to %c step %c num_stages 1 warp_specialize T {
  }
}

// -----

tile.kernel @k(%X: memref<?xf16>) params {F = true} grid [1] threads 128 {
  %c = arith.constant 0 : index
  // expected-error @+1 {{kernel_c6: 'F' is not an integer parameter of kernel 'k'}}
  tile.pipelined %i = %c to %c step %c num_stages F warp_specialize F {
  }
}

// -----

// expected-error @+1 {{kernel_c6: 'F' is not an integer parameter of kernel 'k'}}
tile.kernel @k(%X: memref<?xf16>) params {F = true} grid [1] threads F {
}

// -----

// expected-error @+1 {{'BN' is not an integer parameter of the kernel}}
tile.kernel @k(%X: memref<?xf16>) params {BM = 64} where [BN > 0] grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c7: `space` and `where` need `params`}}
tile.kernel @k(%X: memref<?xf16>) space {BM = [64]} grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c7: kernel 'k' has no parameter 'BN'}}
tile.kernel @k(%X: memref<?xf16>) params {BM = 64} space {BN = [64]} grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c7: the space of 'BM' must be a non-empty list of candidates}}
tile.kernel @k(%X: memref<?xf16>) params {BM = 64} space {BM = []} grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c7: parameter 'T' takes a type, got 3}}
tile.kernel @k(%X: memref<?xf16>) params {T = f16} space {T = [f16, 3]} grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c7: the space of 'BM' lists 128 : i64 twice}}
tile.kernel @k(%X: memref<?xf16>) params {BM = 64} space {BM = [64, 128, 128]} grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c7: the default of 'BM' = 64 is not among its candidates [128, 256]}}
tile.kernel @k(%X: memref<?xf16>) params {BM = 64} space {BM = [128, 256]} grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c7: the defaults break a constraint 'BM mod 128 == 0' does not hold for BM = 64}}
tile.kernel @k(%X: memref<?xf16>) params {BM = 64} where [BM mod 128 == 0] grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c7: the defaults break a constraint 'BM mod (Z floordiv 2) == 0' cannot be evaluated for BM = 64 Z = 1}}
tile.kernel @k(%X: memref<?xf16>) params {BM = 64, Z = 1} where [BM mod (Z floordiv 2) == 0] grid [1] threads 128 {
}

// -----

// expected-error @+1 {{kernel_c8: contract #0 uses dimension 2 of argument #0, which has rank 1}}
tile.kernel @k(%X: memref<?xf16>) grid [1] threads 128 requires [%X[2] <= 8] {
}

// -----

// expected-error @+1 {{kernel_c6: 'D' is not an integer or boolean parameter of kernel 'k'}}
tile.kernel @k(%X: memref<?xf16>) grid [1] threads 128 requires [%X[0] == D] {
}

// -----

tile.kernel @k(%X: memref<?xf16>) params {BM = 64, F = false} grid [1] threads 128 {
  // expected-error @+1 {{param_c1: 'N' is not an integer parameter of the enclosing kernel}}
  %n = tile.param "N" : index
}

// -----

tile.kernel @k(%X: memref<?xf16>) params {BM = 64, F = false} grid [1] threads 128 {
  // expected-error @+1 {{param_c1: 'F' is a boolean parameter, read it as i1}}
  %f = tile.param "F" : index
}

// -----

tile.kernel @k(%X: memref<?xf16>) params {BM = 64} grid [1] threads 128 {
  %bm = tile.param "BM" : index
  // expected-error @+1 {{alloc_c3: '!tile.shared<?x?xf16>' has 2 '?' dimension(s), given 1 size(s)}}
  %s = tile.alloc_shared [%bm] : !tile.shared<?x?xf16>
}

// -----

tile.kernel @k(%X: memref<?xf16>) params {BM = 64} grid [1] threads 128 {
}
// expected-error @+1 {{instance_c2: parameter 'BM' takes an integer, got f16}}
tile.instance @k2 = @k {BM = f16}

// -----

tile.kernel @k(%X: memref<?xf16>) grid [1] threads 128 {
}
// expected-error @+1 {{instance_c1: 'k' is not a parametric tile.kernel}}
tile.instance @k2 = @k {}

// -----

// expected-error @+1 {{a contract refers to '%Z', which is not a kernel argument}}
tile.kernel @k(%X: memref<?xf16>) grid [1] threads 128 requires [%X[0] == %Z[0]] {
}

// -----

// expected-error @+1 {{expected ==, <=, >=, < or >}}
tile.kernel @k(%X: memref<?xf16>) grid [1] threads 128 requires [%X[0] 4] {
}

// -----

// expected-error @+1 {{expected %ARG[DIM], an integer or an integer parameter in a contract}}
tile.kernel @k(%X: memref<?xf16>) grid [1] threads 128 requires [%X[0] mod == 4] {
}

// -----

// expected-error @+1 {{kernel_c8: contract #0 reads no argument dimension; a relation between parameters belongs in `where`}}
tile.kernel @k(%X: memref<?xf16>) params {B = 4} grid [1] threads 128 requires [B * 2 == 8] {
}

// -----

// A parameter in an expression is checked as a bound is.
// expected-error @+1 {{kernel_c6: 'N' is not an integer or boolean parameter of kernel 'k'}}
tile.kernel @k(%X: memref<?xf16>) params {B = 4} grid [1] threads 128 requires [%X[0] mod (N * B) == 0] {
}

// -----

// expected-error @+1 {{kernel_c8: contract #0 has relation 'ne'; expected eq, le, ge, lt or gt}}
"tile.kernel"() <{contracts = [#tile.contract<"ne", ()[s0] -> (s0, 4), [array<i64: 0, 0>]>], function_type = (memref<?xf16>) -> (), grid_args = array<i64: -1>, grid_dims = array<i64: 0>, grid_tiles = [1], sym_name = "k", threads = 128 : i64}> ({
^bb0(%arg0: memref<?xf16>):
  "tile.yield"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{kernel_c8: contract #0 must compare two expressions of its 1 operands as symbols, got affine_map<()[s0, s1] -> (s0, s1)>}}
"tile.kernel"() <{contracts = [#tile.contract<"eq", ()[s0, s1] -> (s0, s1), [array<i64: 0, 0>]>], function_type = (memref<?xf16>) -> (), grid_args = array<i64: -1>, grid_dims = array<i64: 0>, grid_tiles = [1], sym_name = "k", threads = 128 : i64}> ({
^bb0(%arg0: memref<?xf16>):
  "tile.yield"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{kernel_c8: contract #0 has operand "Q"; expected a dimension (array<i64: arg, dim>), an integer or a #tile.param}}
"tile.kernel"() <{contracts = [#tile.contract<"eq", ()[s0] -> (s0, 1), ["Q"]>], function_type = (memref<?xf16>) -> (), grid_args = array<i64: -1>, grid_dims = array<i64: 0>, grid_tiles = [1], sym_name = "k", threads = 128 : i64}> ({
^bb0(%arg0: memref<?xf16>):
  "tile.yield"() : () -> ()
}) : () -> ()

// -----

// An instance becomes a kernel: its name follows kernel_c9.
tile.kernel @k(%X: memref<?xf16>) params {B = 1} grid [1] threads 128 {
}
// expected-error @+1 {{instance_c1: the name 'k.f16' (5 characters) must be an identifier}}
tile.instance @"k.f16" = @k {}

// -----

// The runtime checks any number of contracts, of 24 items each.
// expected-error @+1 {{kernel_c8: contract #0 has 28 operands and operators; the runtime reads at most 24 (split it into several contracts)}}
tile.kernel @k(%X: memref<?x?x?x?xf16>) grid [1] threads 128 requires [%X[0] * %X[1] + %X[1] * %X[2] + %X[2] * %X[3] + %X[0] * %X[2] + %X[1] * %X[3] + %X[0] * %X[3] + %X[0] * %X[0] <= %X[3]] {
}
