// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-keep-gemms-in-flight --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// An epilogue's staging tile that lives after the main loop (`after_loops`)
// takes the shared memory of the loop's ring: the kernel needs 4 stages of
// A (16 KB) and B (32 KB), 196608 bytes, not 196608 + 65536 for C's tile
// beside them (which sm_90a could not hold). The consumers, past their last
// wgmma, wait for one another (named barrier 1 of the 256 consumer threads)
// before any writes C's fragment over the stages; the usual proxy fence and
// barrier follow the writes, then the TMA store.
// CHECK-LABEL: tile.kernel_info = "tile-kernel-info 1\0Akernel ws_epilogue\0Ablock 384 1 1\0Asmem 196608\0A
// CHECK-LABEL: gpu.func @ws_epilogue
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-NEXT: %c0{{.*}} = arith.constant 0 : index
// CHECK-NEXT: memref.view %{{.*}}[%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32768xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: nvgpu.tma.async.store
// CHECK: vector.store
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: nvgpu.tma.async.store
tile.kernel @ws_epilogue(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>)
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
  %cs = tile.alloc_shared {after_loops} : !tile.shared<128x256xf16>
  tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
  tile.pipelined %k = %c0 to %kt step %c1 num_stages 4 warp_specialize 1 {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%m0, %k0] -> %a : memref<?x?xf16> -> !tile.shared<128x64xf16>
    tile.copy %B[%k0, %n0] -> %b : memref<?x?xf16> -> !tile.shared<64x256xf16>
    tile.gemm %a, %b, %acc : !tile.shared<128x64xf16>, !tile.shared<64x256xf16>, !tile.fragment<128x256xf32>
  }
  tile.copy %acc -> %cs : !tile.fragment<128x256xf32> -> !tile.shared<128x256xf16>
  tile.copy %cs -> %C[%m0, %n0] : !tile.shared<128x256xf16> -> memref<?x?xf16>
}

// -----

// Without warp specialisation the whole block waits (gpu.barrier) before
// the writes. A tile whose uses reach past the after_loops tile's first
// write keeps its bytes: the bias tile (2 KB at offset 0) is read again
// after C's store, so C's 16 KB tile starts at 2048, over the dead ring
// (A's 2 x 8 KB from 2048, B's 2 x 16 KB from 18432): 51200 bytes in all,
// where side by side they would take 67584.
// CHECK-LABEL: tile.kernel_info = "tile-kernel-info 1\0Akernel serial_epilogue\0Ablock 128 1 1\0Asmem 51200\0A
// CHECK-LABEL: gpu.func @serial_epilogue
// CHECK: scf.for
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: gpu.barrier
// CHECK-NEXT: %c2048{{.*}} = arith.constant 2048 : index
// CHECK-NEXT: memref.view %{{.*}}[%c2048{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8192xf16, #gpu.address_space<workgroup>>
tile.kernel @serial_epilogue(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %Bias: memref<?x?xf16>, %C: memref<?x?xf16>, %Out: memref<?x?xf16>)
    grid [%C[1] / 128, %C[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %bx = tile.block_id x
  %by = tile.block_id y
  %m0 = arith.muli %by, %c64 : index
  %n0 = arith.muli %bx, %c128 : index
  %K = memref.dim %A, %c1 : memref<?x?xf16>
  %kt = arith.ceildivui %K, %c64 : index
  %bias = tile.alloc_shared : !tile.shared<8x128xf16>
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x128xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x128xf32>
  %bf = tile.alloc_fragment : !tile.fragment<128xf32>
  %cs = tile.alloc_shared {after_loops} : !tile.shared<64x128xf16>
  tile.copy %Bias[%c0, %n0] -> %bias : memref<?x?xf16> -> !tile.shared<8x128xf16>
  tile.fill %acc, %zero : !tile.fragment<64x128xf32>, f32
  tile.pipelined %k = %c0 to %kt step %c1 num_stages 2 {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%m0, %k0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %B[%k0, %n0] -> %b : memref<?x?xf16> -> !tile.shared<64x128xf16>
    tile.gemm %a, %b, %acc : !tile.shared<64x64xf16>, !tile.shared<64x128xf16>, !tile.fragment<64x128xf32>
  }
  tile.copy %acc -> %cs : !tile.fragment<64x128xf32> -> !tile.shared<64x128xf16>
  tile.copy %cs -> %C[%m0, %n0] : !tile.shared<64x128xf16> -> memref<?x?xf16>
  tile.copy %bias[%c0, %c0] -> %bf : !tile.shared<8x128xf16> -> !tile.fragment<128xf32>
  tile.copy %bf -> %Out[%by, %n0] : !tile.fragment<128xf32> -> memref<?x?xf16>
}
