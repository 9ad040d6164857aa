// RUN: tile-opt %tile_src_root/kernels/softmax.mlir --tile-to-ptx | FileCheck %s

// The softmax kernels compile: 16-byte global loads and stores, butterfly
// shuffles for the row reductions, barriers only for those across warps,
// ex2.approx for exp, and 2, 3 or 4 resident blocks asked of the kernels.
// CHECK: gpu.binary @tile_kernels
// CHECK-DAG: .entry softmax_n128_f16(
// CHECK-DAG: .entry softmax_n512_f16(
// CHECK-DAG: .entry softmax_n1024_f16(
// CHECK-DAG: .entry softmax_n4096_f16(
// CHECK-DAG: .entry softmax_n8192_f16(
// CHECK-DAG: .entry softmax_n57337_f16(
// CHECK-DAG: .entry softmax_f16(
// CHECK-DAG: .entry softmax_long_f16(
// CHECK-DAG: .entry softmax_n128_bf16(
// CHECK-DAG: .entry softmax_n512_bf16(
// CHECK-DAG: .entry softmax_n1024_bf16(
// CHECK-DAG: .entry softmax_n4096_bf16(
// CHECK-DAG: .entry softmax_n8192_bf16(
// CHECK-DAG: .entry softmax_n57337_bf16(
// CHECK-DAG: .entry softmax_bf16(
// CHECK-DAG: .entry softmax_long_bf16(
// CHECK-DAG: .minnctapersm 4
// CHECK-DAG: .minnctapersm 3
// CHECK-DAG: .minnctapersm 2
// CHECK-DAG: .maxntid 128, 1, 1
// The staged kernels copy rows into shared memory asynchronously.
// CHECK-DAG: cp.async.cg.shared.global
// The column masks compare 32-bit values.
// CHECK-DAG: setp.{{[a-z]+}}.s32
// CHECK-DAG: ld.global.v4.b32
// CHECK-DAG: st.global.v4.b32
// CHECK-DAG: shfl.sync.bfly.b32
// CHECK-DAG: ex2.approx.ftz.f32
// CHECK-DAG: bar.sync
