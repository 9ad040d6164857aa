// RUN: tile-opt %s --tile-infer-layouts --tile-fold-accumulator-fills --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// Two consumer warpgroups take turns (tile.turn): warpgroup w's turn runs
// from its take (bar.sync on named barrier 2 + w, with the warpgroup that
// passes to it: 256 threads) to its next pass (bar.arrive on the next
// warpgroup's barrier). The pass precedes the take in the body, so a turn
// spans the end of an iteration: P . V, then the next Q . K^T.

// CHECK-LABEL: gpu.func @pingpong
// CHECK: nvvm.setmaxregister increase 232
// Before the loop, if it runs, the last warpgroup hands warpgroup 0 the
// first turn.
// CHECK: %[[WG_INDEX:.*]] = arith.divui %thread_id_x, %c128
// CHECK: %[[WG:.*]] = arith.index_cast %[[WG_INDEX]] : index to i32
// CHECK: %[[RUNS:.*]] = arith.cmpi sgt, %[[COUNT:.*]], %{{.*}} : index
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[WG]], %c1_i32
// CHECK: %[[FIRST_TURN:.*]] = arith.andi %[[RUNS]], %[[LAST]]
// CHECK: scf.if %[[FIRST_TURN]] {
// CHECK: %[[B0:.*]] = arith.addi %c0_i32, %c2_i32
// CHECK: nvvm.barrier.arrive id = %[[B0]] number_of_threads = %c256_i32
// CHECK: scf.for %[[IT:.*]] = %{{.*}} to %[[COUNT]]
// Q . K^T stays in flight; the pass follows its commit, before its wait,
// and ends no turn in the first iteration.
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: wgmma.wait_group
// CHECK: %[[LATER:.*]] = arith.cmpi uge, %[[IT]], %c1
// CHECK: scf.if %[[LATER]] {
// CHECK: %[[NEXT:.*]] = arith.addi %[[WG]], %c1_i32
// CHECK: %[[NEXT_WG:.*]] = arith.remui %[[NEXT]], %c2_i32
// CHECK: %[[PASS_ID:.*]] = arith.addi %[[NEXT_WG]], %c2_i32
// CHECK: nvvm.barrier.arrive id = %[[PASS_ID]] number_of_threads = %c256_i32
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// The take: this warpgroup's barrier, before P . V's wgmmas.
// CHECK: %[[TAKE_ID:.*]] = arith.addi %[[WG]], %c2_i32
// CHECK: nvvm.barrier id = %[[TAKE_ID]] number_of_threads = %c256_i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK: nvgpu.mbarrier.arrive
// After the loop: the turn still held is passed, and warpgroup 0 takes the
// last warpgroup's final pass, so each barrier ends in its first phase.
// CHECK: scf.if %[[RUNS]] {
// CHECK: nvvm.barrier.arrive id =
// CHECK: %[[WG0:.*]] = arith.cmpi eq, %[[WG]], %c0_i32
// CHECK: scf.if %[[WG0]] {
// CHECK: %[[B0_AGAIN:.*]] = arith.addi %c0_i32{{.*}}, %c2_i32
// CHECK: nvvm.barrier id = %[[B0_AGAIN]] number_of_threads = %c256_i32
// CHECK: gpu.return
tile.kernel @pingpong(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>,
                      %O: memref<?x?xf32>)
    grid [%Q[0] / 128] threads 256 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %bx = tile.block_id x
  %m0 = arith.muli %bx, %c64 : index
  %n = arith.ceildivsi %c64, %c64 : index
  %q = tile.alloc_shared : !tile.shared<128x64xf16>
  %k = tile.alloc_shared : !tile.shared<64x64xf16>
  %v = tile.alloc_shared : !tile.shared<64x64xf16>
  %s = tile.alloc_fragment : !tile.fragment<128x64xf32>
  %p = tile.alloc_fragment : !tile.fragment<128x64xf16>
  %o = tile.alloc_fragment : !tile.fragment<128x64xf32>
  tile.copy %Q[%m0, %c0] -> %q : memref<?x?xf16> -> !tile.shared<128x64xf16>
  tile.fill %o, 0.0 : !tile.fragment<128x64xf32>
  tile.pipelined %j = %c0 to %n step %c1 num_stages 2 warp_specialize 1 {
    %n0 = arith.muli %j, %c64 : index
    tile.copy %K[%n0, %c0] -> %k : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %V[%n0, %c0] -> %v : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.fill %s, 0.0 : !tile.fragment<128x64xf32>
    tile.gemm %q, %k, %s {transpose_b, in_flight} : !tile.shared<128x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<128x64xf32>
    tile.turn pass
    tile.copy %s -> %p : !tile.fragment<128x64xf32> -> !tile.fragment<128x64xf16>
    tile.turn take
    tile.gemm %p, %v, %o : !tile.fragment<128x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<128x64xf32>
  }
  tile.copy %o -> %O[%m0, %c0] : !tile.fragment<128x64xf32> -> memref<?x?xf32>
}

