// RUN: tile-opt %S/../../../kernels/gemm.mlir --tile-resources='kernels=gemm_f16,gemm_bf16 bind=STAGES=3' | FileCheck %s
// RUN: tile-opt %S/../../../kernels/gemm.mlir --tile-resources='kernels=gemm_f16 bind=BM=64,BN=128,THREADS=128' | FileCheck %s --check-prefix=SMALL
// RUN: not tile-opt %S/../../../kernels/gemm.mlir --tile-resources='kernels=gemm_f16 bind=BK=128' 2>&1 | FileCheck %s --check-prefix=OVER
// RUN: tile-opt %S/../../../kernels/gemm.mlir --tile-resources='kernels=gemm_f16 bind=WS=true' | FileCheck %s --check-prefix=WS
// RUN: tile-opt %S/../../../kernels/gemm.mlir --tile-resources='kernels=gemm_f16 bind=WS=true,BM=64,BN=128,THREADS=128' | FileCheck %s --check-prefix=WS1
// RUN: tile-opt %s --tile-plan-waits --tile-estimate-resources -split-input-file -verify-diagnostics
// RUN: not tile-opt %s --tile-plan-waits --tile-estimate-resources -split-input-file 2>&1 | FileCheck %s --check-prefix=ROW

// The plan's shared memory, all stages counted: 3 x (128x64 + 64x256) x 2
// bytes, and the 128x256 x 2 bytes of the C tile the TMA stores read; the
// threads; the grid rule with the arguments' names. Nothing is lowered.
// CHECK-LABEL: tile.kernel @gemm_f16
// CHECK-SAME: tile.resources = {grid = "[C[1] / 256, C[0] / 128]", pipelined_bytes = 147456 : i64, shared_bytes = 212992 : i64, stage_bytes = 49152 : i64, stages = 3 : i64, threads = 256 : i64}
// CHECK: tile.gemm
// CHECK-LABEL: tile.kernel @gemm_bf16
// CHECK-SAME: shared_bytes = 212992 : i64
// CHECK-NOT: gpu.func

// 3 x (64x64 + 64x128) x 2 bytes and a 64x128 C tile on one warpgroup.
// SMALL: tile.resources = {grid = "[C[1] / 128, C[0] / 64]", pipelined_bytes = 73728 : i64, shared_bytes = 90112 : i64, stage_bytes = 24576 : i64, stages = 3 : i64, threads = 128 : i64}

// A binding over the target's shared memory is refused before lowering,
// naming the bindings.
// OVER: error: 'tile.kernel' op needs 360448 bytes of shared memory for its tiles and pipeline stages; sm_90a allows 231424 (reduce num_stages or the tile sizes)
// OVER: note: in 'gemm_f16', specialised with BK = 128, BM = 128, BN = 256, STAGES = 3, T = f16, TC = f16, THREADS = 256, TMA_STORE = true, TRANS_B = false, WS = false

// Warp-specialised: the block gains a producer warpgroup, whose registers
// go to the two consumer warpgroups: (65536 - 40 x 128) / 256, rounded
// down to 8, against the 168 each thread of 384 gets at launch.
// WS: tile.resources = {consumer_registers = 232 : i64, grid = "[C[1] / 256, C[0] / 128]", pipelined_bytes = 147456 : i64, producer_registers = 40 : i64, producer_warpgroups = 1 : i64, shared_bytes = 212992 : i64, stage_bytes = 49152 : i64, stages = 3 : i64, threads = 384 : i64}

// One consumer warpgroup has every register a thread addresses already:
// no budgets are asked for.
// WS1: tile.resources = {consumer_registers = 0 : i64, {{.*}}producer_registers = 0 : i64, producer_warpgroups = 1 : i64, {{.*}}threads = 256 : i64}

// A kernel with a cross-warp reduction: its scratch counts too; no tile
// has stages: 8 warps x 8 rows x 4 bytes.
// ROW-LABEL: tile.kernel @rowmax
// ROW-SAME: tile.resources = {grid = "[X[0] / 8]", pipelined_bytes = 0 : i64, shared_bytes = 256 : i64, stage_bytes = 0 : i64, stages = 1 : i64, threads = 256 : i64}
tile.kernel @rowmax(%X: memref<?x?xf32>) grid [%X[0] / 8] threads 256 {
  %m = tile.alloc_fragment {layout = #tile.slice<dim = 1, parent = #tile.blocked<vector = 4, lanes = [1, 32], warps = [1, 8]>>} : !tile.fragment<8xf32>
  %x = tile.alloc_fragment {layout = #tile.blocked<vector = 4, lanes = [1, 32], warps = [1, 8]>} : !tile.fragment<8x1024xf32>
  tile.reduce max %x -> %m {dim = 1 : i64, clear} : !tile.fragment<8x1024xf32> -> !tile.fragment<8xf32>
}

// -----

// expected-error @+1 {{is parametric: run tile-specialize before tile-estimate-resources}}
tile.kernel @k(%X: memref<?xf32>) params {BM = 64} grid [1] threads 128 {
}
