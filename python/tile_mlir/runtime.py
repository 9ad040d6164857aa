"""Loading and launching compiled kernels through libtile_rt.

Every handle (Runtime, Module, Stream, Event, DeviceBuffer) is a context
manager and is also freed when garbage collected; closing a Runtime closes
what was made from it first. What is made from a handle keeps it alive (a
Kernel its Module, a Module, buffer, stream or event its Runtime, a view its
DeviceBuffer), so handles dropped in any order, or left to interpreter
shutdown, are freed correctly.
"""

from __future__ import annotations

import ctypes
import math
import operator
import sys
import weakref
from dataclasses import dataclass, field
from typing import Any, Sequence

from . import _ffi
from ._ffi import check
from ._handle import _Handle
from .compiler import Compiled
from .errors import NoDeviceError
from .info import KernelDesc, descs_of, dtype_code, dtype_size

# torch dtypes by KernelABI.md name (looked up lazily: torch is optional).
_TORCH_DTYPES = {
    "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
    "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2",
}

_INT_RANGES = {"i32": (-(1 << 31), (1 << 31) - 1),
               "i64": (-(1 << 63), (1 << 63) - 1)}
_INT64_MAX = (1 << 63) - 1
_DEVICE_PTR_LIMIT = 1 << 64  # tile_rt_deviceptr is a uint64_t
_SIZE_LIMIT = 1 << (8 * ctypes.sizeof(ctypes.c_size_t))


def _torch():
    """The torch module if the program imported it, else None: a tensor can
    only be passed once torch is loaded, so this never imports it."""
    return sys.modules.get("torch")


def _dtype_name(dtype) -> str:
    """A KernelABI.md dtype name from a name or a torch dtype."""
    if isinstance(dtype, str):
        return dtype
    torch = _torch()
    if torch is not None and isinstance(dtype, torch.dtype):
        for name, attr in _TORCH_DTYPES.items():
            if getattr(torch, attr) == dtype:
                return name
        raise TypeError(f"no kernel dtype for torch.{dtype}")
    raise TypeError(f"dtype must be a name such as 'f16' or a torch dtype, "
                    f"got {dtype!r}")


def device_count() -> int:
    """The number of GPUs the CUDA driver sees (0 when it sees none);
    NoDriverError without a usable driver."""
    n = ctypes.c_int()
    check(_ffi.rt().tile_rt_device_count(ctypes.byref(n)))
    return n.value


@dataclass(frozen=True)
class MemRef:
    """A strided view of device memory passed as a memref argument.

    `sizes` and `strides` are in elements, outermost first; `strides`
    defaults to the dense row-major ones. `dtype` is a KernelABI.md name
    ("f16", ...) or a torch dtype. `owner` is what holds the memory (the
    DeviceBuffer or tensor it views): the view keeps it alive, and a launch
    with a view of a closed DeviceBuffer is refused.
    """

    ptr: int
    dtype: Any
    sizes: Sequence[int]
    strides: Sequence[int] | None = None
    owner: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "ptr", operator.index(self.ptr))
        if not 0 <= self.ptr < _DEVICE_PTR_LIMIT:
            raise ValueError(f"memref pointer {self.ptr:#x} is not a device "
                             f"address (0 to 2^64 - 1)")
        object.__setattr__(self, "sizes", tuple(int(s) for s in self.sizes))
        if self.strides is None:
            strides, step = [], 1
            for s in reversed(self.sizes):
                strides.append(step)
                step *= max(s, 1)
            object.__setattr__(self, "strides", tuple(reversed(strides)))
        else:
            object.__setattr__(self, "strides",
                               tuple(int(s) for s in self.strides))
        if len(self.strides) != len(self.sizes):
            raise ValueError(f"{len(self.sizes)} sizes but "
                             f"{len(self.strides)} strides")
        for what, values in (("sizes", self.sizes),
                             ("strides", self.strides)):
            for i, v in enumerate(values):
                if not -_INT64_MAX - 1 <= v <= _INT64_MAX:
                    raise OverflowError(f"memref {what}[{i}] = {v} does not "
                                        f"fit in i64")

    @classmethod
    def from_tensor(cls, tensor) -> MemRef:
        """The view of a torch CUDA tensor (data_ptr, shape, strides)."""
        if not getattr(tensor, "is_cuda", False):
            raise TypeError(f"expected a CUDA tensor, got one on "
                            f"{getattr(tensor, 'device', '?')}")
        return cls(tensor.data_ptr(), tensor.dtype, tuple(tensor.shape),
                   tuple(tensor.stride()), owner=tensor)

    def _check_owner(self, where: str) -> None:
        """Refuses a view of a closed DeviceBuffer (its memory is freed)."""
        if isinstance(self.owner, DeviceBuffer) and self.owner.closed:
            raise ValueError(f"{where}: the view's DeviceBuffer is closed "
                             f"(its memory was freed); allocate a new one")

    def _fill(self, out: _ffi.tile_rt_arg) -> None:
        rank = len(self.sizes)
        sizes = (ctypes.c_int64 * max(rank, 1))(*self.sizes)
        strides = (ctypes.c_int64 * max(rank, 1))(*self.strides)
        check(_ffi.rt().tile_rt_arg_memref(
            ctypes.byref(out), dtype_code(_dtype_name(self.dtype)),
            int(self.ptr), rank, sizes, strides))


