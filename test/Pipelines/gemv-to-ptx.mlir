// RUN: tile-inspect %tile_src_root/kernels/gemv.mlir --kernel gemv_f16 --ptx | FileCheck %s --implicit-check-not=ld.local --implicit-check-not=st.local --implicit-check-not=ld.global
// RUN: tile-inspect %tile_src_root/kernels/gemv.mlir --kernel gemv_bf16 --ptx | FileCheck %s --implicit-check-not=ld.local --implicit-check-not=st.local --implicit-check-not=ld.global
// RUN: tile-inspect %tile_src_root/kernels/gemv.mlir --kernel gemv_nt_f16 --ptx | FileCheck %s --implicit-check-not=ld.local --implicit-check-not=st.local --implicit-check-not=ld.global
// RUN: tile-inspect %tile_src_root/kernels/gemv.mlir --kernel gemv_nt_bf16 --ptx | FileCheck %s --implicit-check-not=ld.local --implicit-check-not=st.local --implicit-check-not=ld.global

// The matrix-vector kernels compile: B's tiles and x's elements by TMA
// into the ring (mbarrier waits; no global load is left), x's row read
// from shared memory, the products as fp32 fmas, the sum over K with
// butterfly shuffles after the loop, and nothing spilled to local memory.
// (One kernel at a time: the PTX of a whole module is one line, where
// the implicit checks would not see a global load.)
// CHECK: .visible .entry gemv_{{(nt_)?}}{{b?f16}}(
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-DAG: mbarrier.try_wait.parity
// CHECK-DAG: ld.shared.v4.b{{16|32}}
// CHECK-DAG: fma.rn.f32
// CHECK-DAG: shfl.sync.bfly.b32
