// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-keep-gemms-in-flight --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// An scf.if over tile operations becomes an scf.if over their lowering. The
// branches after the gemm touch its accumulator: the gemm leaves its group in
// flight, and each branch waits for it first (wait 0), inside the branch. As
// both branches do, no group crosses the back edge and none needs a wait
// after the loop.

// CHECK-LABEL: gpu.func @branch
// CHECK: scf.for
// CHECK: wgmma.mma_async
// CHECK-NOT: wgmma.wait_group
// CHECK: scf.if
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK-NOT: wgmma.mma_async
// CHECK: memref.load %[[REGS:.*]][
// CHECK-NEXT: arith.mulf
// CHECK: } else {
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: arith.constant 0 : index
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

// A persistent loop's epilogue: the branch on the last k-step stores the
// accumulator and clears it. Only that branch waits for the group (wait 0);
// the other k-steps keep one group in flight (wait 1), and nothing is left
// to drain after the loop on the path through the branch.
// CHECK-LABEL: gpu.func @epilogue_branch
// CHECK: scf.for
// CHECK: "wgmma.wait_group.sync.aligned 1;"
// CHECK-NOT: wgmma.wait_group
// CHECK: scf.if
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: memref.load
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: vector.store
// CHECK-NOT: "wgmma.wait_group.sync.aligned
// CHECK: gpu.barrier
// CHECK-NOT: "wgmma.wait_group.sync.aligned
// CHECK: scf.if
// CHECK-NOT: "wgmma.wait_group.sync.aligned
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: gpu.return
tile.kernel @epilogue_branch(%A: memref<?x?xf16>, %C: memref<?x?xf16>, %n: i64)
    grid [%C[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %nk = arith.index_cast %n : i64 to index
  %zero = arith.constant 0.0 : f32
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %c, %zero : !tile.fragment<64x64xf32>, f32
  tile.pipelined %i = %c0 to %nk step %c1 num_stages 3 {
    tile.copy %A[%c0, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    %k = arith.remui %i, %c4 : index
    %last = arith.cmpi eq, %k, %c1 : index
    scf.if %last {
      tile.copy %c -> %C[%i, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf16>
      tile.fill %c, %zero : !tile.fragment<64x64xf32>, f32
    }
  }
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
