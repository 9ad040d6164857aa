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
// Inside the matrix: unmasked pairs. At its edges: predicated stores, the
// column offset as the immediate.
// CHECK-SAME: st.global.b32
// CHECK-SAME: @%p{{[0-9]+}} st.global.b16 [%rd[[FIRST:[0-9]+]]], %rs{{[0-9]+}};
// CHECK-SAME: @%p{{[0-9]+}} st.global.b16 [%rd[[FIRST]]+2], %rs{{[0-9]+}};
