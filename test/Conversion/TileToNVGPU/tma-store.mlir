// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-keep-gemms-in-flight --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// A shared-to-global copy is a TMA store: the fragment's writes are made
// visible to the async proxy and the block synchronises; one thread issues
// a store per 64-column panel (coordinates innermost first) and commits
// them as one bulk group; nothing waits for them until the kernel's end,
// where the shared memory must outlive their reads. The C argument gets a
// tensor map like a TMA load's, and is written.
// CHECK-LABEL: tile.kernel_info = "tile-kernel-info 1\0Akernel store_once
// CHECK-SAME: param tensormap 0 f16 2 box 64 64 swizzle 128\0Aaccess 0 write\0Aend
// CHECK-LABEL: gpu.func @store_once
// CHECK-NOT: nvvm.cp.async.bulk.wait_group
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %thread_id_x, %{{.*}} : index
// CHECK-NEXT: scf.if %[[LEADER]] {
// CHECK: nvgpu.tma.async.store %{{.*}} to %{{.*}}[%[[COL0:.*]], %block_id_x] : memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.store %{{.*}} to %{{.*}}[%[[COL1:.*]], %block_id_x] : memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: }
// CHECK: scf.if
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
tile.kernel @store_once(%C: memref<?x?xf16>) grid [%C[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %acc = tile.alloc_fragment : !tile.fragment<64x128xf32>
  %cs = tile.alloc_shared : !tile.shared<64x128xf16>
  %bx = tile.block_id x
  tile.fill %acc, %one : !tile.fragment<64x128xf32>, f32
  tile.copy %acc -> %cs : !tile.fragment<64x128xf32> -> !tile.shared<64x128xf16>
  tile.copy %cs -> %C[%bx, %c0] : !tile.shared<64x128xf16> -> memref<?x?xf16>
}

// -----

// Writing the tile again after a store: the leader first waits until the
// store has read it, and the block synchronises before anyone writes.
// CHECK-LABEL: gpu.func @store_twice
// CHECK: nvvm.cp.async.bulk.commit.group
// CHECK: scf.if
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.cp.async.bulk.commit.group
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NOT: nvvm.cp.async.bulk.wait_group
// CHECK: gpu.return
tile.kernel @store_twice(%C: memref<?x?xf16>) grid [%C[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %cs = tile.alloc_shared : !tile.shared<64x64xf16>
  tile.fill %acc, %one : !tile.fragment<64x64xf32>, f32
  tile.copy %acc -> %cs : !tile.fragment<64x64xf32> -> !tile.shared<64x64xf16>
  tile.copy %cs -> %C[%c0, %c0] : !tile.shared<64x64xf16> -> memref<?x?xf16>
  tile.copy %acc -> %cs : !tile.fragment<64x64xf32> -> !tile.shared<64x64xf16>
  tile.copy %cs -> %C[%c64, %c0] : !tile.shared<64x64xf16> -> memref<?x?xf16>
}

// -----

// In a loop, the store of one iteration may still read the tile when the
// next iteration writes it: the write waits, inside its branch, although no
// store precedes it in the body.
// CHECK-LABEL: gpu.func @store_in_loop
// CHECK: scf.for
// CHECK: "wgmma.wait_group.sync.aligned 1;"
// CHECK: scf.if
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.fence.proxy
// CHECK: nvgpu.tma.async.store
// CHECK: nvvm.cp.async.bulk.commit.group
// CHECK: gpu.return
tile.kernel @store_in_loop(%A: memref<?x?xf16>, %C: memref<?x?xf16>, %n: i64)
    grid [%C[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %nk = arith.index_cast %n : i64 to index
  %zero = arith.constant 0.0 : f32
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %cs = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
  tile.pipelined %i = %c0 to %nk step %c1 num_stages 2 {
    %t = arith.divui %i, %c4 : index
    %m0 = arith.muli %t, %c64 : index
    tile.copy %A[%m0, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    %k = arith.remui %i, %c4 : index
    %last = arith.cmpi eq, %k, %c1 : index
    scf.if %last {
      tile.copy %acc -> %cs : !tile.fragment<64x64xf32> -> !tile.shared<64x64xf16>
      tile.copy %cs -> %C[%m0, %c0] : !tile.shared<64x64xf16> -> memref<?x?xf16>
      tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
    }
  }
}
