// RUN: tile-opt %s -split-input-file -verify-diagnostics

// tile.turn (the consumer warpgroups taking turns): each constraint refused
// at the op that breaks it.

tile.kernel @outside_loop(%A: memref<?xf16>) grid [1] threads 256 {
  // expected-error @+1 {{turn_c1: a turn is taken directly in a `tile.pipelined` body}}
  tile.turn take
}

// -----

tile.kernel @in_branch(%A: memref<?xf16>) grid [1] threads 256 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %true = arith.constant true
  tile.pipelined %i to %c4 num_stages 2 warp_specialize 1 {
    scf.if %true {
      // expected-error @+1 {{turn_c1: a turn is taken directly in a `tile.pipelined` body}}
      tile.turn take
    }
  }
}

// -----

tile.kernel @flag_two(%A: memref<?xf16>) grid [1] threads 256 {
  %c4 = arith.constant 4 : index
  tile.pipelined %i to %c4 num_stages 2 warp_specialize 1 {
    // expected-error @+1 {{turn_c2: the flag (2) must be 0 or 1}}
    tile.turn pass if 2
    tile.turn take if 2
  }
}

// -----

tile.kernel @size_flag(%A: memref<?xf16>) params {BM = 64} grid [1] threads 256 {
  %c4 = arith.constant 4 : index
  tile.pipelined %i to %c4 num_stages 2 warp_specialize 1 {
    // expected-error @+1 {{the flag 'BM' is an integer parameter; a flag is a boolean one}}
    tile.turn pass if BM
    tile.turn take if BM
  }
}

// -----

tile.kernel @two_takes(%A: memref<?xf16>) grid [1] threads 256 {
  %c4 = arith.constant 4 : index
  tile.pipelined %i to %c4 num_stages 2 warp_specialize 1 {
    tile.turn take
    tile.turn pass
    // expected-error @+1 {{pipelined_c5: a second `tile.turn take` in the loop body; a body takes turns with one take and one pass}}
    tile.turn take
  }
}

// -----

tile.kernel @take_alone(%A: memref<?xf16>) grid [1] threads 256 {
  %c4 = arith.constant 4 : index
  tile.pipelined %i to %c4 num_stages 2 warp_specialize 1 {
    // expected-error @+1 {{pipelined_c5: a loop body with a `tile.turn take` needs a `tile.turn pass` too: a turn taken and never passed would stop the other warpgroups}}
    tile.turn take
  }
}

// -----

tile.kernel @pass_alone(%A: memref<?xf16>) grid [1] threads 256 {
  %c4 = arith.constant 4 : index
  tile.pipelined %i to %c4 num_stages 2 warp_specialize 1 {
    // expected-error @+1 {{pipelined_c5: a loop body with a `tile.turn pass` needs a `tile.turn take` too}}
    tile.turn pass
  }
}

// -----

tile.kernel @flags_differ(%A: memref<?xf16>) params {PP = true} grid [1] threads 256 {
  %c4 = arith.constant 4 : index
  tile.pipelined %i to %c4 num_stages 2 warp_specialize 1 {
    // expected-error @+1 {{pipelined_c5: the take and the pass of a body have the same flag}}
    tile.turn pass
    tile.turn take if PP
  }
}
