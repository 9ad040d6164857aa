// RUN: tile-opt %s -split-input-file -verify-diagnostics

// Each diagnostic of the shorthands, at the op that is wrong.

tile.kernel @untyped(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %f = "tile.alloc_fragment"() : () -> !tile.fragment<64x64xf16>
  // expected-error @+1 {{'%f' is not an argument of the enclosing tile.kernel, a tile allocated before or a tile.reduction's result, whose types are known: write the operands' types (`: ...`)}}
  tile.copy %f -> %A[%c0, %c0]
}

// -----

tile.kernel @count(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{let_c1: 2 values, 1 types}}
  %a, %b = tile.let 1, 2 : i32
}

// -----

tile.kernel @float_int(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{let_c1: a float literal needs a float type (`: f32`), got 'index'}}
  %a = tile.let 1.5
}

// -----

tile.kernel @condition(%A: memref<?x?xf16>) params {BM = 64} grid [1] threads 128 {
  // expected-error @+1 {{let_c2: the condition of `?` is a boolean parameter}}
  %a = tile.let BM + 1 ? 1 : 2
}

// -----

tile.kernel @flag_size(%A: memref<?x?xf16>) params {BM = 64} grid [1] threads 128 {
  // expected-error @+1 {{let_c2: 'BM' is not a boolean parameter: a condition needs one}}
  %a = tile.let BM ? 1 : 2
}

// -----

tile.kernel @size_flag(%A: memref<?x?xf16>) params {F = true} grid [1] threads 128 {
  // expected-error @+1 {{kernel_c6: 'F' is not an integer parameter of kernel 'size_flag'}}
  %a = tile.let F * 2
}

// -----

tile.kernel @unknown(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{kernel_c6: 'BN' is not an integer parameter of kernel 'unknown'}}
  %a = tile.let BN * 2
}

// -----

tile.kernel @dim_of_value(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{let_c3: '%c0' is not an argument of the enclosing tile.kernel: `%X[d]` reads a dimension of one}}
  %a = tile.let %c0[1]
}

// -----

tile.kernel @dim_range(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{let_c3: 'memref<?x?xf16>' has no dimension 2}}
  %a = tile.let %A[2]
}

// -----

tile.kernel @grid(%A: memref<?x?xf16>) grid [1, 1] threads 128 {
  // expected-error @+1 {{let_c3: block_id.z is outside the kernel's 2-d grid}}
  %a = tile.let block_id.z
}

// -----

tile.kernel @leaf(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{expected an integer, a parameter, block_id.x/y/z, %value or %ARG[DIM]}}
  %a = tile.let 2 * )
}

// -----

func.func @outside() {
  // expected-error @+1 {{'tile.let' op is used inside a tile.kernel}}
  %a = tile.let 2
  return
}

// -----

tile.kernel @through_source(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : !tile.shared<64x64xf16>
  %t = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-error @+1 {{copy_c9: only a copy from a fragment to global memory goes through a shared tile}}
  tile.copy %s -> %A[%c0, %c0] through %t
}

// -----

tile.kernel @through_type(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %s = tile.alloc_shared : !tile.shared<64x64xf32>
  // expected-error @+1 {{copy_c9: the staging tile must have the fragment's shape and the memref's element type, '!tile.shared<64x64xf32>' for '!tile.fragment<64x64xf32>' into 'memref<?x?xf16>'}}
  tile.copy %f -> %A[%c0, %c0] through %s
}

// -----

tile.kernel @through_flag(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %s = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-error @+1 {{copy_c9: the flag (2) must be 0 or 1}}
  tile.copy %f -> %A[%c0, %c0] through %s if 2
}

// -----

tile.kernel @through_size_flag(%A: memref<?x?xf16>) params {BM = 64} grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %s = tile.alloc_shared : !tile.shared<64x64xf16>
  // expected-error @+1 {{the flag 'BM' is an integer parameter; a flag is a boolean one}}
  tile.copy %f -> %A[%c0, %c0] through %s if BM
}

// -----

// expected-error @+2 {{kernel_c7: the candidates of 'BM' are given twice}}
tile.kernel @candidates(%A: memref<?x?xf16>) params {BM = 64 in [64, 128]}
    space {BM = [64]} grid [1] threads 128 {
}

// -----

tile.kernel @index_type(%A: memref<?x?xf16>) grid [1] threads 128 {
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.parallel outs(%x = %f) {
    // expected-error @+1 {{'tile.index' op result #0 must be signless integer or index, but got 'f32'}}
    %j = tile.index 1 : f32
    tile.yield %x : f32
  }
}

// -----

tile.kernel @gemm_flag_int(%A: memref<?x?xf16>) params {BM = 64} grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{the flag 'BM' is an integer parameter; a flag is a boolean one}}
  tile.gemm %a, %a, %acc {transpose_b = #tile.param<"BM">}
}

// -----

tile.kernel @gemm_flag_unknown(%A: memref<?x?xf16>) params {BM = 64} grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{kernel_c6: 'TB' is not an integer or boolean parameter of kernel 'gemm_flag_unknown'}}
  tile.gemm %a, %a, %acc {transpose_b = #tile.param<"TB">}
}

