// RUN: tile-opt %tile_src_root/kernels/flash_attention.mlir --tile-to-ptx | FileCheck %s

// The attention kernels compile, f16 and bf16: 4-d TMA loads, Q.K^T with both
// operands in shared memory, P.V with P from registers (the register form of
// wgmma, `{...}, {$a0..$a3}, desc`), ex2.approx for the softmax, and no store
// to shared memory at all: the probabilities stay in registers.
// CHECK: gpu.binary @tile_kernels
// CHECK-DAG: .entry attention_d64_f16(
// CHECK-DAG: .entry attention_d128_f16(
// CHECK-DAG: .entry attention_causal_d64_f16(
// CHECK-DAG: .entry attention_causal_d128_f16(
// CHECK-DAG: .entry attention_d64_bf16(
// CHECK-DAG: .entry attention_d128_bf16(
// CHECK-DAG: .entry attention_causal_d64_bf16(
// CHECK-DAG: .entry attention_causal_d128_bf16(
// CHECK-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// S = Q.K^T: A and B descriptors.
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{[{][^}]*[}]}}, %rd
// O += P.V: A in four 32-bit registers.
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{[{][^}]*[}]}}, {{[{]}}%r
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{[{][^}]*[}]}}, %rd
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{[{][^}]*[}]}}, {{[{]}}%r
// The scale is folded into the exponent: one fma, then ex2, per score.
// CHECK-DAG: fma.rn.f32
// CHECK-DAG: ex2.approx.ftz.f32
// CHECK-NOT: st.shared
