"""Loading and launching against the fake CUDA driver the runtime tests
build (test/Runtime/fake_cuda.c), so marshalling runs without a GPU
(fake-launch.test). The test reads what reached cuLaunchKernel from the
same fake library the runtime opened ($TILE_RT_LIBCUDA).

Usage: TILE_RT_LIBCUDA=.../libtile_rt_fake_cuda.so fake_launch_test.py
"""
import os
import struct
import sys

import tile_mlir as tm

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from fake_driver import expect, lib as fake  # noqa: E402


def show(base):
    last = fake.fake_cuda_last_launch().contents
    print(f"launch #{last.count} {last.function.decode()} grid",
          *last.grid, "block", *last.block, "smem", last.smem)
    raw = bytes(last.bytes)
    for i in range(last.nparams):
        off, size = last.offset[i], last.size[i]
        b = raw[off:off + size]
        if size == 4:
            print(f"  param {i}: i32 {struct.unpack('<i', b)[0]} / "
                  f"f32 {struct.unpack('<f', b)[0]:g}")
        elif size == 8:
            v = struct.unpack("<q", b)[0]
            print(f"  param {i}: " + (f"base+{v - base:#x}"
                                      if 0 <= v - base < 1 << 24 else str(v)))
        else:
            print(f"  param {i}: {size}-byte tensor map")
    return last.count


IMAGE = b"FAKECUBIN gemm scale big gemm8"
KINFO = """tile-kernel-info 1
kernel gemm
block 128 1 1
smem 33792
grid 0 2 1 64
grid 1 2 0 64
param memref 0 f16 2
param memref 1 f16 2
param memref 2 f32 2
param tensormap 0 f16 2 box 64 64 swizzle 128
param tensormap 1 f16 2 box 64 64 swizzle 0
end
kernel scale
block 256 1 1
smem 0
grid 0 -1 0 132
param memref 0 bf16 3
param scalar 1 f32
param scalar 2 i32
param scalar 3 i64
end
kernel big
block 128 1 1
smem 240000
end
kernel gemm8
block 128 1 1
smem 49152
grid 0 2 1 64
grid 1 2 0 64
param memref 0 f8E4M3FN 2
param memref 1 f8E5M2 2
param memref 2 bf16 2
param tensormap 0 f8E4M3FN 2 box 128 64 swizzle 128
param tensormap 1 f8E5M2 2 box 128 64 swizzle 128
end
"""

print("devices:", tm.device_count())
with tm.Runtime(0) as rt:
    info = rt.info
    print("device:", info.name, "sm_%d%d" % info.compute_capability,
          info.sm_count, "SMs", info.clock_khz, "kHz")
    try:
        rt.load(b"ELF?", KINFO)
    except tm.CudaError as e:
        print("bad image: CudaError:", e.message)
    try:
        rt.load(IMAGE, KINFO.replace("block 256", "block 0"))
    except tm.ParseError as e:
        print("bad kinfo: ParseError:", e.message)

    with rt.load(tm.Compiled(IMAGE, KINFO)) as mod:
        print("kernels:", [k.name for k in mod.kernels])
        for name in ("nope", "big"):
            try:
                mod.kernel(name)
            except tm.TileError as e:
                print(f"kernel {name}: {type(e).__name__}: {e}")
        gemm = mod.kernel("gemm")
        print("same handle:", mod["gemm"] is gemm)
        print(gemm)
        print("registers:", gemm.attributes().registers)

        buf = rt.alloc(1 << 24)
        base = buf.ptr
        A = buf.memref("f16", (1000, 512))
        B = tm.MemRef(base + 0x400000, "f16", (512, 2048))
        C = buf.memref("f32", (1000, 2048), offset=0x800000)
        print("grid:", gemm.grid(A, B, C))
        expect([8] * 15 + [128] * 2)
        gemm.launch(A, B, C)
        count = show(base)

        # 8-bit floats: one byte an element, moved by TMA as bytes
        # (CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0, rows of 512 bytes).
        gemm8 = mod.kernel("gemm8")
        A8 = buf.memref("f8E4M3FN", (256, 512))
        B8 = tm.MemRef(base + 0x400000, "f8E5M2", (128, 512))
        C8 = buf.memref("bf16", (256, 128), offset=0x800000)
        expect([8] * 15 + [128] * 2)
        gemm8.launch(A8, B8, C8)
        raw = bytes(fake.fake_cuda_last_launch().contents.bytes)
        last = fake.fake_cuda_last_launch().contents
        for i in (15, 16):
            words = struct.unpack("<16Q", raw[last.offset[i]:last.offset[i]
                                              + 128])
            print(f"gemm8 tensor map {i}: base+{words[0] - base:#x} dtype "
                  f"{words[1]} rank {words[2]} dims {words[3]}x{words[4]} "
                  f"row stride {words[8]}")
        count = show(base)

        scale = mod.kernel("scale")
        X = tm.MemRef(base, "bf16", (4, 8, 16), strides=(256, 32, 1))
        expect([8] * 7 + [4, 4, 8])
        scale(X, 0.5, -7, 2**33 + 3)
        count = show(base)

        # Rejected before reaching the driver.
        bad_calls = [
            ("too few", gemm, (A, B)),
            ("wrong dtype", gemm, (A, B, A)),
            ("float for memref", gemm, (A, B, 1.0)),
            ("misaligned", gemm, (A, B, tm.MemRef(base + 8, "f32", (4, 4)))),
            ("memref for scalar", scale, (X, X, 1, 2)),
            ("float for i32", scale, (X, 1.0, 1.5, 2)),
            ("i32 overflow", scale, (X, 1.0, 2**31, 2)),
            ("unknown dtype", scale, (tm.MemRef(base, "f8", (4,)), 1.0, 1, 2)),
            ("string", scale, (X, "one", 1, 2)),
        ]
        for label, k, args in bad_calls:
            try:
                k.launch(*args)
                print(f"{label}: launched?!")
            except (tm.TileError, TypeError, OverflowError) as e:
                print(f"{label}: {type(e).__name__}: {e}")
        print("launches after the rejected ones:",
              fake.fake_cuda_last_launch().contents.count - count)

        # Streams, events, memory.
        with rt.stream() as s, rt.event() as e0, rt.event() as e1:
            print("stream native handle:", "set" if s.native else "NULL")
            e0.record(s)
            scale.launch(X, 1.0, 1, 1, stream=s)
            scale.launch(X, 1.0, 1, 1, stream=s)
            e1.record(s)
            e1.synchronize(timeout_s=5)
            print(f"elapsed: {e1.elapsed_ms(e0):.2f} ms")
            s.synchronize()
        rt.synchronize()
        buf.copy_from_host(bytes(range(16)), offset=32)
        print("round trip:", buf.copy_to_host(bytearray(4), offset=34))
        buf.fill(0x7E00, width=2)
        print("fill16:", buf.copy_to_host(bytearray(4)).hex())
        try:
            buf.memref("f32", (1 << 23,))
        except ValueError as e:
            print("ValueError:", e)
    print("module closed:", mod.closed)
    try:
        gemm.launch(A, B, C)
    except ValueError as e:
        print("ValueError:", e)
print("buffer closed with the runtime:", buf.closed)
