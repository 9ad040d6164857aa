"""Checking arguments and computing grids from the kernel info alone, with
no GPU and no driver (desc-check.test): KernelDesc.check and .grid_for on
records from kernel_info(), Compiled.kernel() and Compiled.kernels(), with
MemRefs and numbers, and the runtime's messages for what it refuses."""
import gc

import tile_mlir as tm

KINFO = """tile-kernel-info 1
kernel pair
block 128 1 1
smem 0
grid 0 0 0 32
grid 1 0 1 128
param memref 0 f16 2
param memref 1 f16 2
param scalar 2 f32
access 0 read
access 1 write
require 1 0 eq 0 0 0 Y X
require 1 1 eq 0 1 0 Y X
require 0 1 le -1 0 4096 X -
end
"""


def attempt(label, fn):
    try:
        result = fn()
        print(f"{label}: {'ok' if result is None else result}")
    except (tm.TileError, TypeError, ValueError, OverflowError) as e:
        print(f"{label}: {type(e).__name__}: {getattr(e, 'message', e)}")


desc = tm.kernel_info(KINFO)[0]
gc.collect()  # the records keep their parsed text alive
X = tm.MemRef(0x10000, "f16", (1000, 3000))
Y = tm.MemRef(0x20000, "f16", (1000, 3000))
attempt("check", lambda: desc.check(X, Y, 0.5))
attempt("grid", lambda: desc.grid_for(X, Y, 0.5))
attempt("grid of an empty problem",
        lambda: desc.grid_for(tm.MemRef(0x10000, "f16", (0, 3000)),
                          tm.MemRef(0x20000, "f16", (0, 3000)), 0.5))
attempt("contract", lambda: desc.check(X, tm.MemRef(0x20000, "f16",
                                                    (999, 3000)), 0.5))
attempt("bound", lambda: desc.check(tm.MemRef(0x10000, "f16", (8, 5000)),
                                    tm.MemRef(0x20000, "f16", (8, 5000)),
                                    0.5))
attempt("dtype", lambda: desc.check(tm.MemRef(0x10000, "f32", (8, 8)), Y,
                                    0.5))
attempt("misaligned", lambda: desc.check(tm.MemRef(0x10002, "f16", (8, 8)),
                                         tm.MemRef(0x20000, "f16", (8, 8)),
                                         0.5))
attempt("count", lambda: desc.check(X, Y))
attempt("scalar for a memref", lambda: desc.check(1, Y, 0.5))
attempt("f32 1e300", lambda: desc.check(X, Y, 1e300))
compiled = tm.Compiled(b"not a cubin", KINFO)
attempt("Compiled.kernel check",
        lambda: compiled.kernel("pair").check(X, Y, 0.5))
attempt("Compiled.kernels grid", lambda: compiled.kernels()[0].grid_for(X, Y, 1))
hand = tm.KernelDesc("pair", (128, 1, 1), 0, (None, None, None), 0, ())
attempt("hand-made record", lambda: hand.check())
# The checks above needed no driver: there is none to load.
attempt("device_count", tm.device_count)
