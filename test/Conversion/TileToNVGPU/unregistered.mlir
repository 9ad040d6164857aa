// RUN: tile-opt %s --allow-unregistered-dialect --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// Ops of unregistered dialects, with or without regions, are carried into
// the lowered kernel as they are.
// CHECK-LABEL: gpu.func @opaque
// CHECK: "foo.bar"() ({
// CHECK-NEXT: "foo.baz"() : () -> ()
// CHECK: "foo.qux"() : () -> ()
tile.kernel @opaque(%C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  "foo.bar"() ({
    "foo.baz"() : () -> ()
  }) : () -> ()
  "foo.qux"() : () -> ()
  tile.fill %c, %z : !tile.fragment<64x64xf32>, f32
  tile.copy %c -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}
