// RUN: tile-opt %s --tile-infer-layouts --tile-keep-gemms-in-flight --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s
// RUN: tile-opt %s --tile-infer-layouts --tile-keep-gemms-in-flight --tile-plan-waits --tile-to-ptx | FileCheck %s --check-prefix=PTX
// RUN: tile-opt %s --tile-infer-layouts --tile-keep-gemms-in-flight --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s --check-prefix=WAIT

// A warp-specialised GEMM in clusters of 2 blocks along N: both blocks of a
// cluster read the same tile of A (its offsets depend on block_id y only),
// so each loads 64 of its 128 rows, at its rank's, into both. A's
// descriptor has a 64-row box (64 columns by 64 rows, where C's is 64 by
// 128); B's is loaded as usual.
// CHECK: tile.kernel_info = "tile-kernel-info 1\0Akernel mc\0Ablock 384 1 1\0A
// CHECK-SAME: cluster 2 1 1
// CHECK-SAME: param tensormap 0 f16 2 box 64 64 swizzle 128\0Aparam tensormap 1 f16 2 box 64 64 swizzle 128\0Aparam tensormap 2 f16 2 box 64 128 swizzle 128
// CHECK-LABEL: gpu.func @mc
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>

// empty[s] counts the consumer warps of both blocks (8 x 2); the rings'
// initialisation is released to the cluster, whose barrier every thread
// takes before the roles split.
// CHECK: %[[FULL:.*]] = nvgpu.mbarrier.create
// CHECK: %[[EMPTY:.*]] = nvgpu.mbarrier.create
// CHECK: nvgpu.mbarrier.init %[[FULL]][%{{.*}}], %c1
// CHECK: nvgpu.mbarrier.init %[[EMPTY]][%{{.*}}], %c16
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.fence.mbarrier.init
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: %[[ROLES:.*]] = arith.cmpi sge

// The producer expects the whole stage (16 KB of A, 32 KB of B) on its full
// barrier, then loads its half of A's rows at row m0 + 64 * rank into the
// view 64 rows (8 KB) into the slot's tile, multicast to both blocks.
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[SLOT:.*]]], %c49152
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: %[[RANKX:.*]] = arith.index_castui %[[RANK]] : i32 to index
// CHECK: %[[FIRST:.*]] = arith.muli %[[RANKX]], %c64
// CHECK: %[[MASK:.*]] = arith.constant 3 : i16
// CHECK: %[[SKIP:.*]] = arith.muli %[[FIRST]], %c128
// CHECK: %[[OFF:.*]] = arith.addi %{{.*}}, %[[SKIP]]
// CHECK: %[[VIEW:.*]] = memref.view %{{.*}}[%[[OFF]]][] {{.*}} to memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[FIRST]]
// CHECK: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %[[ROW]]], %[[FULL]][%[[SLOT]]] to %[[VIEW]] multicast_mask = %[[MASK]]
// CHECK-NOT: multicast_mask
// CHECK: } else {

// The consumers free a stage in both blocks: after the warp converges,
// lanes 0 and 1 arrive on block 0's and block 1's empty barrier.
// CHECK: scf.if
// CHECK: nvvm.bar.warp.sync
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CHECK: %[[SIGNAL:.*]] = arith.cmpi ult, %[[LANE]], %c2
// CHECK: scf.if %[[SIGNAL]] {
// CHECK: nvgpu.mbarrier.get %[[EMPTY]]
// CHECK: mapa.shared::cluster.u32 r, $0, $1;
// CHECK-SAME: mbarrier.arrive.shared::cluster.b64 _, [r];
// CHECK-NOT: nvgpu.mbarrier.arrive %[[EMPTY]]
// No block leaves before the others are done with its shared memory.
// CHECK: nvgpu.tma.async.store
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: gpu.return
// PTX: .reqnctapercluster 2, 1, 1
// PTX: fence.mbarrier_init.release.cluster;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// Every wait of the rings polls without a suspend-time hint.
// WAIT-NOT: nvgpu.mbarrier.try_wait.parity
// WAIT-COUNT-2: mbarrier.try_wait.parity.shared::cta.b64 p, [$0], $1;\0A\09@!p bra LAB_WAIT;
// WAIT-NOT: nvgpu.mbarrier.try_wait.parity
// PTX: mapa.shared::cluster.u32
// PTX: mbarrier.arrive.shared::cluster.b64
// PTX: barrier.cluster.arrive.aligned;
tile.kernel @mc(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>)
    grid [%C[1] / 256, %C[0] / 128] threads 256 cluster [2] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %bx = tile.block_id x
  %by = tile.block_id y
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %K = memref.dim %A, %c1 : memref<?x?xf16>
  %kt = arith.ceildivui %K, %c64 : index
  %a = tile.alloc_shared : !tile.shared<128x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x256xf16>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
  %cs = tile.alloc_shared : !tile.shared<128x256xf16>
  tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
  tile.pipelined %k = %c0 to %kt step %c1 num_stages 3 warp_specialize 1 {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%m0, %k0] -> %a multicast : memref<?x?xf16> -> !tile.shared<128x64xf16>
    tile.copy %B[%k0, %n0] -> %b : memref<?x?xf16> -> !tile.shared<64x256xf16>
    tile.gemm %a, %b, %acc : !tile.shared<128x64xf16>, !tile.shared<64x256xf16>, !tile.fragment<128x256xf32>
  }
  tile.copy %acc -> %cs : !tile.fragment<128x256xf32> -> !tile.shared<128x256xf16>
  tile.copy %cs -> %C[%m0, %n0] : !tile.shared<128x256xf16> -> memref<?x?xf16>
}
