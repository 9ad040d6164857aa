// RUN: tile-opt %tile_src_root/kernels/gemm_bias_gelu.mlir --tile-to-ptx | FileCheck %s

// The fused GEMM compiles to the GEMM's wgmma main loop and an epilogue that
// applies the bias and GELU (tanh.approx; the erf kernel calls no erf
// function: libdevice is linked and inlined) before the single store.
// CHECK: gpu.binary @tile_kernels
// CHECK-DAG: .entry gemm_bias_gelu_f16(
// CHECK-DAG: .entry gemm_bias_gelu_erf_f16(
// CHECK-DAG: .entry gemm_bias_gelu_bf16(
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK-DAG: tanh.approx.f32
// CHECK-NOT: call.uni
