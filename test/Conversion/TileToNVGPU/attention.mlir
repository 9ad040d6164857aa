// RUN: tile-opt %tile_src_root/kernels/flash_attention.mlir --tile-specialize --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// The FlashAttention kernel (head_dim 64): 4-d TMA boxes over [B, H, S, D];
// Q loaded once before the loop on a barrier of its own; K and V through a
// 3-stage ring; S = Q.K^T with K-major B (`col`); O += P.V with P from
// registers; no store to global memory until the loop is done, so the
// scores and probabilities never leave the chip.
// CHECK-LABEL: gpu.func @attention_d64_f16
// CHECK: !nvgpu.tensormap.descriptor<tensor = memref<1x1x128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK-NOT: {{(vector|memref)\.store .*#gpu.address_space<global>}}
// CHECK: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %{{.*}}, %block_id_y, %block_id_z]
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK-NOT: {{(vector|memref)\.store .*#gpu.address_space<global>}}
// CHECK: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK-NOT: {{(vector|memref)\.store .*#gpu.address_space<global>}}
// CHECK: scf.for
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// S = Q.K^T stays in flight (the consumers' turn passes right after it is
// issued) until S is first read, before the mask's branch: the wait
// threads S's 64 registers a thread; the previous iteration's P.V group
// was retired by the wait after it.
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: wgmma.wait_group.sync.aligned 0;", "{{(=f,){64}[0-9]}}
// CHECK-NEXT: llvm.extractvalue
// CHECK-NOT: {{(vector|memref)\.store .*#gpu.address_space<global>}}
// CHECK: gpu.shuffle  xor
// CHECK: llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;"
// CHECK-NOT: {{(vector|memref)\.store .*#gpu.address_space<global>}}
// P = the scores converted to f16 in the accumulator layout, packed two
// by two into the A registers of the second product, all before its fence.
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK-NOT: nvvm.fence.proxy
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: llvm.bitcast
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 1;
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NOT: {{(vector|memref)\.store .*#gpu.address_space<global>}}
// Only after the loop is O divided by the row sums (the loop body has no
// division) and stored.
// CHECK: arith.divf
// CHECK: vector.store {{.*}} : memref<?x?x?x?xf16, strided<[?, ?, ?, 1]>, #gpu.address_space<global>>, vector<2xf16>
// CHECK: gpu.return