// -----

tile.kernel @gemm_flag_kind(%A: memref<?x?xf16>) grid [1] threads 128 {
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @+1 {{'tile.gemm' op attribute 'transpose_b' failed to satisfy constraint}}
  tile.gemm %a, %a, %acc {transpose_b = 1 : i64}
}

// -----

tile.kernel @atomic_scalar(%S: memref<?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  // expected-error @+1 {{'%v' is not an argument of the enclosing tile.kernel, a tile allocated before or a tile.reduction's result, whose types are known: write the operands' types (`: ...`)}}
  tile.atomic add %v -> %S[%c0]
}

// -----

tile.kernel @sizes_mixed(%A: memref<?x?xf16>) params {BM = 64} grid [1] threads 128 {
  %c = arith.constant 64 : index
  // expected-error @+1 {{alloc_c3: give the sizes as index values or as parameter names, not both}}
  %a = tile.alloc_shared [%c, BM] : !tile.shared<?x?xf16>
}

// -----

tile.kernel @sizes_count(%A: memref<?x?xf16>) params {BM = 64} grid [1] threads 128 {
  // expected-error @+1 {{alloc_c3: '!tile.shared<?x?xf16>' has 2 '?' dimension(s), given 1 size(s)}}
  %a = tile.alloc_shared [BM] : !tile.shared<?x?xf16>
}

// -----

tile.kernel @sizes_unknown(%A: memref<?x?xf16>) params {BM = 64} grid [1] threads 128 {
  // expected-error @+1 {{kernel_c6: 'BN' is not an integer parameter of kernel 'sizes_unknown'}}
  %a = tile.alloc_fragment [BN] : !tile.fragment<?xf32>
}

// -----

tile.kernel @sizes_both(%A: memref<?x?xf16>) params {BM = 64} grid [1] threads 128 {
  %c = arith.constant 64 : index
  // expected-error @+1 {{alloc_c3: the sizes are index values or parameter names, not both}}
  %a = "tile.alloc_fragment"(%c) {size_params = [#tile.param<"BM">]} : (index) -> !tile.fragment<?x?xf32>
}

// -----

tile.kernel @loop_bounds(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{pipelined_c4: give both the lower bound and the step, or neither (0 and 1)}}
  "tile.pipelined"(%c0, %c4) <{num_stages = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0>}> ({
  ^bb0(%k: index):
    tile.yield
  }) : (index, index) -> ()
}

// -----

tile.kernel @let_float_expr(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{let_c1: an integer expression has an integer or index result, got 'f32'}}
  %a = tile.let 1 + 2 : f32
}

// -----

tile.kernel @let_malformed(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{let_c1: a value is [map], [flag, map, map] or [float], got []}}
  %x = "tile.let"() {leaves = [], values = [[]]} : () -> index
}

// -----

tile.kernel @let_symbols(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{let_c1: expected a map of 0 symbols, got affine_map<()[s0] -> (s0)>}}
  %x = "tile.let"() {leaves = [], values = [[affine_map<()[s0] -> (s0)>]]} : () -> index
}

// -----

tile.kernel @let_literal_type(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{let_c1: the literal 1.000000e+00 : f16 must have its result's type 'f32'}}
  %x = "tile.let"() {leaves = [], values = [[1.0 : f16]]} : () -> f32
}

// -----

tile.kernel @let_condition(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{let_c2: a condition is a boolean parameter, got "F"}}
  %x = "tile.let"() {leaves = [], values = [["F", affine_map<() -> (1)>, affine_map<() -> (2)>]]} : () -> index
}

// -----

tile.kernel @let_leaf_operand(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{let_c3: leaf array<i64: 3> names no operand}}
  %x = "tile.let"() {leaves = [array<i64: 3>], values = [[affine_map<()[s0] -> (s0)>]]} : () -> index
}

// -----

tile.kernel @let_leaf_index(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{let_c3: operand #0 is read as an index, but is 'memref<?x?xf16>'}}
  %x = "tile.let"(%A) {leaves = [array<i64: 0>], values = [[affine_map<()[s0] -> (s0)>]]} : (memref<?x?xf16>) -> index
}

// -----

tile.kernel @let_block_id(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{let_c3: unknown block id '"w"'}}
  %x = "tile.let"() {leaves = ["w"], values = [[affine_map<()[s0] -> (s0)>]]} : () -> index
}

// -----

tile.kernel @let_leaf_kind(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{let_c3: unknown leaf 1.000000e+00 : f32}}
  %x = "tile.let"() {leaves = [1.0 : f32], values = [[affine_map<()[s0] -> (s0)>]]} : () -> index
}

// -----

tile.kernel @sizes_name(%A: memref<?x?xf16>) grid [1] threads 128 {
  // expected-error @+1 {{'mod' is not a parameter name}}
  %a = tile.alloc_shared [mod] : !tile.shared<?x64xf16>
}
