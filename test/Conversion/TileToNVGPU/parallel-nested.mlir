// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s --implicit-check-not=tile.parallel --implicit-check-not=tile.yield

// A region nested in an element-wise body reads values of the kernel
// (%zero, %one): every copy of the body reads their lowered values, in the
// condition and inside both branches.

// CHECK-LABEL: gpu.func @nested_if
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[P:.*]] = arith.cmpf ogt, %[[X:[0-9]+]], %[[ZERO]]
// CHECK-NEXT: %{{.*}} = scf.if %[[P]] -> (f32) {
// CHECK-NEXT:   %[[Y:.*]] = arith.addf %[[X]], %[[ONE]]
// CHECK-NEXT:   scf.yield %[[Y]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %[[X]] : f32
// CHECK-NEXT: }
// CHECK: gpu.return
tile.kernel @nested_if(%A: memref<?x?xf32>, %B: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %a = tile.alloc_fragment : !tile.fragment<16x128xf32>
  tile.copy %A[%c0, %c0] -> %a : memref<?x?xf32> -> !tile.fragment<16x128xf32>
  tile.parallel outs(%a : !tile.fragment<16x128xf32>) attributes {indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32):
    %p = arith.cmpf ogt, %x, %zero : f32
    %r = scf.if %p -> f32 {
      %y = arith.addf %x, %one : f32
      scf.yield %y : f32
    } else {
      scf.yield %x : f32
    }
    tile.yield %r : f32
  }
  tile.copy %a -> %B[%c0, %c0] : !tile.fragment<16x128xf32> -> memref<?x?xf32>
}

// -----

// Deeper nesting: a loop inside a branch, reading a kernel-level bound and
// step.

// CHECK-LABEL: gpu.func @nested_for
// CHECK: scf.if
// CHECK: scf.for
// CHECK: gpu.return
tile.kernel @nested_for(%A: memref<?x?xf32>, %B: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %a = tile.alloc_fragment : !tile.fragment<16x128xf32>
  tile.copy %A[%c0, %c0] -> %a : memref<?x?xf32> -> !tile.fragment<16x128xf32>
  tile.parallel outs(%a : !tile.fragment<16x128xf32>) attributes {indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32):
    %p = arith.cmpf olt, %x, %zero : f32
    %r = scf.if %p -> f32 {
      %s = scf.for %i = %c0 to %c3 step %c1 iter_args(%v = %x) -> f32 {
        %h = arith.mulf %v, %half : f32
        scf.yield %h : f32
      }
      scf.yield %s : f32
    } else {
      scf.yield %x : f32
    }
    tile.yield %r : f32
  }
  tile.copy %a -> %B[%c0, %c0] : !tile.fragment<16x128xf32> -> memref<?x?xf32>
}
