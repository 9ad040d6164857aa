// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-to-ptx | FileCheck %s --check-prefix=PTX

// A kernel launched in clusters: the kernel info's `cluster` line (x, y, z,
// 1 where left out), and the function's nvvm.cluster_dim, which is PTX's
// .reqnctapercluster (with .explicitcluster): the launch must give it.
// CHECK: tile.kernel_info = "tile-kernel-info 1\0Akernel pairs\0Ablock 128 1 1\0Asmem 0\0Acluster 2 1 1\0Agrid 0 0 1 64\0A
// CHECK: gpu.func @pairs
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// PTX: .entry pairs(
// PTX-SAME: .maxntid 128, 1, 1\0A.explicitcluster\0A.reqnctapercluster 2, 1, 1\0A{
tile.kernel @pairs(%X: memref<?x?xf16>, %Y: memref<?x?xf16>)
    grid [%X[1] / 64, %X[0] / 64] threads 128 cluster [2] {
  %c64 = arith.constant 64 : index
  %bx = tile.block_id x
  %by = tile.block_id y
  %m = arith.muli %by, %c64 : index
  %n = arith.muli %bx, %c64 : index
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %X[%m, %n] -> %x : memref<?x?xf16> -> !tile.fragment<64x64xf32>
  tile.copy %x -> %Y[%m, %n] : !tile.fragment<64x64xf32> -> memref<?x?xf16>
}

// -----

// A reduction across the cluster: the block's value (after the warps')
// in its shared word, the cluster's barrier, every block's word read
// through mapa into the shared::cluster window (one per block of the
// cluster: 4), the barrier again.
// CHECK-LABEL: gpu.func @row_max
// CHECK: gpu.barrier
// CHECK: %[[WORD:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: scf.if
// CHECK-NEXT: llvm.store %{{.*}}, %[[WORD]] : f32, !llvm.ptr<3>
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: %[[R0:.*]] = nvvm.mapa %[[WORD]], %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: llvm.load %[[R0]] : !llvm.ptr<7> -> f32
// CHECK-COUNT-3: nvvm.mapa %[[WORD]]
// CHECK-NOT: nvvm.mapa
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// PTX: barrier.cluster.arrive.aligned;\0A\09barrier.cluster.wait.aligned;
// PTX: mapa.shared::cluster.u64
// PTX: ld.shared::cluster.b32
tile.kernel @row_max(%X: memref<?x?xf32>, %M: memref<?xf32>)
    grid [4, %X[0] / 1] threads 128 cluster [4] {
  %c1024 = arith.constant 1024 : index
  %bx = tile.block_id x
  %row = tile.block_id y
  %col = arith.muli %bx, %c1024 : index
  %x = tile.alloc_fragment : !tile.fragment<1024xf32>
  tile.copy %X[%row, %col] -> %x : memref<?x?xf32> -> !tile.fragment<1024xf32>
  %m = tile.reduction max %x across cluster : !tile.fragment<1024xf32> -> f32
  tile.atomic max %m -> %M[%row] : f32 -> memref<?xf32>
}
