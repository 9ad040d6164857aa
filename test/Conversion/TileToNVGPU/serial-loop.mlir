// RUN: tile-opt %s --tile-infer-layouts --tile-fold-accumulator-fills --tile-keep-gemms-in-flight --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// A serial loop over tiles around a pipelined loop over k (a persistent
// GEMM): the loop stays an scf.for over the lowered body. Each tile clears
// its accumulator (the fill does not fold: the next op touching it is the
// pipelined loop), enters the pipelined loop, whose barriers are set up
// again and whose last wgmma group is drained at its end, and stores
// through the shared tile, waiting first until the previous tile's TMA
// stores have read it.
// CHECK-LABEL: gpu.func @tiles
// CHECK: scf.for %[[T:.*]] = %block_id_x to %{{.*}} step %c4{{.*}} {
// CHECK: arith.muli %[[T]], %c64
// CHECK: nvgpu.mbarrier.create
// CHECK: nvgpu.mbarrier.init
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: nvvm.wgmma.mma_async
// CHECK: "wgmma.wait_group.sync.aligned 1;"
// CHECK: }
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: gpu.barrier
// CHECK: nvgpu.tma.async.store
// CHECK: }
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: gpu.return
tile.kernel @tiles(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>)
    grid [4] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %bid = tile.block_id x
  %N = memref.dim %C, %c1 : memref<?x?xf16>
  %K = memref.dim %A, %c1 : memref<?x?xf16>
  %tn = arith.ceildivui %N, %c64 : index
  %kt = arith.ceildivui %K, %c64 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %cs = tile.alloc_shared : !tile.shared<64x64xf16>
  scf.for %t = %bid to %tn step %c4 {
    %n0 = arith.muli %t, %c64 : index
    tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
    tile.pipelined %k = %c0 to %kt step %c1 num_stages 2 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
      tile.copy %B[%k0, %n0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
      tile.gemm %a, %b, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    }
    tile.copy %acc -> %cs : !tile.fragment<64x64xf32> -> !tile.shared<64x64xf16>
    tile.copy %cs -> %C[%c0, %n0] : !tile.shared<64x64xf16> -> memref<?x?xf16>
  }
}
