"""The controls of the fake CUDA driver (test/Runtime/fake_cuda.h), for the
Python tests that run the package against it. The library is the one the
runtime opened ($TILE_RT_LIBCUDA): dlopen of the same path gives the same
instance, so what the runtime passed to the "driver" can be read here.

Tests import it with test/Python/Inputs on sys.path.
"""
import ctypes
import os

MAX_PARAMS = 256  # FAKE_CUDA_MAX_PARAMS
PARAM_BYTES = 8192  # FAKE_CUDA_PARAM_BYTES


class FakeLaunch(ctypes.Structure):  # fake_cuda_launch
    _fields_ = [("count", ctypes.c_int), ("stream", ctypes.c_size_t),
                ("function", ctypes.c_char * 256),
                ("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3),
                ("smem", ctypes.c_uint), ("nparams", ctypes.c_int),
                ("offset", ctypes.c_size_t * MAX_PARAMS),
                ("size", ctypes.c_size_t * MAX_PARAMS),
                ("address", ctypes.c_size_t * MAX_PARAMS),
                ("bytes", ctypes.c_ubyte * PARAM_BYTES),
                ("cluster", ctypes.c_uint * 3)]


class Counts(ctypes.Structure):  # fake_cuda_lifetime_counts
    _fields_ = [(f, ctypes.c_int) for f in
                ("primary_refs", "modules", "allocations", "streams",
                 "events", "calls_after_release")]


lib = ctypes.CDLL(os.environ["TILE_RT_LIBCUDA"])
lib.fake_cuda_last_launch.restype = ctypes.POINTER(FakeLaunch)
lib.fake_cuda_expect_params.argtypes = [ctypes.POINTER(ctypes.c_size_t),
                                        ctypes.c_int]
lib.fake_cuda_set_capturing.argtypes = [ctypes.c_void_p]


def expect(sizes) -> None:
    """Announces the byte size of each parameter of the next launches."""
    lib.fake_cuda_expect_params((ctypes.c_size_t * len(sizes))(*sizes),
                                len(sizes))


def last_launch() -> FakeLaunch:
    return lib.fake_cuda_last_launch().contents


def param_bytes(launch: FakeLaunch) -> list[bytes]:
    """The bytes of each parameter the last launch passed."""
    raw = bytes(launch.bytes)
    return [raw[launch.offset[i]:launch.offset[i] + launch.size[i]]
            for i in range(launch.nparams)]


def set_capturing(stream) -> None:
    """Makes `stream` (a CUstream handle; None: the default stream) report
    itself capturing a CUDA graph."""
    lib.fake_cuda_set_capturing(stream)


def alive() -> Counts:
    c = Counts()
    lib.fake_cuda_lifetime(ctypes.byref(c))
    return c
