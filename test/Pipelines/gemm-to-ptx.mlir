// RUN: tile-opt %tile_src_root/kernels/gemm.mlir --tile-to-ptx | FileCheck %s

// The whole pipeline on the GEMM kernel, stopping at PTX: the TMA
// descriptors are 128-byte grid constants, the loads are bulk tensor copies
// completing on mbarriers, and the math is warpgroup MMA with one group in
// flight across iterations.
// CHECK: gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90a", features = "+ptx80">
// CHECK-SAME: assembly = "
// CHECK-SAME: .target sm_90a
// CHECK-SAME: .extern .shared .align 1024 .b8 tile_smem[];
// CHECK-SAME: .visible .entry gemm_f16(
// CHECK-SAME: .param .align 64 .b8 gemm_f16_param_15[128]
// CHECK-SAME: .param .align 64 .b8 gemm_f16_param_16[128]
// CHECK-SAME: .maxntid 256, 1, 1
// CHECK-SAME: prefetch.param.tensormap
// CHECK-SAME: mbarrier.arrive.expect_tx.shared.b64
// CHECK-SAME: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-SAME: mbarrier.try_wait.parity.shared.b64
// CHECK-SAME: wgmma.fence.sync.aligned
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// CHECK-SAME: wgmma.commit_group.sync.aligned
// CHECK-SAME: wgmma.wait_group.sync.aligned 1
// CHECK-SAME: wgmma.wait_group.sync.aligned 0
// The epilogue stages C in shared memory and writes it with one TMA store
// per 64-column panel; the block waits only until the stores have read the
// tile, at its end.
// CHECK-SAME: st.shared.b32
// CHECK-SAME: fence.proxy.async.shared::cta
// CHECK-SAME: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [tile_smem+147456];
// CHECK-SAME: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// CHECK-SAME: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// CHECK-SAME: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// CHECK-SAME: cp.async.bulk.commit_group;
// CHECK-SAME: cp.async.bulk.wait_group.read \090;
// CHECK-SAME: .entry gemm_bf16(
// An f32 C does not fit a staging tile beside the ring: registers go
// straight to global memory, unmasked pairs inside the matrix, predicated
// stores with the column offset as the immediate at its edges.
// CHECK-SAME: .entry gemm_f16_f32(
// CHECK-SAME: st.global.v2.b32
// CHECK-SAME: @%p{{[0-9]+}} st.global.b32 [%rd[[FIRST:[0-9]+]]], %r{{[0-9]+}};
// CHECK-SAME: @%p{{[0-9]+}} st.global.b32 [%rd[[FIRST]]+4], %r{{[0-9]+}};
