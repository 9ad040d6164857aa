// RUN: tile-opt %s --tile-infer-layouts --tile-keep-gemms-in-flight --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// A warp-specialised GEMM on two consumer warpgroups: the block has a third,
// the producer, which gives registers to the consumers and issues every TMA
// load through a ring of full and empty barriers; the consumers synchronise
// on named barrier 1 (256 threads), never on the block's.
// CHECK: tile.kernel_info = "tile-kernel-info 1\0Akernel ws\0Ablock 384 1 1\0A
// CHECK-LABEL: gpu.func @ws
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK-SAME: nvvm.minctasm = 1 : i32

// The rings: full[s] completes on one arrival and the bytes, empty[s] on
// the 256 consumers' arrivals; the whole block waits for them once.
// CHECK: %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK: %[[EMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK: nvgpu.mbarrier.init %[[FULL]][%{{.*}}], %c1
// CHECK: nvgpu.mbarrier.init %[[EMPTY]][%{{.*}}], %c256
// CHECK: gpu.barrier
// CHECK: %[[PRODUCER:.*]] = arith.cmpi sge, %[[TID:.*]], %c256
// CHECK: scf.if %[[PRODUCER]] {

// The producer: 40 registers, one issuing thread, which computes the block's
// offsets itself, waits for a slot to be emptied from the second round on,
// and fills it.
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: %[[ISSUER:.*]] = arith.cmpi eq, %[[TID]], %c256
// CHECK: scf.if %[[ISSUER]] {
// CHECK: nvgpu.tma.prefetch.descriptor
// CHECK: gpu.block_id y
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[SLOT:.*]] = arith.remui %[[J]], %c3
// CHECK: %[[REUSE:.*]] = arith.cmpi uge, %[[J]], %c3
// CHECK: scf.if %[[REUSE]] {
// CHECK: nvgpu.mbarrier.try_wait.parity %[[EMPTY]][%[[SLOT]]]
// CHECK: }
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[SLOT]]], %c49152
// CHECK: nvgpu.tma.async.load %{{.*}}[{{.*}}], %[[FULL]][%[[SLOT]]] to
// CHECK-NOT: gpu.barrier
// CHECK: } else {

// The consumers: 232 registers; wait for a slot to be full, compute, and
// free the previous iteration's slot once its wgmma group has completed.
// CHECK: nvvm.setmaxregister increase 232
// CHECK: scf.for %[[IT:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[CSLOT:.*]] = arith.remui %[[IT]], %c3
// CHECK: nvgpu.mbarrier.try_wait.parity %[[FULL]][%[[CSLOT]]]
// CHECK-NOT: nvgpu.tma.async.load
// CHECK: nvvm.wgmma.mma_async
// CHECK: "wgmma.wait_group.sync.aligned 1;"
// CHECK: %[[HASPREV:.*]] = arith.cmpi uge, %[[IT]], %c1
// CHECK: scf.if %[[HASPREV]] {
// CHECK: %[[PREV:.*]] = arith.subi %[[IT]], %c1
// CHECK: %[[PSLOT:.*]] = arith.remui %[[PREV]], %c3
// CHECK: nvgpu.mbarrier.arrive %[[EMPTY]][%[[PSLOT]]]
// CHECK-NOT: gpu.barrier
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// The epilogue stages C in shared memory between the consumers only.
// CHECK: nvvm.fence.proxy
// CHECK-NEXT: %[[ID:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[N:.*]] = arith.constant 256 : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID]] number_of_threads = %[[N]]
// CHECK: nvgpu.tma.async.store
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
tile.kernel @ws(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>)
    grid [%C[1] / 256, %C[0] / 128] threads 256 {
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
    tile.copy %A[%m0, %k0] -> %a : memref<?x?xf16> -> !tile.shared<128x64xf16>
    tile.copy %B[%k0, %n0] -> %b : memref<?x?xf16> -> !tile.shared<64x256xf16>
    tile.gemm %a, %b, %acc : !tile.shared<128x64xf16>, !tile.shared<64x256xf16>, !tile.fragment<128x256xf32>
  }
  tile.copy %acc -> %cs : !tile.fragment<128x256xf32> -> !tile.shared<128x256xf16>
  tile.copy %cs -> %C[%m0, %n0] : !tile.shared<128x256xf16> -> memref<?x?xf16>
}

// Two resident blocks share the register file: each block's consumers get
// what half of it leaves after the producer's 40 registers a thread,
// (32768 - 128 * 40) / 256 = 108, rounded down to 104.
// CHECK-LABEL: gpu.func @ws_two_blocks
// CHECK-SAME: nvvm.minctasm = 2 : i32
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: nvvm.setmaxregister increase 104
tile.kernel @ws_two_blocks(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>)
    grid [1] threads 256 attributes {min_blocks_per_sm = 2} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<128x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
  tile.fill %acc, 0.0 : !tile.fragment<128x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 warp_specialize 1 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<128x64xf16>
    tile.copy %B[%k, %c0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %b, %acc : !tile.shared<128x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<128x64xf32>
  }
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<128x64xf32> -> memref<?x?xf32>
}
