// RUN: tile-opt %s --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s
// RUN: tile-opt %s --tile-to-ptx | FileCheck %s --check-prefix=PTX

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
