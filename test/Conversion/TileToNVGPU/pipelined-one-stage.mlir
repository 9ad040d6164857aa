// RUN: tile-opt %s --tile-infer-layouts --tile-keep-gemms-in-flight --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// A one-stage pipelined loop: the slot is refilled with the next iteration
// at the end of each one (lag 0), after waiting for the wgmma group still in
// flight; with more stages the slot of the previous iteration is refilled
// (lag 1), which with one stage would wait on a load never issued.
// CHECK-LABEL: gpu.func @one_stage
// CHECK: scf.for %[[IT:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: wgmma.mma_async
// CHECK-NOT: wgmma.wait_group
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK-NOT: wgmma.wait_group
// CHECK: gpu.barrier
// CHECK: %[[PREV:.*]] = arith.subi %[[IT]], %c0{{.*}} : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[PREV]], %c1{{.*}} : index
// CHECK: arith.cmpi slt, %[[NEXT]], %{{.*}} : index
// CHECK: scf.if
// CHECK: nvgpu.tma.async.load
// CHECK: }
// Nothing is left in flight after the loop.
// CHECK-NOT: wgmma.wait_group
// CHECK: gpu.return
tile.kernel @one_stage(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>)
    grid [%C[1] / 64, %C[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %bx = tile.block_id x
  %by = tile.block_id y
  %m0 = arith.muli %by, %c64 : index
  %n0 = arith.muli %bx, %c64 : index
  %K = memref.dim %A, %c1 : memref<?x?xf16>
  %kt = arith.ceildivui %K, %c64 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
  tile.pipelined %k = %c0 to %kt step %c1 num_stages 1 {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%m0, %k0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %B[%k0, %n0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %b, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc -> %C[%m0, %n0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}
