// RUN: tile-opt %s --tile-infer-layouts --convert-tile-to-nvgpu | FileCheck %s

// An scf.if over tile operations becomes an scf.if over their lowering. The
// gemm's last wgmma group, left in flight by the pipelined loop, completes
// before the branch, so that neither path reads the accumulator early.

// CHECK-LABEL: gpu.func @branch
// CHECK: scf.for
// CHECK: "wgmma.wait_group.sync.aligned 1;"
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK-NOT: wgmma.mma_async
// CHECK: scf.if
// CHECK: memref.load %[[REGS:.*]][
// CHECK-NEXT: arith.mulf
// CHECK: } else {
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: memref.store %{{.*}}, %[[REGS]][
// CHECK-NOT: wgmma
// CHECK: }
// CHECK-NEXT: gpu.barrier
tile.kernel @branch(%A: memref<?x?xf16>, %C: memref<?x?xf32>, %n: i64)
    grid [%C[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nk = arith.index_cast %n : i64 to index
  %zero = arith.constant 0.0 : f32
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %nk step %c1 num_stages 2 {
    tile.copy %A[%c0, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    %first = arith.cmpi eq, %k, %c0 : index
    scf.if %first {
      tile.parallel outs(%c : !tile.fragment<64x64xf32>) attributes {
          indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%x: f32):
        %y = arith.mulf %x, %x : f32
        tile.yield %y : f32
      }
    } else {
      tile.fill %c, %zero : !tile.fragment<64x64xf32>, f32
    }
  }
  tile.copy %c -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}
