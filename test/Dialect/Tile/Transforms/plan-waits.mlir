// RUN: tile-opt %s --split-input-file --tile-plan-waits | FileCheck %s
// Idempotent: a kernel that holds its waits is left as it is.
// RUN: tile-opt %s --split-input-file --tile-plan-waits --tile-plan-waits | FileCheck %s

// A gemm outside a loop completes its group at once. Each kernel planned
// is marked so.
// CHECK-LABEL: tile.kernel @completed
// CHECK-SAME: attributes {tile.waits_planned}
// CHECK: tile.gemm
// CHECK-NEXT: tile.mma_wait 0, %[[ACC:.*]] : !tile.fragment<64x64xf32>
// CHECK-NEXT: tile.copy %[[ACC]] ->
tile.kernel @completed(%A: memref<?x?xf16>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %A[%c0, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
  tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// An in_flight gemm of a three-stage loop: all but its own group are
// waited for after it, and its group after the loop.
// CHECK-LABEL: tile.kernel @in_flight
// CHECK: tile.pipelined
// CHECK: tile.gemm {{.*}} {in_flight}
// CHECK-NEXT: tile.mma_wait 1, %[[ACC:.*]] : !tile.fragment<64x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: tile.mma_wait 0, %[[ACC]] : !tile.fragment<64x64xf32>
// CHECK-NEXT: tile.copy %[[ACC]]
// CHECK-NOT: tile.mma_wait
tile.kernel @in_flight(%A: memref<?x?xf16>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 3 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// One stage: the slot the next iteration waits on is this one, so the
// group is waited for at the end of the iteration, and none is left after
// the loop.
// CHECK-LABEL: tile.kernel @one_stage
// CHECK: tile.gemm {{.*}} {in_flight}
// CHECK-NEXT: tile.mma_wait 0, %[[ACC:.*]] : !tile.fragment<64x64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: tile.copy %[[ACC]]
tile.kernel @one_stage(%A: memref<?x?xf16>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 1 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// A branch after an in_flight gemm that reads its accumulator waits for the
// group first; the path that skips the branch does not, so the group is
// still waited for after the loop.
// CHECK-LABEL: tile.kernel @branch
// CHECK: tile.mma_wait 1, %[[ACC:.*]] : !tile.fragment<64x64xf32>
// CHECK: scf.if
// CHECK-NEXT: tile.mma_wait 0, %[[ACC]] : !tile.fragment<64x64xf32>
// CHECK-NEXT: tile.copy %[[ACC]]
// CHECK: }
// CHECK-NEXT: }
// CHECK-NEXT: tile.mma_wait 0, %[[ACC]] : !tile.fragment<64x64xf32>
tile.kernel @branch(%A: memref<?x?xf16>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    %last = arith.cmpi eq, %k, %c4 : index
    scf.if %last {
      tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
    }
  }
}

// -----

// When the body reads the accumulator after the branch too (attention's mask
// and then its softmax), the wait comes before the branch, once, not on the
// branch's path and again after it.
// CHECK-LABEL: tile.kernel @branch_then_use
// CHECK: tile.gemm {{.*}} {in_flight}
// CHECK-NEXT: arith.cmpi
// CHECK-NEXT: tile.mma_wait 0, %[[ACC:.*]] : !tile.fragment<64x64xf32>
// CHECK-NEXT: scf.if
// CHECK-NOT: tile.mma_wait
// CHECK: tile.parallel ins(%{{.*}} = %[[ACC]]
// CHECK-NOT: tile.mma_wait
// CHECK: }
// CHECK-NEXT: }
tile.kernel @branch_then_use(%A: memref<?x?xf16>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %s = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %o = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %s {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    %last = arith.cmpi eq, %k, %c4 : index
    scf.if %last {
      tile.fill %s, 0.0 : !tile.fragment<64x64xf32>
    }
    tile.parallel ins(%x = %s) outs(%y = %o) { arith.addf %x, %y : f32 }
  }
  tile.copy %o -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// Two gemms in one body: the wait after each completes the other's group
// of the previous iteration too, so both accumulators go through it, its
// own first.
// CHECK-LABEL: tile.kernel @two_gemms
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %[[ACC:[^ ]*]] :
// CHECK-NEXT: tile.mma_wait 0, %[[ACC]], %[[ACC2:[^ ]*]] :
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %[[ACC2]] :
// CHECK-NEXT: tile.mma_wait 0, %[[ACC2]], %[[ACC]] :
// CHECK-NEXT: }
// CHECK-NEXT: }
tile.kernel @two_gemms(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %acc2 = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    tile.gemm %a, %a, %acc2 : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
}

// -----

// Two in_flight gemms in a row stay in flight together: the second waits
// for all but their two groups (the previous iteration's are complete, so
// its stage may be refilled), the first waits for none.
// CHECK-LABEL: tile.kernel @two_in_flight
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %[[ACC:[^ ]*]] {in_flight}
// CHECK-NEXT: tile.gemm %{{.*}}, %{{.*}}, %[[ACC2:[^ ]*]] {in_flight}
// CHECK-NEXT: tile.mma_wait 2, %[[ACC2]], %[[ACC]] :
// CHECK-NEXT: }
// CHECK-NEXT: tile.mma_wait 0, %[[ACC]], %[[ACC2]] :
tile.kernel @two_in_flight(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %acc2 = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 3 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    tile.gemm %a, %a, %acc2 {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
}

// -----

// An in_flight gemm before one that is not: the latter completes both.
// CHECK-LABEL: tile.kernel @mixed
// CHECK: tile.gemm {{.*}} {in_flight}
// CHECK-NEXT: tile.gemm
// CHECK-NEXT: tile.mma_wait 0,
// CHECK-NEXT: tile.copy
// CHECK-NEXT: }
tile.kernel @mixed(%A: memref<?x?xf16>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %acc2 = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 3 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    tile.gemm %a, %a, %acc2 : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    tile.copy %acc2 -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
  }
}

// -----

// Waits follow the uses: the next block's product is issued before this
// block's result is read (two accumulators, software-pipelined by hand).
// Reading %p waits for its group and leaves the younger %q running (wait
// 1); reading %q at the top of the next iteration waits for the last
// group, %q's of the iteration before (wait 0). Each wait completes the
// older groups, so no extra wait ends the iteration: the stage of the
// iteration before is free when it is refilled.
// CHECK-LABEL: tile.kernel @overlapped
// CHECK: tile.pipelined
// CHECK-NEXT: tile.copy
// CHECK-NEXT: tile.mma_wait 0, %[[Q:[^ ]*]] :
// CHECK-NEXT: tile.parallel ins(%{{.*}} = %[[Q]]
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %[[P:[^ ]*]] {in_flight}
// CHECK-NEXT: tile.gemm %{{.*}}, %{{.*}}, %[[Q]] {in_flight}
// CHECK-NEXT: tile.mma_wait 1, %[[P]], %[[Q]] :
// CHECK-NEXT: tile.parallel ins(%{{.*}} = %[[P]]
// CHECK-NOT: tile.mma_wait
// CHECK: }
// CHECK-NEXT: }
// CHECK-NEXT: tile.mma_wait 0,
tile.kernel @overlapped(%A: memref<?x?xf16>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %p = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %q = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 3 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.parallel ins(%x = %q) outs(%o = %acc) { arith.addf %x, %o : f32 }
    tile.gemm %a, %a, %p {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    tile.gemm %a, %a, %q {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    tile.parallel ins(%x = %p) outs(%o = %acc) { arith.addf %x, %o : f32 }
  }
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// A write of the accumulator after the gemm (here a fill) waits for its
// group; with nothing left in flight, the iteration needs no other wait.
// CHECK-LABEL: tile.kernel @written_after
// CHECK: tile.gemm {{.*}} {in_flight}
// CHECK-NEXT: tile.mma_wait 0, %[[C:[^ ]*]] :
// CHECK-NEXT: tile.fill %[[C]]
// CHECK-NEXT: }
tile.kernel @written_after(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %c {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    tile.fill %c, %zero : !tile.fragment<64x64xf32>, f32
  }
}

// -----

// No group crosses a serial loop's back edge: one in flight where the loop
// starts is waited for before it, and none is left after.
// CHECK-LABEL: tile.kernel @serial_loop
// CHECK: tile.gemm
// CHECK-NEXT: tile.mma_wait 0, %{{[^ ]*}} :
// CHECK-NEXT: scf.for
// CHECK-NOT: tile.mma_wait
tile.kernel @serial_loop(%A: memref<?x?xf16>, %X: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      tile.copy %X[%i, %c0] -> %x : memref<?x?xf32> -> !tile.fragment<64x64xf32>
    }
  }
}

// -----

// A warp-specialised loop of several stages whose group is in flight when
// an iteration ends releases each stage an iteration late.
// CHECK-LABEL: tile.kernel @warp_specialized
// CHECK: tile.pipelined {{.*}} warp_specialize 1 attributes {tile.mma_in_flight_at_end}
// CHECK: tile.mma_wait 1
// CHECK-NEXT: }
// CHECK-NEXT: tile.mma_wait 0
tile.kernel @warp_specialized(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 warp_specialize 1 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
}

// -----

// A gemm reading A from registers (attention's P . V) stays in flight past
// the iteration's end; the next iteration's write of those registers waits
// for its group first, since the tensor cores read them until it completes.
// That wait, the body's first for every group, completes the iteration
// before's groups: their stage is freed after it.
// CHECK-LABEL: tile.kernel @register_a
// CHECK: tile.pipelined {{.*}} warp_specialize 1 attributes {tile.mma_in_flight_at_end}
// CHECK-NEXT: tile.copy
// CHECK-NEXT: tile.mma_wait 0, %[[O:[^ ]*]] : {{.*}} {tile.frees_previous_stage}
// CHECK-NEXT: tile.copy %{{.*}} -> %[[P:[^ ]*]] :
// CHECK-NEXT: tile.gemm %[[P]], %{{.*}}, %[[O]] {in_flight}
// CHECK-NEXT: }
// CHECK-NEXT: tile.mma_wait 0, %[[O]] :
tile.kernel @register_a(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %s = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %p = tile.alloc_fragment : !tile.fragment<64x64xf16>
  %o = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 warp_specialize 1 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %s -> %p : !tile.fragment<64x64xf32> -> !tile.fragment<64x64xf16>
    tile.gemm %p, %a, %o {in_flight} : !tile.fragment<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
}

// -----

// A warp-specialised loop whose only group is waited for where it is
// used, inside the iteration: nothing runs past an iteration's end, so its
// consumers release each stage at once (no tile.mma_in_flight_at_end).
// CHECK-LABEL: tile.kernel @warp_specialized_used
// CHECK: tile.pipelined
// CHECK-NOT: tile.mma_in_flight_at_end
// CHECK-SAME: {
// CHECK: tile.gemm {{.*}} {in_flight}
// CHECK-NEXT: tile.mma_wait 0,
// CHECK-NEXT: tile.parallel
tile.kernel @warp_specialized_used(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %sum = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 warp_specialize 1 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    tile.parallel ins(%x = %acc) outs(%o = %sum) { arith.addf %x, %o : f32 }
  }
}

// -----

// The accumulator read at the top of the body, before its gemm: the read
// of the next iteration needs the group of this one (wait 0 there); the
// first iteration's wait finds none in flight.
// CHECK-LABEL: tile.kernel @read_before
// CHECK: tile.pipelined
// CHECK-NEXT: tile.copy
// CHECK-NEXT: tile.mma_wait 0, %[[ACC:[^ ]*]] :
// CHECK-NEXT: tile.parallel ins(%{{.*}} = %[[ACC]]
// CHECK: tile.gemm {{.*}} {in_flight}
// CHECK-NEXT: }
// CHECK-NEXT: tile.mma_wait 0, %[[ACC]] :
tile.kernel @read_before(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %sum = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 3 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.parallel ins(%x = %acc) outs(%o = %sum) { arith.addf %x, %o : f32 }
    tile.gemm %a, %a, %acc {in_flight} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
}

// -----

// A kernel whose waits are planned already is left as it is.
// CHECK-LABEL: tile.kernel @planned
// CHECK-SAME: attributes {tile.waits_planned}
// CHECK: tile.gemm
// CHECK-NEXT: tile.mma_wait 0
// CHECK-NEXT: tile.gemm
// CHECK-NEXT: }
tile.kernel @planned(%A: memref<?x?xf16>) grid [1] threads 128 attributes {tile.waits_planned} {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %acc2 = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %A[%c0, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
  tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.mma_wait 0
  tile.gemm %a, %a, %acc2 : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
}

// -----

// Row copies land in the background: the first read of the tile waits for
// them and synchronises; a row copy into a tile that was read follows a
// barrier; and the kernel does not end with copies in flight.
// CHECK-LABEL: tile.kernel @row_copies
// CHECK: tile.copy %{{.*}} -> %[[ROWS:.*]][%{{.*}}, %{{.*}}] :
// CHECK-NEXT: tile.copy_wait rows barrier
// CHECK-NEXT: tile.copy %[[ROWS]] -> %{{.*}} :
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: tile.copy %{{.*}} -> %[[ROWS]][%{{.*}}, %{{.*}}] :
// CHECK-NEXT: tile.copy_wait rows{{$}}
// CHECK-NEXT: }
tile.kernel @row_copies(%X: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tile.alloc_shared : !tile.shared<8x64xf16>
  %x = tile.alloc_fragment : !tile.fragment<8x64xf32>
  tile.copy %X[%c0, %c0] -> %rows[%c0, %c0] : memref<?x?xf16> -> !tile.shared<8x64xf16>
  tile.copy %rows -> %x : !tile.shared<8x64xf16> -> !tile.fragment<8x64xf32>
  tile.copy %X[%c1, %c0] -> %rows[%c1, %c0] : memref<?x?xf16> -> !tile.shared<8x64xf16>
}

// -----

// A wait in one branch does not complete the row copies of the path that
// skips it: the read after the scf.if waits again.
// CHECK-LABEL: tile.kernel @rows_after_branch
// CHECK: scf.if
// CHECK-NEXT: tile.copy_wait rows barrier
// CHECK: }
// CHECK-NEXT: tile.copy_wait rows barrier
// CHECK-NEXT: tile.copy
tile.kernel @rows_after_branch(%X: memref<?x?xf16>, %n: i32) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %p = arith.cmpi sgt, %n, %c0_i32 : i32
  %rows = tile.alloc_shared : !tile.shared<8x64xf16>
  %x = tile.alloc_fragment : !tile.fragment<8x64xf32>
  tile.copy %X[%c0, %c0] -> %rows[%c0, %c0] : memref<?x?xf16> -> !tile.shared<8x64xf16>
  scf.if %p {
    tile.copy %rows -> %x : !tile.shared<8x64xf16> -> !tile.fragment<8x64xf32>
  }
  tile.copy %rows -> %x : !tile.shared<8x64xf16> -> !tile.fragment<8x64xf32>
}

// -----

// A tile that a TMA store reads is written again only after the stores
// issued before have read it, here those of the previous iteration; the
// kernel ends by waiting for the stores' reads.
// CHECK-LABEL: tile.kernel @store_reads
// CHECK: scf.for
// CHECK-NEXT: tile.copy_wait store_reads barrier
// CHECK-NEXT: tile.copy %{{.*}} -> %[[S:.*]] : !tile.fragment
// CHECK-NEXT: tile.copy %[[S]] -> %{{.*}}[
// CHECK-NEXT: }
// CHECK-NEXT: tile.copy_wait store_reads{{$}}
// CHECK-NEXT: }
tile.kernel @store_reads(%C: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = tile.alloc_shared : !tile.shared<64x64xf16>
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    tile.copy %x -> %s : !tile.fragment<64x64xf32> -> !tile.shared<64x64xf16>
    tile.copy %s -> %C[%i, %c0] : !tile.shared<64x64xf16> -> memref<?x?xf16>
  }
}