@dataclass(frozen=True)
class DeviceInfo:
    name: str
    ordinal: int
    compute_capability: tuple[int, int]
    sm_count: int
    max_smem_optin: int
    max_threads_per_block: int
    l2_bytes: int
    clock_khz: int  #: Peak SM clock, as the driver reports it.
    total_memory: int


@dataclass(frozen=True)
class KernelAttributes:
    """cuFuncGetAttribute facts of a loaded kernel."""

    registers: int
    static_smem: int
    local_bytes: int
    const_bytes: int
    max_threads_per_block: int
    max_dynamic_smem: int
    ptx_version: int
    binary_version: int


class Runtime(_Handle):
    """The primary context of GPU `device`, retained and made current.

    Raises NoDriverError without a usable CUDA driver ($TILE_RT_LIBCUDA, else
    libcuda.so.1) and NoDeviceError without such a GPU.
    """

    _free = "tile_rt_context_free"

    def __init__(self, device: int = 0):
        device = operator.index(device)
        if not _INT_RANGES["i32"][0] <= device <= _INT_RANGES["i32"][1]:
            # ctypes would wrap it to a C int (2**40 to 0): refuse it as the
            # runtime refuses any ordinal it has no GPU for.
            raise NoDeviceError(
                2, "NO_DEVICE", f"no GPU with ordinal {device}: the driver "
                f"sees {device_count()}")
        ptr = ctypes.c_void_p()
        check(_ffi.rt().tile_rt_context_create(ctypes.byref(ptr), device))
        super().__init__(ptr, None)
        self.device = device

    @property
    def info(self) -> DeviceInfo:
        d = _ffi.tile_rt_device_info()
        check(_ffi.rt().tile_rt_context_device_info(ctypes.byref(d),
                                                     self._handle()))
        return DeviceInfo(d.name.decode(), d.ordinal, (d.cc_major, d.cc_minor),
                          d.sm_count, d.max_smem_optin,
                          d.max_threads_per_block, d.l2_bytes, d.clock_khz,
                          d.total_memory)

    def make_current(self) -> None:
        check(_ffi.rt().tile_rt_context_make_current(self._handle()))

    def synchronize(self, timeout_s: float = 0.0) -> None:
        """Waits for all work on the device (at most `timeout_s` seconds if
        positive; RuntimeTimeoutError then)."""
        check(_ffi.rt().tile_rt_context_synchronize(self._handle(),
                                                    timeout_s))

    def load(self, compiled: Compiled | bytes,
             kernel_info: str | bytes | None = None) -> Module:
        """Loads a Compiled (or image bytes plus kernel info text)."""
        if isinstance(compiled, Compiled):
            if kernel_info is not None:
                raise TypeError("kernel_info comes with the Compiled")
            image, kinfo = compiled.binary, compiled.kernel_info
        else:
            if kernel_info is None:
                raise TypeError("load(image) needs its kernel_info text")
            image, kinfo = bytes(compiled), kernel_info
        if isinstance(kinfo, str):
            kinfo = kinfo.encode()
        ptr = ctypes.c_void_p()
        check(_ffi.rt().tile_rt_module_load(ctypes.byref(ptr), self._handle(),
                                            image, len(image), kinfo,
                                            len(kinfo)))
        return Module(ptr, self)

    def alloc(self, nbytes: int) -> DeviceBuffer:
        """`nbytes` (> 0) of device memory, 256-byte aligned."""
        nbytes = operator.index(nbytes)
        # A size_t takes the size modulo 2^64: a larger request must not
        # reach the C call as a small one.
        if not 0 < nbytes < _SIZE_LIMIT:
            raise ValueError(f"alloc({nbytes}): a size is in [1, 2^64)")
        ptr = _ffi.tile_rt_deviceptr()
        check(_ffi.rt().tile_rt_mem_alloc(ctypes.byref(ptr), self._handle(),
                                          nbytes))
        return DeviceBuffer(ptr.value, nbytes, self)

    def stream(self) -> Stream:
        ptr = ctypes.c_void_p()
        check(_ffi.rt().tile_rt_stream_create(ctypes.byref(ptr),
                                              self._handle()))
        return Stream(ptr, self)

    def wrap_stream(self, stream) -> Stream:
        """A Stream over a CUstream someone else owns: a torch.cuda.Stream
        (anything with an integer ``cuda_stream``) or a raw CUstream handle
        as an int (0: the default stream). Launches, events and waits then
        use that very stream. It is borrowed: it must outlive the Stream,
        and closing the Stream does not destroy it."""
        handle = getattr(stream, "cuda_stream", stream)
        if isinstance(handle, bool) or not isinstance(handle, int) or \
                not 0 <= handle < _DEVICE_PTR_LIMIT:
            raise TypeError(f"wrap_stream takes a torch.cuda.Stream or a "
                            f"CUstream handle (an int), got {stream!r}")
        ptr = ctypes.c_void_p()
        check(_ffi.rt().tile_rt_stream_wrap(ctypes.byref(ptr),
                                            self._handle(),
                                            ctypes.c_void_p(handle)))
        wrapped = Stream(ptr, self)
        wrapped._borrowed = stream  # keeps a torch stream object alive
        return wrapped

    def event(self) -> Event:
        ptr = ctypes.c_void_p()
        check(_ffi.rt().tile_rt_event_create(ctypes.byref(ptr),
                                             self._handle()))
        return Event(ptr, self)


