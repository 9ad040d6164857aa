"""Launches with tensors through the fast path and the general one, against
the fake CUDA driver and a stand-in for torch (fast-launch.test): the same
parameters reach the driver either way, on the stream torch calls current
or the one passed, with no join through another stream; every argument the
fast path does not take falls back to the general path and its message;
foreign streams wrap without being destroyed; a capturing stream takes
launches and refuses waits.

Usage: TILE_RT_LIBCUDA=.../libtile_rt_fake_cuda.so fast_launch_test.py
"""
import os
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from fake_driver import (alive, expect, last_launch, param_bytes,  # noqa: E402
                         set_capturing)

# -- A stand-in for the parts of torch the package uses ------------------- #

torch = types.ModuleType("torch")


class dtype:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


for _name in ("float16", "bfloat16", "float32", "float64", "int8", "int16",
              "int32", "int64"):
    setattr(torch, _name, dtype(_name))
torch.dtype = dtype


class Device:
    def __init__(self, kind, index):
        self.type, self.index = kind, index

    def __repr__(self):
        return f"{self.type}:{self.index}" if self.type == "cuda" else "cpu"


class Tensor:
    def __init__(self, ptr, dt, shape, strides=None, device=0):
        self._ptr, self.dtype, self.shape = ptr, dt, tuple(shape)
        if strides is None:
            strides, step = [], 1
            for s in reversed(self.shape):
                strides.insert(0, step)
                step *= s
        self._strides = tuple(strides)
        self.device = Device("cuda", device) if device is not None else \
            Device("cpu", None)
        self.is_cuda = device is not None

    def data_ptr(self):
        return self._ptr

    def stride(self):
        return self._strides

    def get_device(self):
        return self.device.index if self.is_cuda else -1


torch.Tensor = Tensor


class Stream:
    """A torch.cuda.Stream: a CUstream handle the fake driver never reads."""

    def __init__(self, handle):
        self.cuda_stream, self.device = handle, Device("cuda", 0)

    def wait_stream(self, other):
        print("FAILED: a cross-stream wait")


current = Stream(0x5100)
cuda = types.ModuleType("torch.cuda")
cuda.Stream = Stream
cuda.current_stream = lambda device=None: current
cuda.default_stream = lambda device=None: Stream(0)
torch.cuda = cuda
torch._C = types.SimpleNamespace(
    _cuda_getCurrentRawStream=lambda device: current.cuda_stream)
sys.modules["torch"] = torch

import tile_mlir as tm  # noqa: E402
from tile_mlir.runtime import Kernel  # noqa: E402

IMAGE = b"FAKECUBIN scale pair"
KINFO = """tile-kernel-info 1
kernel scale
block 256 1 1
smem 0
grid 0 0 0 256
param memref 0 f32 2
param scalar 1 f32
param scalar 2 i32
param scalar 3 i64
end
kernel pair
block 128 1 1
smem 0
grid 0 0 0 128
param memref 0 f16 1
param memref 1 f16 1
require 1 0 eq 0 0 0 Y X
end
"""

general_calls = 0
_prepare = Kernel._prepare


def counting_prepare(*args, **kwargs):
    global general_calls
    general_calls += 1
    return _prepare(*args, **kwargs)


Kernel._prepare = counting_prepare


def show(label, fn):
    """Prints what calling `fn` gives: nothing, or its exception."""
    try:
        fn()
        print(f"{label}: ok")
    except Exception as e:  # the test prints what a user would see
        print(f"{label}: {type(e).__name__}: {getattr(e, 'message', e)}")


def attempt(label, fn):
    """Prints what launching with `fn` gives, and which path it took."""
    global general_calls
    general_calls = 0
    before = last_launch().count
    try:
        fn()
        result = "launched"
    except Exception as e:  # the test prints what a user would see
        result = f"{type(e).__name__}: {getattr(e, 'message', e)}"
    path = "general" if general_calls else "fast"
    launched = last_launch().count - before
    print(f"{label}: {result} ({path} path, {launched} launch)")


