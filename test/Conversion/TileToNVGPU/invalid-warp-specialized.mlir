// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu --verify-diagnostics

// What a warp-specialised loop needs, each refused at the loop before any
// code is generated.

tile.kernel @nested(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf16>
  tile.pipelined %i = %c0 to %c4 step %c1 num_stages 1 {
    // expected-error @+1 {{a warp-specialised loop sits directly in the kernel body}}
    tile.pipelined %k = %c0 to %c4 step %c1 num_stages 1 warp_specialize 1 {
      tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
      tile.copy %a -> %f : !tile.shared<64x64xf16> -> !tile.fragment<64x64xf16>
    }
  }
}

// -----

tile.kernel @no_loads(%A: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = tile.alloc_fragment : !tile.fragment<64x64xf16>
  // expected-error @+1 {{warp_specialize needs a global-to-shared copy in the loop: the producer warpgroup issues those only}}
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 warp_specialize 1 {
    tile.copy %A[%c0, %k] -> %f : memref<?x?xf16> -> !tile.fragment<64x64xf16>
  }
}

// -----

tile.kernel @bound_from_memory(%A: memref<?x?xf16>, %N: memref<1xindex>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{'memref.load' reads or writes memory}}
  %n = memref.load %N[%c0] : memref<1xindex>
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf16>
  // expected-error @+1 {{is warp-specialised, so its bounds and copy offsets must be computed from kernel arguments, block ids and constants}}
  tile.pipelined %k = %c0 to %n step %c1 num_stages 1 warp_specialize 1 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %a -> %f : !tile.shared<64x64xf16> -> !tile.fragment<64x64xf16>
  }
}

// -----

tile.kernel @offset_from_memory(%A: memref<?x?xf16>, %R: memref<1xindex>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-note @+1 {{'memref.load' reads or writes memory}}
  %row = memref.load %R[%c0] : memref<1xindex>
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf16>
  // expected-error @+1 {{is warp-specialised, so its bounds and copy offsets must be computed from kernel arguments, block ids and constants}}
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 1 warp_specialize 1 {
    %k0 = arith.muli %k, %c4 : index
    tile.copy %A[%row, %k0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %a -> %f : !tile.shared<64x64xf16> -> !tile.fragment<64x64xf16>
  }
}

// -----

tile.kernel @part_warpgroup(%A: memref<?x?xf16>) grid [1] threads 64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf16>
  // expected-error @+1 {{warp specialisation adds a producer warpgroup after whole consumer warpgroups: threads (64) must be a multiple of 128}}
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 1 warp_specialize 1 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.copy %a -> %f : !tile.shared<64x64xf16> -> !tile.fragment<64x64xf16>
  }
}

// -----

tile.kernel @too_many_threads(%A: memref<?x?xf16>) grid [1] threads 1024 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<128x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<128x64xf16>
  // expected-error @+1 {{warp specialisation adds a producer warpgroup: 1024 + 128 threads exceed the block's 1024}}
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 1 warp_specialize 1 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<128x64xf16>
    tile.copy %a -> %f : !tile.shared<128x64xf16> -> !tile.fragment<128x64xf16>
  }
}

// -----

// Turns need the producer warpgroup: without it the block's barrier at each
// iteration would wait for a warpgroup that waits for its turn.
tile.kernel @turns_without_producer(%A: memref<?x?xf16>) grid [1] threads 256 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<128x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<128x64xf16>
  %c1 = arith.constant 1 : index
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<128x64xf16>
    tile.turn pass
    // expected-error @+1 {{takes a turn in a loop that is not warp-specialised: the block's barrier at each iteration would wait for a warpgroup that waits for its turn (set the loop's `warp_specialize`, or the turn's flag with it)}}
    tile.turn take
    tile.copy %a -> %f : !tile.shared<128x64xf16> -> !tile.fragment<128x64xf16>
  }
}


// -----

// A reduction across the block's threads inside a turn would wait for the
// other warpgroup, which waits for the turn: refused at the reduction.
tile.kernel @barrier_in_turn(%A: memref<?x?xf16>, %R: memref<?xf32>) grid [1] threads 256 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<128x64xf16>
  %f = tile.alloc_fragment : !tile.fragment<128x64xf32>
  %r = tile.alloc_fragment : !tile.fragment<64xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 warp_specialize 1 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<128x64xf16>
    tile.copy %a -> %f : !tile.shared<128x64xf16> -> !tile.fragment<128x64xf32>
    tile.turn pass
    // expected-note @+1 {{the turn is taken here}}
    tile.turn take
    // expected-error @+1 {{synchronises the consumer warpgroups inside a turn, where the others wait for the turn: move it between the pass and the next take}}
    tile.reduce sum %f -> %r {dim = 0 : i64} : !tile.fragment<128x64xf32> -> !tile.fragment<64xf32>
  }
  tile.copy %r -> %R[%c0] : !tile.fragment<64xf32> -> memref<?xf32>
}


// -----

// A turn held across the end of the iteration waits there for the next
// stage. With the product left in flight past the iteration's end, each
// stage is freed an iteration late, so the warpgroup waiting for the turn
// has not freed that stage yet with 2 stages: refused (it would hang).
tile.kernel @turn_across_late_release(%A: memref<?x?xf16>) grid [1] threads 256 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.shared<128x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<128x128xf32>
  // expected-note @+1 {{the loop, with 2 stages and a group left in flight past an iteration's end (its stages are freed an iteration late)}}
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 2 warp_specialize 1 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<128x64xf16>
    tile.turn pass
    // expected-error @+1 {{holds its turn across the end of the iteration, where it waits for the next stage, which the warpgroups waiting for the turn have not freed yet (it would hang): the loop needs at least 3 stages}}
    tile.turn take
    tile.gemm %a, %a, %acc {transpose_b, in_flight} : !tile.shared<128x64xf16>, !tile.shared<128x64xf16>, !tile.fragment<128x128xf32>
  }
}

// -----

// The producer warpgroup never reaches the cluster's barrier.
tile.kernel @cluster_reduction_ws(%A: memref<?x?xf16>, %B: memref<?x?xf16>)
    grid [2] threads 128 cluster [2] {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
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
  // expected-error @+1 {{across the cluster in a warp-specialised kernel is not lowered on sm_90a: its producer warpgroup does not reach the cluster's barrier}}
  %m = tile.reduction max %acc across cluster : !tile.fragment<64x64xf32> -> f32
}
