// RUN: tile-opt %s --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// A serial loop's step that is not known when the kernel is compiled (a
// scalar argument) is checked where the loop starts: one that is not
// positive traps, so the launch fails instead of hanging. A constant step
// needs no check (a non-positive one is refused: invalid.mlir).
// CHECK-LABEL: gpu.func @runtime_step
// CHECK: %[[BAD:.*]] = arith.cmpi sle, %[[STEP:.*]], %c0{{.*}} : index
// CHECK-NEXT: scf.if %[[BAD]] {
// CHECK-NEXT: llvm.intr.trap
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[STEP]]
tile.kernel @runtime_step(%A: memref<?x?xf32>, %s: i32) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %step = arith.index_cast %s : i32 to index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  scf.for %i = %c0 to %c4 step %step {
    tile.fill %c, %z : !tile.fragment<64x64xf32>, f32
  }
  tile.copy %c -> %A[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// CHECK-LABEL: gpu.func @constant_step
// CHECK-NOT: llvm.intr.trap
// CHECK: scf.for
// CHECK: gpu.return
tile.kernel @constant_step(%A: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    tile.fill %c, %z : !tile.fragment<64x64xf32>, f32
  }
  tile.copy %c -> %A[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}
