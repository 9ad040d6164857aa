// RUN: tile-opt %s --split-input-file --tile-expand-shorthands --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// Integer fragments move between global memory and registers unconverted,
// by the same vector and masked paths as floats: 16 bytes an access, so
// 16 i8 or 4 i32 elements; a tile.parallel body converts them (an i8
// without a conversion instruction: byte-to-float.mlir).

// CHECK-LABEL: gpu.func @dequantize
// CHECK: memref.alloca() : memref<64xi8>
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x?xi8, strided<[?, 1]>, #gpu.address_space<global>>, vector<16xi8>
// Masked: one predicated byte load each, into a 16-bit register.
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "mov.b16 $0, 0;\0A\09@$1 ld.global.u8 $0, [$2];"
// CHECK: arith.bitcast %{{.*}} : i32 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
tile.kernel @dequantize(%W: memref<?x?xi8>, %Y: memref<?x?xf16>) grid [%W[0] / 64] threads 128 {
  %c0 = tile.let 0
  %m0 = tile.let block_id.x * 64
  %w = tile.alloc_fragment : !tile.fragment<64x128xi8>
  %f = tile.alloc_fragment : !tile.fragment<64x128xf32>
  tile.copy %W[%m0, %c0] -> %w
  tile.parallel ins(%q = %w) outs(%o = %f) { arith.sitofp %q : i8 to f32 }
  tile.copy %f -> %Y[%m0, %c0]
}

// -----

// CHECK-LABEL: gpu.func @int_store
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?x?xi32, strided<[?, 1]>, #gpu.address_space<global>>, vector<4xi32>
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$0 st.global.b32 [$1], $2;"
tile.kernel @int_store(%C: memref<?x?xi32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c = tile.alloc_fragment : !tile.fragment<64x64xi32>
  tile.fill %c, 7
  tile.copy %c -> %C[%c0, %c0]
}
