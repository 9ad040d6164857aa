// RUN: tile-opt %s --split-input-file --tile-expand-shorthands --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// An 8-bit integer converted to a float becomes an xor into the mantissa of
// a float whose last place is 1 and a subtraction, exactly (no conversion
// instruction): 0x4B000000 (2^23) for f32, 0x6400 (1024) for f16; a signed
// byte is offset by 128 first (the xor's 0x80), an unsigned one is not.
// bf16 goes through f32; wider integers keep their conversion.

// CHECK-LABEL: gpu.func @signed_to_f32
// CHECK-NOT: arith.sitofp
// CHECK: %[[U:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK: %[[M:.*]] = arith.xori %[[U]], %{{.*}} : i32
// CHECK: %[[F:.*]] = arith.bitcast %[[M]] : i32 to f32
// CHECK: arith.subf %[[F]], %{{.*}} : f32
// CHECK-NOT: arith.sitofp
// CHECK-DAG: arith.constant 1258291328 : i32
// CHECK-DAG: arith.constant 0x4B000080 : f32
tile.kernel @signed_to_f32(%W: memref<?x?xi8>, %Y: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = tile.let 0
  %w = tile.alloc_fragment : !tile.fragment<64x64xi8>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %W[%c0, %c0] -> %w
  tile.parallel ins(%q = %w) outs(%o = %f) { arith.sitofp %q : i8 to f32 }
  tile.copy %f -> %Y[%c0, %c0]
}

// -----

// CHECK-LABEL: gpu.func @unsigned_to_f32
// CHECK-NOT: arith.uitofp
// CHECK: arith.xori %{{.*}}, %{{.*}} : i32
// CHECK: arith.subf %{{.*}}, %{{.*}} : f32
// CHECK-DAG: arith.constant 1258291200 : i32
// CHECK-DAG: arith.constant 0x4B000000 : f32
tile.kernel @unsigned_to_f32(%W: memref<?x?xi8>, %Y: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = tile.let 0
  %w = tile.alloc_fragment : !tile.fragment<64x64xi8>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %W[%c0, %c0] -> %w
  tile.parallel ins(%q = %w) outs(%o = %f) { arith.uitofp %q : i8 to f32 }
  tile.copy %f -> %Y[%c0, %c0]
}

// -----

// CHECK-LABEL: gpu.func @signed_to_f16
// CHECK-NOT: arith.sitofp
// CHECK: %[[U:.*]] = arith.extui %{{.*}} : i8 to i16
// CHECK: %[[M:.*]] = arith.xori %[[U]], %{{.*}} : i16
// CHECK: %[[F:.*]] = arith.bitcast %[[M]] : i16 to f16
// CHECK: arith.subf %[[F]], %{{.*}} : f16
// CHECK-DAG: arith.constant 25728 : i16
// CHECK-DAG: arith.constant 1.152000e+03 : f16
tile.kernel @signed_to_f16(%W: memref<?x?xi8>, %Y: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = tile.let 0
  %w = tile.alloc_fragment : !tile.fragment<64x64xi8>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf16>
  tile.copy %W[%c0, %c0] -> %w
  tile.parallel ins(%q = %w) outs(%o = %f) { arith.sitofp %q : i8 to f16 }
  tile.copy %f -> %Y[%c0, %c0]
}

// -----

// CHECK-LABEL: gpu.func @signed_to_bf16
// CHECK-NOT: arith.sitofp
// CHECK: arith.bitcast %{{.*}} : i32 to f32
// CHECK: %[[X:.*]] = arith.subf %{{.*}}, %{{.*}} : f32
// CHECK: arith.truncf %[[X]] : f32 to bf16
tile.kernel @signed_to_bf16(%W: memref<?x?xi8>, %Y: memref<?x?xbf16>) grid [1] threads 128 {
  %c0 = tile.let 0
  %w = tile.alloc_fragment : !tile.fragment<64x64xi8>
  %f = tile.alloc_fragment : !tile.fragment<64x64xbf16>
  tile.copy %W[%c0, %c0] -> %w
  tile.parallel ins(%q = %w) outs(%o = %f) { arith.sitofp %q : i8 to bf16 }
  tile.copy %f -> %Y[%c0, %c0]
}

// -----

// A 16-bit integer keeps its conversion (the magic holds 256 values).
// CHECK-LABEL: gpu.func @short_to_f32
// CHECK: arith.sitofp %{{.*}} : i16 to f32
tile.kernel @short_to_f32(%W: memref<?x?xi16>, %Y: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = tile.let 0
  %w = tile.alloc_fragment : !tile.fragment<64x64xi16>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %W[%c0, %c0] -> %w
  tile.parallel ins(%q = %w) outs(%o = %f) { arith.sitofp %q : i16 to f32 }
  tile.copy %f -> %Y[%c0, %c0]
}