class DeviceBuffer(_Handle):
    """Device memory from Runtime.alloc. Copies are synchronous."""

    def __init__(self, ptr: int, nbytes: int, runtime: Runtime):
        super().__init__(ctypes.c_void_p(ptr), runtime)
        self.nbytes = nbytes
        # The allocation keeps the C context alive until it is freed, so the
        # context pointer stays valid for that even once the Runtime is gone.
        self._ctx = runtime._handle()
        self._mem_free = _ffi.rt().tile_rt_mem_free

    @property
    def ptr(self) -> int:
        return self._handle().value

    def _release(self, ptr) -> int:
        return self._mem_free(self._ctx, ptr.value)

    def _span(self, nbytes: int | None, offset: int) -> int:
        n = self.nbytes - offset if nbytes is None else nbytes
        if offset < 0 or n < 0 or offset + n > self.nbytes:
            raise ValueError(f"{n} bytes at offset {offset} exceed the "
                             f"{self.nbytes}-byte buffer")
        return n

    def copy_from_host(self, data, offset: int = 0) -> None:
        """Copies a bytes-like object (bytes, bytearray, array, numpy...)
        to the buffer at `offset`."""
        view = memoryview(data).cast("B")
        n = self._span(view.nbytes, offset)
        src = view.tobytes() if view.readonly else \
            (ctypes.c_char * n).from_buffer(view)
        check(_ffi.rt().tile_rt_mem_htod(self._parent._handle(),
                                         self.ptr + offset, src, n))

    def copy_to_host(self, out=None, offset: int = 0):
        """Copies the buffer (from `offset`) into writable bytes-like `out`,
        or into new bytes of the rest of the buffer."""
        if out is None:
            buf = bytearray(self._span(None, offset))
        else:
            buf = memoryview(out).cast("B")
            self._span(buf.nbytes, offset)
        n = len(buf)
        if n:
            check(_ffi.rt().tile_rt_mem_dtoh(
                self._parent._handle(), (ctypes.c_char * n).from_buffer(buf),
                self.ptr + offset, n))
        return bytes(buf) if out is None else out

    def fill(self, value: int, width: int = 1) -> None:
        """Sets every `width`-byte word (1, 2 or 4) to `value`: an integer
        the word holds, unsigned or (two's complement) signed."""
        lib = _ffi.rt()
        fn = {1: lib.tile_rt_mem_set8, 2: lib.tile_rt_mem_set16,
              4: lib.tile_rt_mem_set32}.get(width)
        if fn is None:
            raise ValueError(f"width must be 1, 2 or 4, got {width}")
        value = operator.index(value)
        bits = 8 * width
        if not -(1 << (bits - 1)) <= value < (1 << bits):
            raise ValueError(f"fill({value}, width={width}): a {width}-byte "
                             f"word holds [{-(1 << (bits - 1))}, "
                             f"{(1 << bits) - 1}]")
        check(fn(self._parent._handle(), self.ptr, value & ((1 << bits) - 1),
                 self.nbytes // width))

    def memref(self, dtype, sizes: Sequence[int],
               strides: Sequence[int] | None = None,
               offset: int = 0) -> MemRef:
        """A MemRef view of the buffer (`offset` in bytes), which keeps the
        buffer alive; it must lie within the buffer."""
        offset = operator.index(offset)
        if not 0 <= offset <= self.nbytes:
            raise ValueError(f"offset {offset} is outside the "
                             f"{self.nbytes}-byte buffer: a view starts "
                             f"within it")
        ref = MemRef(self.ptr + offset, dtype, sizes, strides, owner=self)
        if any(st < 0 for st in ref.strides):
            raise ValueError(f"strides {ref.strides}: a view with a negative "
                             f"stride starts before its buffer")
        extent = 1 + sum((s - 1) * st
                         for s, st in zip(ref.sizes, ref.strides)) \
            if all(ref.sizes) else 0
        if offset + extent * dtype_size(_dtype_name(dtype)) > self.nbytes:
            raise ValueError(f"a {ref.sizes} view exceeds the "
                             f"{self.nbytes}-byte buffer")
        return ref


class Stream(_Handle):
    """A CUDA stream of the runtime."""

    _free = "tile_rt_stream_free"

    @property
    def native(self) -> int:
        """The CUstream handle, for other CUDA libraries (borrowed)."""
        out = ctypes.c_void_p()
        check(_ffi.rt().tile_rt_stream_native(ctypes.byref(out),
                                              self._handle()))
        return out.value or 0

    @property
    def is_capturing(self) -> bool:
        """Whether the stream is capturing a CUDA graph now."""
        out = ctypes.c_int()
        check(_ffi.rt().tile_rt_stream_is_capturing(
            ctypes.byref(out), self._parent._handle(), self._handle()))
        return bool(out.value)

    def synchronize(self, timeout_s: float = 0.0) -> None:
        """Waits for the stream's work (InvalidArgumentError while it is
        capturing a CUDA graph: nothing on it runs before the graph)."""
        check(_ffi.rt().tile_rt_stream_synchronize(
            self._parent._handle(), self._handle(), timeout_s))


class Event(_Handle):
    """A CUDA event with timing."""

    _free = "tile_rt_event_free"

    def record(self, stream: Stream | None = None) -> None:
        check(_ffi.rt().tile_rt_event_record(
            self._handle(), stream._handle() if stream else None))

    def synchronize(self, timeout_s: float = 0.0) -> None:
        check(_ffi.rt().tile_rt_event_synchronize(self._handle(), timeout_s))

    def elapsed_ms(self, start: Event) -> float:
        """Milliseconds from `start` to this event (both completed)."""
        out = ctypes.c_float()
        check(_ffi.rt().tile_rt_event_elapsed_ms(
            ctypes.byref(out), start._handle(), self._handle()))
        return out.value


class Module(_Handle):
    """A loaded GPU module plus its parsed kernel info."""

    _free = "tile_rt_module_free"

    def __init__(self, ptr, runtime: Runtime):
        super().__init__(ptr, runtime)
        self.runtime = runtime
        self._kernels: dict[str, Kernel] = {}

    def _release(self, ptr) -> int:
        for k in self._kernels.values():
            k._ptr = None  # kernels are owned by the module
            k._plan, k._plan_made = None, True  # it holds the C kernel
            for p in list(k._prepared):
                p._fast = None  # the general path then refuses the launch
        self._kernels.clear()
        return super()._release(ptr)

    @property
    def kernels(self) -> list[KernelDesc]:
        info = ctypes.c_void_p()
        check(_ffi.rt().tile_rt_module_kernel_info(ctypes.byref(info),
                                                   self._handle()))
        return descs_of(info, self)

    def _kernel_info_handle(self):
        """The module's parsed kernel info (borrowed; the module must be
        open)."""
        info = ctypes.c_void_p()
        check(_ffi.rt().tile_rt_module_kernel_info(ctypes.byref(info),
                                                   self._handle()))
        return info

    def kernel(self, name: str) -> Kernel:
        """Kernel `name`: NotFoundError (listing the kernels there are) when
        the module has none, UnsupportedError when it needs more shared
        memory than the device allows."""
        k = self._kernels.get(name)
        if k is None:
            ptr = ctypes.c_void_p()
            check(_ffi.rt().tile_rt_module_get_kernel(
                ctypes.byref(ptr), self._handle(), name.encode()))
            k = self._kernels[name] = Kernel(ptr, self)
        return k

    __getitem__ = kernel


class Kernel:
    """A kernel of a loaded module (owned by the module)."""

    def __init__(self, ptr, module: Module):
        self._ptr = ptr
        self.module = module
        d = ctypes.POINTER(_ffi.tile_rt_kernel_desc)()
        check(_ffi.rt().tile_rt_kernel_desc_of(ctypes.byref(d), ptr))
        self._desc_c = d
        self.desc = KernelDesc._from_c(d.contents, module)
        self._plan = None  # the fast launch plan, made on the first launch
        self._plan_made = False
        # Prepared launches holding the C kernel, dropped when it goes.
        self._prepared = weakref.WeakSet()

    @property
    def name(self) -> str:
        return self.desc.name

    def __repr__(self) -> str:
        return f"<tile_mlir.Kernel {self.desc}>"

    def _handle(self):
        if not self._ptr:
            raise ValueError(f"kernel '{self.name}': its module is closed")
        return self._ptr

    def attributes(self) -> KernelAttributes:
        a = _ffi.tile_rt_kernel_attrs()
        check(_ffi.rt().tile_rt_kernel_attributes(ctypes.byref(a),
                                                  self._handle()))
        return KernelAttributes(*(getattr(a, f) for f, _ in a._fields_))

    # -- Arguments -------------------------------------------------------- #

    def _args(self, args) -> ctypes.Array:
        self._handle()  # the record lives in the module: it must be open
        return marshal_args(self.desc, args, self.module.runtime.device)

    def check(self, *args) -> None:
        """Checks arguments as a launch would (count, kinds, dtypes, ranks,
        alignment, strides, TMA rules) without launching."""
        arr = self._args(args)
        check(_ffi.rt().tile_rt_kernel_desc_check_args(self._desc_c, arr,
                                                       len(args)))

    def grid(self, *args) -> tuple[int, int, int]:
        """The launch grid for these arguments, from the kernel's rules."""
        arr = self._args(args)
        g = (ctypes.c_uint32 * 3)()
        check(_ffi.rt().tile_rt_kernel_desc_grid(g, self._desc_c, arr,
                                                 len(args)))
        return tuple(g)

    # -- Launching -------------------------------------------------------- #

    def launch(self, *args, stream=None) -> None:
        """Launches asynchronously with `args`, one per kernel argument:
        torch CUDA tensors or MemRefs for memrefs, Python numbers for
        scalars (typed by the kernel info). The arguments and the shape
        contracts are checked on every launch.

        `stream`: a tile_mlir.Stream; a torch.cuda.Stream; 0 for the
        default stream; or None: torch's current stream when a tensor is
        passed, else the default stream. The launch goes to that very
        stream, with no join through another, so it may be captured into a
        CUDA graph (torch.cuda.graph) like any torch kernel.

        With torch tensors and numbers, the arguments are read and the
        kernel launched in one C call (the fast launch extension, when it
        was built); anything else takes the general path.
        """
        plan = self._plan if self._plan_made else self._make_plan()
        if plan is not None and stream is None:
            status = plan(args)
            if status == 0:
                return
            if status > 0:
                check(status)
        self._prepare(args, stream, check_now=False)()

    __call__ = launch

    def _make_plan(self):
        """The fast launch plan (tile_mlir._tile_launch.LaunchPlan), or None
        without torch or the extension."""
        torch = _torch()
        if torch is None:
            return None  # torch may come later: look again next time
        self._plan_made = True
        fast = _ffi.launcher()
        if fast is None:
            return None
        specs = []
        for p in self.desc.args:
            if p.kind == "memref":
                torch_dtype = getattr(torch, _TORCH_DTYPES[p.dtype])
                specs.append((0, dtype_code(p.dtype), p.rank, torch_dtype))
            else:
                specs.append(({"i32": 1, "i64": 2, "f32": 3}[p.dtype],
                              0, 0, None))
        get_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None) \
            or (lambda d: torch.cuda.current_stream(d).cuda_stream)
        self._plan = fast.LaunchPlan(
            _launch_native_address(), self._handle().value, torch.Tensor, get_stream,
            self.module.runtime.device, tuple(specs))
        return self._plan

    def prepare(self, *args, stream=None) -> PreparedLaunch:
        """Marshals and checks the arguments once and returns a callable
        that launches with them (one C call each time, for timing loops).
        It keeps the tensors passed alive; the stream is resolved now."""
        return self._prepare(args, stream, check_now=True)

    def _prepare(self, args, stream, check_now: bool) -> PreparedLaunch:
        arr = self._args(args)
        if check_now:
            check(_ffi.rt().tile_rt_kernel_desc_check_args(
                self._desc_c, arr, len(args)))
        if isinstance(stream, Stream):
            return PreparedLaunch(self, arr, args, stream, 0)
        torch = _torch()
        if stream is None:
            if torch is not None and any(isinstance(a, torch.Tensor)
                                         for a in args):
                stream = torch.cuda.current_stream(self.module.runtime.device)
            else:
                stream = 0
        if isinstance(stream, int) and not isinstance(stream, bool) and \
                stream == 0:
            return PreparedLaunch(self, arr, args, None, 0)
        if torch is not None and isinstance(stream, torch.cuda.Stream):
            if stream.device.index != self.module.runtime.device:
                raise ValueError(f"kernel '{self.name}': the stream is on "
                                 f"{stream.device}, the runtime on "
                                 f"cuda:{self.module.runtime.device}")
            return PreparedLaunch(self, arr, args, None, stream.cuda_stream,
                                  keep_stream=stream)
        raise TypeError("stream must be a tile_mlir.Stream, a "
                        "torch.cuda.Stream, 0 or None; got "
                        f"{stream!r}")


def _launch_native_address() -> int:
    """The address of the runtime's tile_rt_launch_native, which the fast
    launch extension calls (it links nothing itself)."""
    return ctypes.cast(_ffi.rt().tile_rt_launch_native, ctypes.c_void_p).value


def marshal_args(desc: KernelDesc, args, device: int | None = None
                 ) -> ctypes.Array:
    """The runtime's tile_rt_arg array for `args` of the kernel `desc`
    describes: torch CUDA tensors or MemRefs for memrefs (a tensor must be
    on cuda:`device` when one is given), Python numbers for scalars, typed
    by the kernel info. Host only: what the runtime then checks needs no
    GPU."""
    arr = (_ffi.tile_rt_arg * max(len(args), 1))()
    for i, a in enumerate(args):
        _marshal_arg(desc, i, a, arr[i], device)
    return arr


def _marshal_arg(desc: KernelDesc, index: int, value, out: _ffi.tile_rt_arg,
                 device: int | None) -> None:
    lib = _ffi.rt()
    params = desc.args
    expected = params[index] if index < len(params) else None
    torch = _torch()
    is_tensor = torch is not None and isinstance(value, torch.Tensor)
    where = f"kernel '{desc.name}' argument {index}"
    if is_tensor or isinstance(value, MemRef):
        if expected is not None and expected.kind != "memref":
            raise TypeError(f"{where} expects {expected}, got a "
                            f"{type(value).__name__}")
        if is_tensor:
            if not value.is_cuda:
                raise TypeError(f"{where}: expected a CUDA tensor, got "
                                f"one on {value.device}")
            if device is not None and value.device.index != device:
                raise ValueError(f"{where}: the tensor is on "
                                 f"{value.device}, the runtime on "
                                 f"cuda:{device}")
            value = MemRef.from_tensor(value)
        value._check_owner(where)
        value._fill(out)
        return
    if isinstance(value, (bool, int, float)) or hasattr(value, "__index__"):
        dtype = expected.dtype if expected is not None and \
            expected.kind == "scalar" else None
        if expected is not None and dtype is None:
            raise TypeError(f"{where} expects {expected}: pass a torch "
                            f"CUDA tensor or a tile_mlir.MemRef, got "
                            f"{type(value).__name__}")
        if dtype is None:  # an extra argument: the runtime reports it
            dtype = "f32" if isinstance(value, float) else "i64"
        if dtype == "f32":
            check(lib.tile_rt_arg_f32(ctypes.byref(out),
                                      _to_f32(value, where)))
            return
        if isinstance(value, float):
            raise TypeError(f"{where} expects {dtype}, got the float "
                            f"{value}")
        v = operator.index(value)
        lo, hi = _INT_RANGES[dtype]
        if not lo <= v <= hi:
            raise OverflowError(f"{where}: {v} does not fit in {dtype}")
        fn = lib.tile_rt_arg_i32 if dtype == "i32" else lib.tile_rt_arg_i64
        check(fn(ctypes.byref(out), v))
        return
    wanted = expected or "a tensor, MemRef or number"
    raise TypeError(f"{where}: cannot pass a {type(value).__name__} "
                    f"(expected {wanted})")


def _to_f32(value, where: str) -> float:
    """`value` as the f32 the kernel receives: a finite value beyond the f32
    range is refused rather than passed as an infinity (inf and nan passed
    as such stay allowed)."""
    v = float(value)
    f = ctypes.c_float(v).value
    if math.isinf(f) and math.isfinite(v):
        raise OverflowError(f"{where}: {v!r} is out of the f32 range "
                            f"(magnitude at most 3.4028235e+38); pass "
                            f"float('inf') for an infinity")
    return v


class PreparedLaunch:
    """A kernel launch with marshalled arguments (Kernel.prepare)."""

    def __init__(self, kernel: Kernel, arr, keep, stream: Stream | None,
                 native: int, keep_stream=None):
        self.kernel = kernel
        self._arr = arr
        self._n = len(keep)
        self._keep = keep  # the tensors and buffers the arguments point to
        # The views of DeviceBuffers, checked before each launch.
        self._views = [(i, a) for i, a in enumerate(keep)
                       if isinstance(a, MemRef) and
                       isinstance(a.owner, DeviceBuffer)]
        self._stream = stream  # a tile_mlir.Stream, else the CUstream below
        self._native = ctypes.c_void_p(native or None)
        self._keep_stream = keep_stream  # the torch stream it came from
        lib = _ffi.rt()
        self._launch = lib.tile_rt_launch
        self._launch_native = lib.tile_rt_launch_native
        # With nothing to check per call (no DeviceBuffer views, no Stream
        # handle that may close), the extension launches it in one C call.
        self._fast = None
        fast = _ffi.launcher()
        if fast is not None and not self._views and stream is None:
            self._fast = fast.PreparedLaunch(
                _launch_native_address(), kernel._handle().value, ctypes.addressof(arr),
                self._n, native or None, arr)
            kernel._prepared.add(self)

    def __call__(self) -> None:
        if self._fast is not None:
            status = self._fast()
            if status:
                check(status)
            return
        for i, view in self._views:
            view._check_owner(f"kernel '{self.kernel.name}' argument {i}")
        if self._stream is not None:
            check(self._launch(self.kernel._handle(), self._arr, self._n,
                               self._stream._handle()))
        else:
            check(self._launch_native(self.kernel._handle(), self._arr,
                                      self._n, self._native))
