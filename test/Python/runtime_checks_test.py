"""What the Python layer refuses before anything reaches the runtime or the
driver, against the fake CUDA driver (runtime-checks.test): device ordinals
a C int cannot hold, views outside their buffer or of a freed one, pointers
that are not device addresses, sizes beyond i64, f32 scalars beyond the f32
range (explicit infinities and NaN still pass), and the runtime's own
overflow checks as Python sees them.

Usage: TILE_RT_LIBCUDA=.../libtile_rt_fake_cuda.so runtime_checks_test.py
"""
import os
import struct
import sys

import tile_mlir as tm

KINFO = """tile-kernel-info 1
kernel scale
block 256 1 1
smem 0
grid 0 0 0 256
param memref 0 f32 1
param scalar 1 f32
end
kernel tma
block 128 1 1
smem 0
param memref 0 f32 2
param tensormap 0 f32 2 box 4 1 swizzle 0
end
"""

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from fake_driver import expect, lib as fake  # noqa: E402

expect([8, 8, 8, 4])


def last_f32() -> float:
    last = fake.fake_cuda_last_launch().contents
    off = last.offset[3]
    return struct.unpack("<f", bytes(last.bytes[off:off + 4]))[0]


def attempt(label, fn):
    try:
        fn()
        print(f"{label}: accepted")
    except (tm.TileError, ValueError, TypeError, OverflowError) as e:
        print(f"{label}: {type(e).__name__}: {e}")


for ordinal in (2**40, 2**31, -2**31 - 1, 1, -1):
    attempt(f"Runtime({ordinal})", lambda: tm.Runtime(ordinal))
attempt("Runtime(1.0)", lambda: tm.Runtime(1.0))

rt = tm.Runtime(0)
mod = rt.load(tm.Compiled(b"FAKECUBIN scale tma", KINFO))
scale, tma = mod.kernel("scale"), mod.kernel("tma")
buf = rt.alloc(4096)

# Views must lie within their buffer.
attempt("offset -16", lambda: buf.memref("f32", (4,), offset=-16))
attempt("offset past the end", lambda: buf.memref("f32", (1,), offset=4100))
attempt("negative stride", lambda: buf.memref("f32", (4, 4), (-4, 1),
                                              offset=64))
attempt("view of 1025 f32", lambda: buf.memref("f32", (1025,)))
attempt("empty view at the end", lambda: buf.memref("f32", (0,),
                                                    offset=4096))

# Pointers and sizes the C types cannot hold.
attempt("MemRef ptr -16", lambda: tm.MemRef(-16, "f32", (4,)))
attempt("MemRef ptr 2^64", lambda: tm.MemRef(2**64, "f32", (4,)))
attempt("MemRef size 2^63", lambda: tm.MemRef(0x10000, "f32", (2**63,)))
attempt("MemRef stride -2^63-1",
        lambda: tm.MemRef(0x10000, "f32", (2, 4), (-2**63 - 1, 1)))

# The runtime's checks, as Python sees them.
attempt("launch NULL view", lambda: scale(tm.MemRef(0, "f32", (4,)), 1.0))
attempt("launch wrapping view",
        lambda: scale(tm.MemRef(2**64 - 16, "f32", (8,)), 1.0))
attempt("launch negative stride",
        lambda: tma(tm.MemRef(buf.ptr + 256, "f32", (2, 4), (-4, 1))))
wrap = 2**62 + 4
attempt("TMA ld 2^62+4, 1 row",
        lambda: tma(tm.MemRef(buf.ptr, "f32", (1, 4), (wrap, 1))))
attempt("TMA ld 2^62+4, 2 rows",
        lambda: tma(tm.MemRef(buf.ptr, "f32", (2, 4), (wrap, 1))))

# f32 scalars: out of range is refused, infinities and NaN pass as given.
view = buf.memref("f32", (1024,))
for value in (1e300, -1e300, 3.5e38, 3.4028235e38, float("inf"),
              float("-inf"), float("nan"), 0.5):
    def go():
        scale(view, value)
        print(f"f32 {value!r}: launched with {last_f32()!r}")
    try:
        go()
    except OverflowError as e:
        print(f"f32 {value!r}: OverflowError: {e}")

# A view of a freed buffer, launched directly or through a prepared launch.
other = rt.alloc(4096)
stale = other.memref("f32", (1024,))
prepared = scale.prepare(stale, 1.0)
prepared()
print("prepared launch before the free: launched")
other.close()
attempt("launch with a freed buffer's view", lambda: scale(stale, 1.0))
attempt("prepared launch after the free", prepared)
attempt("check with a freed buffer's view", lambda: scale.check(stale, 1.0))
print("a view keeps its buffer:", stale.owner is other)

# Sizes a size_t cannot hold never reach the C call, where they would wrap
# to a small allocation; fill values a word cannot hold are refused, not
# wrapped.
attempt("alloc(2**64 + 256)", lambda: rt.alloc(2**64 + 256))
attempt("alloc(2**64)", lambda: rt.alloc(2**64))
attempt("alloc(0)", lambda: rt.alloc(0))
attempt("alloc(4.0)", lambda: rt.alloc(4.0))
attempt("fill(2**40, 4)", lambda: buf.fill(2**40, 4))
attempt("fill(256, 1)", lambda: buf.fill(256, 1))
attempt("fill(-129, 1)", lambda: buf.fill(-129, 1))
attempt("fill(-1, 4)", lambda: buf.fill(-1, 4))
attempt("fill(65535, 2)", lambda: buf.fill(65535, 2))
rt.close()
