// RUN: tile-opt %s --tile-expand-shorthands --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// A tile that a pipelined loop fills may be read into registers in that
// loop: load, transform in registers, use (a dequantising loop). The read
// takes the stage of the iteration, whose loads the loop waited for, and
// the block's barrier at the end of the iteration keeps the slot from
// being refilled while it is read.

// CHECK-LABEL: gpu.func @staged_read
// CHECK: scf.for %[[IT:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[SLOT:.*]] = arith.remui %[[IT]], %{{.*}} : index
// CHECK: nvgpu.mbarrier.try_wait.parity %{{.*}}[%[[SLOT]]]
// CHECK: %[[AT:.*]] = arith.muli %[[SLOT]], %c8192{{.*}} : index
// CHECK: %[[SHIFT:.*]] = arith.addi %c{{[0-9_]+}}, %[[AT]] : index
// CHECK: memref.view %{{.*}}[%[[SHIFT]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8192xi8, #gpu.address_space<workgroup>>
// CHECK: vector.load %{{.*}} : memref<8192xi8, #gpu.address_space<workgroup>>, vector<16xi8>
// CHECK: arith.bitcast %{{.*}} : i32 to f32
// CHECK: gpu.barrier
// CHECK: nvgpu.tma.async.load
tile.kernel @staged_read(%W: memref<?x?xi8>, %Y: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %kt = tile.let %W[0] ceildiv 64
  %w = tile.alloc_shared : !tile.shared<64x128xi8>
  %f = tile.alloc_fragment : !tile.fragment<64x128xi8>
  %acc = tile.alloc_fragment : !tile.fragment<64x128xf32>
  tile.fill %acc, 0.0
  tile.pipelined %k to %kt num_stages 3 {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %W[%k0, %c0] -> %w
    tile.copy %w -> %f
    tile.parallel ins(%q = %f) outs(%a = %acc) {
      %x = arith.sitofp %q : i8 to f32
      arith.addf %a, %x : f32
    }
  }
  tile.copy %acc -> %Y[%c0, %c0]
}