with tm.Runtime(0) as rt:
    module = rt.load(tm.Compiled(IMAGE, KINFO))
    scale, pair = module.kernel("scale"), module.kernel("pair")
    expect([8, 8, 8, 8, 8, 4, 4, 8])
    X = Tensor(0x10000, torch.float32, (300, 40), (64, 1))
    attempt("scale", lambda: scale.launch(X, -2.5, -7, 1 << 40))
    print("fast launch module:", "loaded" if tm.loaded_libraries().get(
        "_tile_launch.abi3.so") else "not loaded")
    fast = param_bytes(last_launch())
    print("stream is torch's current:", last_launch().stream == 0x5100)
    print("grid:", *last_launch().grid)
    scale.prepare(X, -2.5, -7, 1 << 40)()
    print("same parameters as the general path:",
          param_bytes(last_launch()) == fast)

    # What the fast path does not take goes the general way, with its
    # message; a runtime refusal on the fast path gives the same message.
    Y16 = Tensor(0x20000, torch.float16, (300, 40))
    attempt("f16 tensor for f32", lambda: scale.launch(Y16, 1.0, 1, 1))
    attempt("cpu tensor", lambda: scale.launch(
        Tensor(0x10000, torch.float32, (3, 4), device=None), 1.0, 1, 1))
    attempt("tensor on cuda:1", lambda: scale.launch(
        Tensor(0x10000, torch.float32, (3, 4), device=1), 1.0, 1, 1))
    attempt("rank 1", lambda: scale.launch(
        Tensor(0x10000, torch.float32, (12,)), 1.0, 1, 1))
    attempt("f32 1e300", lambda: scale.launch(X, 1e300, 1, 1))
    attempt("f32 inf", lambda: scale.launch(X, float("inf"), 1, 1))
    attempt("i32 2^31", lambda: scale.launch(X, 1.0, 1 << 31, 1))
    attempt("i64 2^63", lambda: scale.launch(X, 1.0, 1, 1 << 63))
    attempt("float for i32", lambda: scale.launch(X, 1.0, 1.5, 1))
    attempt("int for f32", lambda: scale.launch(X, 3, 1, 1))
    attempt("three arguments", lambda: scale.launch(X, 1.0, 1))
    attempt("misaligned", lambda: scale.launch(
        Tensor(0x10004, torch.float32, (3, 4)), 1.0, 1, 1))
    attempt("memref", lambda: scale.launch(
        tm.MemRef(0x10000, "f32", (3, 4)), 1.0, 1, 1))
    expect([8, 8, 8, 8, 8, 8])
    A = Tensor(0x30000, torch.float16, (100,))
    attempt("contract holds", lambda: pair.launch(A, A))
    attempt("contract fails", lambda: pair.launch(
        A, Tensor(0x40000, torch.float16, (99,))))
    attempt("empty", lambda: pair.launch(
        Tensor(0x40000, torch.float16, (0,)),
        Tensor(0x40000, torch.float16, (0,))))

    # Streams: torch's, passed or current; a wrapped foreign one.
    side = Stream(0x5200)
    attempt("torch side stream", lambda: pair.launch(A, A, stream=side))
    print("on the side stream:", last_launch().stream == 0x5200)
    current = Stream(0x5300)
    attempt("new current stream", lambda: pair.launch(A, A))
    print("on the new current stream:", last_launch().stream == 0x5300)
    attempt("default stream", lambda: pair.launch(A, A, stream=0))
    print("on the default stream:", last_launch().stream == 0)
    attempt("stream 7", lambda: pair.launch(A, A, stream=7))
    streams = alive().streams
    wrapped = rt.wrap_stream(side)
    print("wrapped native:", hex(wrapped.native))
    attempt("wrapped stream", lambda: pair.launch(A, A, stream=wrapped))
    print("on the wrapped stream:", last_launch().stream == 0x5200)
    print("capturing:", wrapped.is_capturing)
    set_capturing(0x5200)
    print("capturing:", wrapped.is_capturing)
    attempt("launch while capturing", lambda: pair.launch(A, A,
                                                          stream=wrapped))
    show("synchronize while capturing", wrapped.synchronize)
    set_capturing(None)
    wrapped.close()
    print("CUstreams destroyed by closing the wrapper:",
          streams - alive().streams)
    for bad in ("s", -1, 1 << 64, True):
        show(f"wrap {bad!r}", lambda b=bad: rt.wrap_stream(b))

    run = pair.prepare(A, A)
    print("prepared launch in one C call:", run._fast is not None)
    show("prepared", run)
    print("prepared on torch's current stream:",
          last_launch().stream == 0x5300)
    buffer = rt.alloc(1024)
    view = pair.prepare(buffer.memref("f16", (100,)), A)
    print("prepared launch of a DeviceBuffer view in one C call:",
          view._fast is not None)
    buffer.close()
    show("prepared view of a closed buffer", view)

    module.close()
    attempt("after the module closed", lambda: pair.launch(A, A))
    show("prepared after the module closed", run)
