// RUN: tile-opt %s --split-input-file --tile-infer-layouts --convert-tile-to-nvgpu | FileCheck %s

// An scf.if over tile operations becomes an scf.if over their lowering. The
// branch reads the gemm's accumulator, so the gemm leaves no wgmma group in
// flight across the loop's back edge (wait 0, not 1).

// CHECK-LABEL: gpu.func @branch
// CHECK: scf.for
// CHECK-NOT: "wgmma.wait_group.sync.aligned 1;"
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

// -----

// A branch before the gemm that touches its accumulator runs in the next
// iteration while the gemm's group would still be in flight: the gemm waits
// for it (wait 0).
// CHECK-LABEL: gpu.func @branch_before
// CHECK: scf.for
// CHECK: scf.if
// CHECK: wgmma.mma_async
// CHECK-NOT: "wgmma.wait_group.sync.aligned 1;"
// CHECK: "wgmma.wait_group.sync.aligned 0;"
tile.kernel @branch_before(%A: memref<?x?xf16>, %C: memref<?x?xf32>, %n: i64)
    grid [%C[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nk = arith.index_cast %n : i64 to index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %nk step %c1 num_stages 2 {
    tile.copy %A[%c0, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    %later = arith.cmpi ugt, %k, %c0 : index
    scf.if %later {
      tile.parallel outs(%c : !tile.fragment<64x64xf32>) attributes {
          indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
      ^bb0(%x: f32):
        %y = arith.mulf %x, %x : f32
        tile.yield %y : f32
      }
    }
    tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.copy %c -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// A branch that does not touch the accumulator leaves the gemm's group in
// flight across the back edge (wait 1), with no wait before the branch; the
// loop drains it (wait 0) after its last iteration.
// CHECK-LABEL: gpu.func @branch_elsewhere
// CHECK: scf.for
// CHECK: "wgmma.wait_group.sync.aligned 1;"
// CHECK-NOT: wgmma.wait_group
// CHECK: scf.if
// CHECK-NOT: wgmma.wait_group
// CHECK: gpu.barrier
// CHECK: "wgmma.wait_group.sync.aligned 0;"
tile.kernel @branch_elsewhere(%A: memref<?x?xf16>, %C: memref<?x?xf32>, %n: i64)
    grid [%C[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nk = arith.index_cast %n : i64 to index
  %one = arith.constant 1.0 : f32
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %d = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %nk step %c1 num_stages 2 {
    tile.copy %A[%c0, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    %first = arith.cmpi eq, %k, %c0 : index
    scf.if %first {
      tile.fill %d, %one : !tile.fragment<64x64xf32>, f32
    }
  }
  tile.copy %c -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// A gemm inside a branch counts among the loop's gemms: with two, no group
// stays in flight across the back edge (every wait is 0).
// CHECK-LABEL: gpu.func @gemm_in_branch
// CHECK-NOT: "wgmma.wait_group.sync.aligned 1;"
// CHECK: gpu.return
tile.kernel @gemm_in_branch(%A: memref<?x?xf16>, %C: memref<?x?xf32>, %n: i64)
    grid [%C[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nk = arith.index_cast %n : i64 to index
  %zero = arith.constant 0.0 : f32
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %d = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %c, %zero : !tile.fragment<64x64xf32>, f32
  tile.pipelined %k = %c0 to %nk step %c1 num_stages 2 {
    tile.copy %A[%k, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    %first = arith.cmpi eq, %k, %c0 : index
    scf.if %first {
      tile.fill %d, %zero : !tile.fragment<64x64xf32>, f32
      tile.gemm %a, %a, %d : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
      tile.copy %d -> %C[%k, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
    }
    tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.copy %c -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}
