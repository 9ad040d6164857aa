// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// tile.arrive: the block's barrier (its threads' stores are done), then the
// first thread checks the offset and the count (a trap where either is out
// of range), adds 1 to the counter with an acq_rel atomic at GPU scope,
// resets it where this arrival is the count-th, and fences the async proxy
// (TMA loads after it see what was acquired); a barrier that reduces with
// `or` gives its answer to every thread, and the branch on it is uniform.
// The counter is read and written.

// CHECK: tile.kernel_info = "{{.*}}access 1 readwrite\0Aaccess 2 write\0Aaccess 3 readwrite\0A
// CHECK-LABEL: gpu.func @last_of_two
// CHECK: gpu.barrier
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[LEADER:.*]] = arith.cmpi eq, %thread_id_x, %{{.*}} : index
// CHECK-NEXT: %[[LAST:.*]] = scf.if %[[LEADER]] -> (i1) {
// CHECK: llvm.intr.trap
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects {{.*}}"atom.acq_rel.gpu.global.add.u32 $0, [$1], 1;", "=r,l"
// CHECK: %[[WIDE:.*]] = arith.extui %[[OLD]] : i32 to i64
// CHECK: %[[ARRIVED:.*]] = arith.addi %[[WIDE]], %{{.*}} : i64
// CHECK: %[[MINE:.*]] = arith.cmpi eq, %[[ARRIVED]], %{{.*}} : i64
// CHECK: llvm.inline_asm has_side_effects {{.*}}"@$0 st.global.b32 [$1], $2;", "b,l,r" %[[MINE]]
// CHECK: llvm.inline_asm has_side_effects {{.*}}"fence.proxy.async.global;", ""
// CHECK: scf.yield %[[MINE]] : i1
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[NO:.*]] = arith.constant false
// CHECK-NEXT: scf.yield %[[NO]] : i1
// CHECK: %[[PRED:.*]] = arith.extui %[[LAST]] : i1 to i32
// CHECK-NEXT: %[[ANY:.*]] = nvvm.barrier #nvvm.reduction<or> %[[PRED]] -> i32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[GO:.*]] = arith.cmpi ne, %[[ANY]], %[[ZERO]] : i32
// CHECK-NEXT: scf.if %[[GO]] {
// CHECK: scf.for
// CHECK: gpu.return
tile.kernel @last_of_two(%X: memref<?x?xf32>, %W: memref<?x?x?xf32>,
                         %C: memref<?x?xf32>, %N: memref<?xi32>)
    grid [1, 1, 2] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %bz = tile.block_id z
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %p = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %X[%c0, %c0] -> %x : memref<?x?xf32> -> !tile.fragment<64x64xf32>
  tile.copy %x -> %W[%bz, %c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?x?xf32>
  %last = tile.arrive %N[%c0] count %c2 : memref<?xi32>
  scf.if %last {
    scf.for %s = %c0 to %c2 step %c1 {
      tile.copy %W[%s, %c0, %c0] -> %p : memref<?x?x?xf32> -> !tile.fragment<64x64xf32>
      tile.parallel ins(%a = %p : !tile.fragment<64x64xf32>) outs(%o = %x : !tile.fragment<64x64xf32>) {
        %sum = arith.addf %o, %a : f32
        tile.yield %sum : f32
      }
    }
    tile.copy %x -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
  }
}

// -----

// In a warp-specialised kernel the consumers arrive: both barriers are
// their named one (the second in PTX: nvvm.barrier reduces on barrier 0
// only), which the producer warpgroup never reaches.
// CHECK-LABEL: gpu.func @consumers_arrive
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: "atom.acq_rel.gpu.global.add.u32 $0, [$1], 1;"
// CHECK: bar.red.or.pred q, $2, $3, p;{{.*}}"=r,r,r,r"
tile.kernel @consumers_arrive(%A: memref<?x?xf16>, %B: memref<?x?xf16>,
                              %W: memref<?x?x?xf32>, %N: memref<?xi32>)
    grid [1, 1, 2] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %bz = tile.block_id z
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %z = arith.constant 0.0 : f32
  tile.fill %acc, %z : !tile.fragment<64x64xf32>, f32
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 warp_specialize 1 {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%c0, %k0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %B[%k0, %c0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %b, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc -> %W[%bz, %c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?x?xf32>
  %last = tile.arrive %N[%c0] count %c2 : memref<?xi32>
}
