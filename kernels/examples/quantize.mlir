// Row-wise int8 quantisation, the two ends of a weight-only int8 GEMM:
// Q = clamp(round(X / s), -127, 127) with s the row's scale, and back,
// Y = Q * s. X and Y are T (f16 or bf16), Q is i8, S holds one f32 scale
// per row. Integer fragments move between memory and registers as they
// are (16 per access); the conversions happen in the tile.parallel
// bodies. Any shape: the copies mask the edges.

tile.kernel @quantize(%X: memref<?x?x!tile.param<"T">>, %S: memref<?xf32>,
                      %Q: memref<?x?xi8>)
    params {ROWS = 16, COLS = 256, THREADS = 128, T = f16}
    grid [%X[1] / COLS, %X[0] / ROWS] threads THREADS
    requires [%S[0] == %X[0], %Q[0] == %X[0], %Q[1] == %X[1]] {
  %i0, %j0 = tile.let block_id.y * ROWS, block_id.x * COLS
  %lo, %hi = tile.let -127.0, 127.0 : f32, f32
  %x = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xf32>
  %s = tile.alloc_fragment [ROWS] : !tile.fragment<?xf32>
  %q = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xi8>
  tile.copy %X[%i0, %j0] -> %x
  tile.copy %S[%i0] -> %s
  tile.parallel ins(%v = %x, %sc = %s[0]) outs(%o = %q) {
    %d = arith.divf %v, %sc : f32
    %r = math.roundeven %d : f32
    %c = arith.maximumf %r, %lo : f32
    %c2 = arith.minimumf %c, %hi : f32
    arith.fptosi %c2 : f32 to i8
  }
  tile.copy %q -> %Q[%i0, %j0]
}

tile.kernel @dequantize(%Q: memref<?x?xi8>, %S: memref<?xf32>,
                        %Y: memref<?x?x!tile.param<"T">>)
    params {ROWS = 16, COLS = 256, THREADS = 128, T = f16}
    grid [%Q[1] / COLS, %Q[0] / ROWS] threads THREADS
    requires [%S[0] == %Q[0], %Y[0] == %Q[0], %Y[1] == %Q[1]] {
  %i0, %j0 = tile.let block_id.y * ROWS, block_id.x * COLS
  %q = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xi8>
  %s = tile.alloc_fragment [ROWS] : !tile.fragment<?xf32>
  %y = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xf32>
  tile.copy %Q[%i0, %j0] -> %q
  tile.copy %S[%i0] -> %s
  tile.parallel ins(%v = %q, %sc = %s[0]) outs(%o = %y) {
    %f = arith.sitofp %v : i8 to f32
    arith.mulf %f, %sc : f32
  }
  tile.copy %y -> %Y[%i0, %j0]
}

// Dequantisation as a weight-only GEMM's main loop reads its weights: the
// int8 tiles arrive by TMA through a STAGES-deep ring, and each iteration
// reads its stage into registers and converts it there. Rows of Q must be
// 16-byte aligned (TMA): K a multiple of 16.
tile.kernel @dequantize_pipelined(%Q: memref<?x?xi8>, %S: memref<?xf32>,
                                  %Y: memref<?x?x!tile.param<"T">>)
    params {ROWS = 64, COLS = 128, STAGES = 3, THREADS = 128, T = f16}
    grid [%Q[0] / ROWS] threads THREADS
    requires [%S[0] == %Q[0], %Y[0] == %Q[0], %Y[1] == %Q[1]] {
  %i0, %kt = tile.let block_id.x * ROWS, %Q[1] ceildiv COLS
  %qs = tile.alloc_shared [ROWS, COLS] : !tile.shared<?x?xi8>
  %q = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xi8>
  %s = tile.alloc_fragment [ROWS] : !tile.fragment<?xf32>
  %y = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xf32>
  tile.copy %S[%i0] -> %s
  tile.pipelined %k to %kt num_stages STAGES {
    %k0 = tile.let %k * COLS
    tile.copy %Q[%i0, %k0] -> %qs
    tile.copy %qs -> %q
    tile.parallel ins(%v = %q, %sc = %s[0]) outs(%o = %y) {
      %f = arith.sitofp %v : i8 to f32
      arith.mulf %f, %sc : f32
    }
    tile.copy %y -> %Y[%i0, %k0]
  }
}

// 8-bit float quantisation with a per-tensor scale, as torch writes it:
// Q = (X / SCALE).clamp(-max, max).to(T8), and back, Y = Q * SCALE. The
// copies convert: into 8 bits rounding to nearest even and saturating at
// the format's largest finite value (448 for e4m3, 57344 for e5m2), which
// is the clamp; one byte a value moves.
tile.kernel @quantize_fp8(%X: memref<?x?x!tile.param<"T">>, %Q: memref<?x?x!tile.param<"T8">>,
                          %SCALE: f32)
    params {ROWS = 16, COLS = 256, THREADS = 128, T = f16, T8 = f8E4M3FN}
    grid [%X[1] / COLS, %X[0] / ROWS] threads THREADS
    requires [%Q[0] == %X[0], %Q[1] == %X[1]] {
  %i0, %j0 = tile.let block_id.y * ROWS, block_id.x * COLS
  %x = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xf32>
  tile.copy %X[%i0, %j0] -> %x
  tile.parallel outs(%v = %x) { arith.divf %v, %SCALE : f32 }
  tile.copy %x -> %Q[%i0, %j0]
}

tile.kernel @dequantize_fp8(%Q: memref<?x?x!tile.param<"T8">>, %Y: memref<?x?x!tile.param<"T">>,
                            %SCALE: f32)
    params {ROWS = 16, COLS = 256, THREADS = 128, T = f16, T8 = f8E4M3FN}
    grid [%Q[1] / COLS, %Q[0] / ROWS] threads THREADS
    requires [%Y[0] == %Q[0], %Y[1] == %Q[1]] {
  %i0, %j0 = tile.let block_id.y * ROWS, block_id.x * COLS
  %y = tile.alloc_fragment [ROWS, COLS] : !tile.fragment<?x?xf32>
  tile.copy %Q[%i0, %j0] -> %y
  tile.parallel outs(%v = %y) { arith.mulf %v, %SCALE : f32 }
  tile.copy %y -> %Y[%i0, %j0]
}

tile.instance @quantize_f16 = @quantize {}
tile.instance @quantize_bf16 = @quantize {T = bf16}
tile.instance @dequantize_f16 = @dequantize {}
tile.instance @dequantize_bf16 = @dequantize {T = bf16}
tile.instance @dequantize_pipelined_f16 = @dequantize_pipelined {}
tile.instance @quantize_fp8_e4m3_f16 = @quantize_fp8 {}
tile.instance @quantize_fp8_e4m3_bf16 = @quantize_fp8 {T = bf16}
tile.instance @quantize_fp8_e5m2_f16 = @quantize_fp8 {T8 = f8E5M2}
tile.instance @dequantize_fp8_e4m3_f16 = @dequantize_fp8 {}
tile.instance @dequantize_fp8_e5m2_bf16 = @dequantize_fp8 {T = bf16, T8 = f8E5M2}
