// RUN: tile-opt %s --split-input-file --tile-keep-gemms-in-flight | FileCheck %s

// A pipelined loop's only gemm, its accumulator read after the loop, and
// one whose accumulator a branch after it reads (a persistent epilogue):
// both stay in flight.
// CHECK-LABEL: tile.kernel @in_flight
// CHECK: tile.pipelined
// CHECK: tile.gemm {{.*}} {in_flight}
// CHECK: tile.pipelined
// CHECK: tile.gemm {{.*}} {in_flight}
// CHECK: scf.if
tile.kernel @in_flight(%A: memref<?x?xf16>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    %last = arith.cmpi eq, %k, %c4 : index
    scf.if %last {
      tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
    }
  }
}

// -----

// Two gemms into their own accumulators (a gated MLP's gate and up
// products, sharing A): both stay in flight; when a parallel reads one's
// accumulator in the body, neither does.
// CHECK-LABEL: tile.kernel @two_in_flight
// CHECK: tile.gemm {{.*}} {in_flight}
// CHECK-NEXT: tile.gemm {{.*}} {in_flight}
// CHECK: tile.pipelined
// CHECK-NOT: in_flight
// CHECK: tile.copy
tile.kernel @two_in_flight(%A: memref<?x?xf16>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %acc2 = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %A[%k, %c0] -> %b : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    tile.gemm %a, %b, %acc2 : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    tile.gemm %a, %a, %acc2 : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    tile.parallel outs(%x = %acc) { tile.yield %x : f32 }
  }
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
  tile.copy %acc2 -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// Not kept: two gemms into one accumulator (each touches the other's C);
// the accumulator read after the gemm outside a branch, or before it (the
// next iteration runs after it); a gemm outside a loop; a gemm in a branch
// of the body.
// CHECK-LABEL: tile.kernel @completed
// CHECK-NOT: in_flight
tile.kernel @completed(%A: memref<?x?xf16>, %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %acc2 = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
  }
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    scf.if %true {
      tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    }
  }
}

// -----

// Not kept: the body writes B from registers (dequantised weights), which
// in flight the next iteration would overwrite while the tensor cores
// still read it, and A in registers, whose write would have to wait for
// the group (a kernel may ask for that itself). Loads from global memory
// rotate through the ring's stages and do not count.
// CHECK-LABEL: tile.kernel @written_operands
// CHECK-NOT: in_flight
tile.kernel @written_operands(%X: memref<?x?xf16>, %W: memref<?x?xi8>,
                              %C: memref<?x?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x = tile.alloc_shared : !tile.shared<64x64xf16>
  %ws = tile.alloc_shared : !tile.shared<64x64xi8>
  %wq = tile.alloc_fragment : !tile.fragment<64x64xi8>
  %wf = tile.alloc_fragment : !tile.fragment<64x64xf16>
  %b = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %X[%c0, %k] -> %x
    tile.copy %W[%c0, %k] -> %ws
    tile.copy %ws -> %wq
    tile.parallel ins(%q = %wq) outs(%o = %wf) { arith.sitofp %q : i8 to f16 }
    tile.copy %wf -> %b
    tile.gemm %x, %b, %acc {transpose_b}
  }
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %W[%c0, %k] -> %ws
    tile.copy %ws -> %wq
    tile.parallel ins(%q = %wq) outs(%o = %wf) { arith.sitofp %q : i8 to f16 }
    tile.copy %X[%c0, %k] -> %x
    tile.gemm %wf, %x, %acc {transpose_b}
  }
  tile.copy %acc -> %C[%c0, %c0]
}
