// RUN: tile-opt %s --tile-infer-layouts --tile-keep-gemms-in-flight --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s --implicit-check-not='{{^ *(%[^ ]* = )?tile\.}}'

// The kernel ABI: pointer + sizes + strides per memref, TMA descriptors last;
// A and B are read (TMA loads), C is written (a masked store of the
// accumulator).
// CHECK: module attributes {gpu.container_module, tile.kernel_info = "tile-kernel-info 1\0Akernel gemm\0Ablock 128 1 1\0Asmem 49152\0Agrid 0 2 1 64\0Agrid 1 2 0 64\0Aparam memref 0 f16 2\0Aparam memref 1 f16 2\0Aparam memref 2 f32 2\0Aparam tensormap 0 f16 2 box 64 64 swizzle 128\0Aparam tensormap 1 f16 2 box 64 64 swizzle 128\0Aaccess 0 read\0Aaccess 1 read\0Aaccess 2 write\0Aend\0A
// CHECK: gpu.module @tile_kernels
// CHECK: memref.global "public" @tile_smem : memref<0xi8, #gpu.address_space<workgroup>> {alignment = 1024 : i64}
// CHECK-LABEL: gpu.func @gemm
// CHECK-SAME: (%[[A:[a-z0-9]+]]: memref<1xf16, #gpu.address_space<global>> {llvm.align = 16 : i64}, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64,
// CHECK-SAME: %[[TA:[a-z0-9]+]]: !llvm.ptr, %[[TB:[a-z0-9]+]]: !llvm.ptr) kernel
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>, tile.tensormap_args = array<i64: 15, 16>
// CHECK: memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%{{.*}}, %{{.*}}], strides: [%{{.*}}, 1]
// CHECK: %[[DA:.*]] = builtin.unrealized_conversion_cast %[[TA]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK: memref.alloca() : memref<32xf32>

// Three stages of barriers, initialised by one thread.
// CHECK: %[[BAR:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK: nvgpu.mbarrier.init %[[BAR]]
// CHECK: nvgpu.tma.prefetch.descriptor %[[DA]]
// CHECK: gpu.barrier

// Prologue: expect both tiles' bytes (2 x 8 KB), then one TMA load per tile.
// CHECK: scf.for
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%{{.*}}], %c16384
// CHECK: nvgpu.tma.async.load %[[DA]]
// CHECK: nvgpu.tma.async.load

// Steady state: wait, 4 k16 steps of m64n64k16, keep one group in flight.
// CHECK: scf.for
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BAR]]
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 1;"
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK: nvgpu.tma.async.load

// Drain, then the epilogue: inside the matrix, pairs of adjacent columns
// are stored as one 8-byte vector when the row stride allows; at its edges,
// a pair wholly inside is still one predicated vector store and each element
// of a pair that straddles the edge a predicated store (no branch), the
// eight rows below the thread's first one from a second address register.
// An odd row stride (pairs not 8-byte aligned) stores element by element.
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;"
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STR:.*]]:2 = memref.extract_strided_metadata
// CHECK: %[[BITS:.*]] = arith.ori %{{.*}}, %[[STR]]#0 : index
// CHECK: %[[ODD:.*]] = arith.andi %[[BITS]], %c1{{.*}} : index
// CHECK: %[[PAIRS:.*]] = arith.cmpi eq, %[[ODD]], %c0{{.*}} : index
// CHECK: scf.if
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<?x?xf32, strided<[?, 1]>, #gpu.address_space<global>>, vector<2xf32>
// CHECK: } else {
// CHECK: scf.if %[[PAIRS]] {
// CHECK: "@$0 st.global.v2.b32 [$1], {$2, $3};", "b,l,r,r"
// CHECK: "@$0 st.global.b32 [$1], $2;", "b,l,r"
// CHECK: "@$0 st.global.b32 [$1+4], $2;", "b,l,r"
// CHECK: %[[ROW8:.*]] = llvm.getelementptr
// CHECK: "@$0 st.global.v2.b32 [$1], {$2, $3};", "b,l,r,r" %{{.*}}, %[[ROW8]]
// CHECK: } else {
// CHECK-NOT: st.global.v2
// CHECK: "@$0 st.global.b32 [$1], $2;", "b,l,r"
// CHECK: "@$0 st.global.b32 [$1+4], $2;", "b,l,r"
// CHECK: gpu.return
tile.kernel @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>)
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
  tile.pipelined %k = %c0 to %kt step %c1 num_stages 3 {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%m0, %k0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %B[%k0, %n0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %b, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc -> %C[%m0, %n0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}