// A turn whose flag is off is not taken: no turn barriers.
// CHECK-LABEL: gpu.func @turns_off
// CHECK-NOT: nvvm.barrier.arrive
// CHECK: gpu.return
tile.kernel @turns_off(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>)
    grid [1] threads 256 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<128x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
  tile.fill %acc, 0.0 : !tile.fragment<128x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 warp_specialize 1 {
    %k0 = arith.muli %k, %c4 : index
    tile.copy %A[%c0, %k0] -> %a : memref<?x?xf16> -> !tile.shared<128x64xf16>
    tile.copy %B[%k0, %c0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.turn pass if 0
    tile.turn take if 0
    tile.gemm %a, %b, %acc : !tile.shared<128x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<128x64xf32>
  }
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<128x64xf32> -> memref<?x?xf32>
}

// A reduction across the threads (a barrier) between the pass and the next
// take is outside every turn: it lowers, between the two.
// CHECK-LABEL: gpu.func @barrier_outside_turn
// CHECK: scf.for
// CHECK: nvvm.barrier.arrive
// CHECK: nvvm.barrier id = %c1_i32{{.*}} number_of_threads
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// CHECK: gpu.return
tile.kernel @barrier_outside_turn(%A: memref<?x?xf16>, %R: memref<?xf32>) grid [1] threads 256 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<128x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<128x64xf32>
  %r = tile.alloc_fragment : !tile.fragment<64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 warp_specialize 1 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<128x64xf16>
    tile.turn pass
    tile.copy %a -> %f : !tile.shared<128x64xf16> -> !tile.fragment<128x64xf32>
    tile.reduce sum %f -> %r {dim = 0 : i64} : !tile.fragment<128x64xf32> -> !tile.fragment<64xf32>
    tile.turn take
  }
  tile.copy %r -> %R[%c0] : !tile.fragment<64xf32> -> memref<?xf32>
}

// One consumer warpgroup always holds the turn: nothing is emitted for it,
// and a barrier inside the turn waits for no one.
// CHECK-LABEL: gpu.func @one_warpgroup
// CHECK-NOT: nvvm.barrier.arrive
// CHECK: gpu.return
tile.kernel @one_warpgroup(%A: memref<?x?xf16>, %R: memref<?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %r = tile.alloc_fragment : !tile.fragment<64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 warp_specialize 1 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %a -> %f : !tile.shared<64x64xf16> -> !tile.fragment<64x64xf32>
    tile.turn pass
    tile.turn take
    tile.reduce sum %f -> %r {dim = 0 : i64} : !tile.fragment<64x64xf32> -> !tile.fragment<64xf32>
  }
  tile.copy %r -> %R[%c0] : !tile.fragment<64xf32> -> memref<?xf32>
}

// P . V in flight too (its register A is written only after the next
// iteration's wait for S): a turn issues P . V and the next Q . K^T with no
// wait between them. The wait for S completes the iteration before's P . V,
// so its stage is freed right there (tile.frees_previous_stage), before the
// take: the warpgroup waiting for the turn has freed what the one holding
// it waits for, and 2 stages do (freed at the end of the iteration instead,
// they would not: invalid-warp-specialized.mlir).
// CHECK-LABEL: gpu.func @pingpong_in_flight
// CHECK: nvvm.setmaxregister increase
// CHECK: scf.for %[[IT:.*]] =
// CHECK: nvvm.barrier.arrive id =
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: %[[PREV:.*]] = arith.cmpi uge, %[[IT]], %c1
// CHECK: scf.if %[[PREV]] {
// CHECK: arith.subi %[[IT]],
// CHECK-NEXT: arith.remui
// CHECK-NEXT: nvgpu.mbarrier.arrive
// CHECK: nvvm.barrier id =
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: wait_group
// CHECK-NOT: nvgpu.mbarrier.arrive
// After the loop, the turn still held is passed.
// CHECK: nvvm.barrier.arrive id =
tile.kernel @pingpong_in_flight(%Q: memref<?x?xf16>, %K: memref<?x?xf16>, %V: memref<?x?xf16>,
                                %O: memref<?x?xf32>)
    grid [%Q[0] / 128] threads 256 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %bx = tile.block_id x
  %m0 = arith.muli %bx, %c64 : index
  %n = arith.ceildivsi %c64, %c64 : index
  %q = tile.alloc_shared : !tile.shared<128x64xf16>
  %k = tile.alloc_shared : !tile.shared<64x64xf16>
  %v = tile.alloc_shared : !tile.shared<64x64xf16>
  %s = tile.alloc_fragment : !tile.fragment<128x64xf32>
  %p = tile.alloc_fragment : !tile.fragment<128x64xf16>
  %o = tile.alloc_fragment : !tile.fragment<128x64xf32>
  tile.copy %Q[%m0, %c0] -> %q : memref<?x?xf16> -> !tile.shared<128x64xf16>
  tile.fill %o, 0.0 : !tile.fragment<128x64xf32>
  tile.pipelined %j = %c0 to %n step %c1 num_stages 2 warp_specialize 1 {
    %n0 = arith.muli %j, %c64 : index
    tile.copy %K[%n0, %c0] -> %k : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %V[%n0, %c0] -> %v : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.fill %s, 0.0 : !tile.fragment<128x64xf32>
    tile.gemm %q, %k, %s {transpose_b, in_flight} : !tile.shared<128x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<128x64xf32>
    tile.turn pass
    tile.copy %s -> %p : !tile.fragment<128x64xf32> -> !tile.fragment<128x64xf16>
    tile.turn take
    tile.gemm %p, %v, %o {in_flight} : !tile.fragment<128x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<128x64xf32>
  }
  tile.copy %o -> %O[%m0, %c0] : !tile.fragment<128x64xf32> -> memref<?x?xf32>
}
