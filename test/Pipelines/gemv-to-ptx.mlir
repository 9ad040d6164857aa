// RUN: tile-opt %tile_src_root/kernels/gemv.mlir --tile-to-ptx | FileCheck %s --implicit-check-not=ld.local --implicit-check-not=st.local --implicit-check-not=ld.global

// The matrix-vector kernels compile: B's tiles and x's elements by TMA
// into the ring (mbarrier waits; no global load is left), x's row read
// from shared memory, the products as fp32 fmas, the sum over K with
// butterfly shuffles after the loop, and nothing spilled to local memory.
// CHECK: gpu.binary @tile_kernels
// CHECK-DAG: .entry gemv_f16(
// CHECK-DAG: .entry gemv_bf16(
// CHECK-DAG: .entry gemv_nt_f16(
// CHECK-DAG: .entry gemv_nt_bf16(
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-DAG: mbarrier.try_wait.parity
// CHECK-DAG: ld.shared.v4.b32
// CHECK-DAG: fma.rn.f32
// CHECK-DAG: shfl.sync.bfly.b32
