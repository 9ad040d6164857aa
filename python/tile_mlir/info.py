"""Kernel info: the compiler's launch metadata (docs/KernelABI.md), read
through the runtime's parser. Host only: no GPU or driver is needed."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field

from . import _ffi
from ._ffi import check
from ._handle import _Handle

_PARAM_KINDS = {
    _ffi.TILE_RT_PARAM_MEMREF: "memref",
    _ffi.TILE_RT_PARAM_SCALAR: "scalar",
    _ffi.TILE_RT_PARAM_TENSORMAP: "tensormap",
}


_ACCESS = {
    _ffi.TILE_RT_ACCESS_UNKNOWN: "unknown",
    _ffi.TILE_RT_ACCESS_READ: "read",
    _ffi.TILE_RT_ACCESS_WRITE: "write",
    _ffi.TILE_RT_ACCESS_READWRITE: "readwrite",
}


def dtype_name(code: int) -> str:
    """The KernelABI.md name of a ``tile_rt_dtype`` ("f16", ...)."""
    return _ffi.rt().tile_rt_dtype_name(code).decode()


def dtype_code(name: str) -> int:
    """The ``tile_rt_dtype`` of a KernelABI.md name; InvalidArgumentError
    (the runtime's message) for anything else."""
    out = _ffi.tile_rt_dtype()
    check(_ffi.rt().tile_rt_dtype_from_name(ctypes.byref(out), name.encode()))
    return out.value


def dtype_size(name: str) -> int:
    """Bytes per element of a KernelABI.md dtype name."""
    return _ffi.rt().tile_rt_dtype_size(dtype_code(name))


@dataclass(frozen=True)
class ParamDesc:
    """One ``param`` line: ``kind`` is "memref", "scalar" or "tensormap".

    ``access`` (memrefs, from the ``access`` line) is "read", "write" (an
    output), "readwrite" (mutated in place), or "unknown": for scalars and
    tensor maps, and for memrefs of texts without ``access`` lines."""

    kind: str
    arg: int  #: The tile.kernel argument it comes from.
    dtype: str
    rank: int  #: 0 for scalars.
    box: tuple[int, ...] = ()  #: Tensor map box, innermost first.
    swizzle: int = 0  #: Tensor map swizzle bytes.
    access: str = "unknown"
    #: The argument's source name, where a contract reads it ("" else).
    name: str = ""

    def __str__(self) -> str:
        if self.kind == "scalar":
            return self.dtype
        if self.kind == "memref":
            return f"memref<{'?x' * self.rank}{self.dtype}>"
        box = "x".join(str(b) for b in self.box)
        return (f"tensormap<arg {self.arg}, box {box}, "
                f"swizzle {self.swizzle}>")


@dataclass(frozen=True)
class GridRule:
    """One ``grid`` line: ``ceildiv(sizes[dim] of memref arg, tile)``, or the
    constant ``tile`` when ``arg`` is -1."""

    arg: int
    dim: int
    tile: int

    def __str__(self) -> str:
        if self.arg < 0:
            return str(self.tile)
        return f"arg{self.arg}[{self.dim}] / {self.tile}"


_RELATIONS = {0: "eq", 1: "le", 2: "ge", 3: "lt", 4: "gt"}
_RELATION_SIGNS = {"eq": "==", "le": "<=", "ge": ">=", "lt": "<", "gt": ">"}


@dataclass(frozen=True)
class Contract:
    """One ``require`` line, ``text`` as the source states it
    (``%Q[1] mod %K[1] == 0``). When it relates one size to one size or a
    constant, it is also given in that form: ``sizes[dim]`` of memref
    argument ``arg`` is ``relation`` ("eq", "le", "ge", "lt" or "gt") to
    ``sizes[bound_dim]`` of argument ``bound_arg``, or to the constant
    ``bound`` when ``bound_arg`` is -1; otherwise ``arg`` is -1. The names
    are the arguments' source names ("" where unknown)."""

    arg: int
    dim: int
    relation: str
    bound_arg: int
    bound_dim: int
    bound: int
    arg_name: str = ""
    bound_name: str = ""
    text: str = ""

    def __str__(self) -> str:
        if self.text:
            return self.text
        lhs = f"%{self.arg_name or f'arg{self.arg}'}[{self.dim}]"
        rhs = str(self.bound) if self.bound_arg < 0 else \
            f"%{self.bound_name or f'arg{self.bound_arg}'}[{self.bound_dim}]"
        return f"{lhs} {_RELATION_SIGNS.get(self.relation, '?')} {rhs}"


@dataclass(frozen=True)
class KernelDesc:
    """One kernel's record: name, block, dynamic shared memory, the grid
    rules (one per axis x, y, z; None where absent, i.e. extent 1), the
    params (the ``nargs`` argument params first, then the tensor maps) and
    the shape contracts."""

    name: str
    block: tuple[int, int, int]
    smem: int
    grid: tuple[GridRule | None, GridRule | None, GridRule | None]
    nargs: int
    params: tuple[ParamDesc, ...]
    contracts: tuple[Contract, ...] = ()  #: The shape contracts.
    #: Blocks per thread-block cluster (x, y, z); (1, 1, 1) without one.
    cluster: tuple[int, int, int] = (1, 1, 1)
    #: What holds the C record (a KernelInfo or a Module), for check/grid.
    _owner: object = field(default=None, repr=False, compare=False)

    @property
    def args(self) -> tuple[ParamDesc, ...]:
        """The memref and scalar params, one per kernel argument, in order."""
        return self.params[:self.nargs]

    @property
    def tensormaps(self) -> tuple[ParamDesc, ...]:
        return self.params[self.nargs:]

    @property
    def outputs(self) -> tuple[int, ...]:
        """The indices of the arguments the kernel writes ("write" or
        "readwrite"): what a caller allocates or declares mutated. Empty
        when the text has no ``access`` lines."""
        return tuple(p.arg for p in self.args
                     if p.access in ("write", "readwrite"))

    def _record(self):
        """The C record (``tile_rt_kernel_desc *``) of this kernel."""
        owner = self._owner
        if owner is None:
            raise ValueError(f"kernel '{self.name}': this KernelDesc was "
                             f"built by hand; take one from kernel_info(), "
                             f"Compiled.kernels() or Module.kernels")
        info = owner._kernel_info_handle()
        d = ctypes.POINTER(_ffi.tile_rt_kernel_desc)()
        check(_ffi.rt().tile_rt_kernel_info_find(ctypes.byref(d), info,
                                                 self.name.encode()))
        return d

    def check(self, *args) -> None:
        """Checks `args` as a launch would (count, kinds, dtypes, ranks,
        alignment, strides, the TMA rules and the shape contracts), on the
        host: no GPU or driver is needed (pass MemRefs and numbers).
        InvalidArgumentError with the runtime's message when one fails."""
        from .runtime import marshal_args
        arr = marshal_args(self, args)
        check(_ffi.rt().tile_rt_kernel_desc_check_args(self._record(), arr,
                                                       len(args)))

    def grid_for(self, *args) -> tuple[int, int, int]:
        """The launch grid for `args`, from the kernel's grid rules (the
        `grid` field), on the host."""
        from .runtime import marshal_args
        arr = marshal_args(self, args)
        g = (ctypes.c_uint32 * 3)()
        check(_ffi.rt().tile_rt_kernel_desc_grid(g, self._record(), arr,
                                                 len(args)))
        return tuple(g)

    def signature(self) -> str:
        return f"{self.name}({', '.join(str(p) for p in self.args)})"

    def __str__(self) -> str:
        grid = ", ".join(str(g) if g else "1" for g in self.grid)
        return (f"{self.signature()} grid [{grid}] block "
                f"{'x'.join(map(str, self.block))} smem {self.smem}")

    @classmethod
    def _from_c(cls, d: _ffi.tile_rt_kernel_desc,
                owner=None) -> KernelDesc:
        params = []
        for i in range(d.nparams):
            p = d.params[i]
            kind = _PARAM_KINDS.get(p.kind, str(p.kind))
            box = tuple(p.box[:p.rank]) if kind == "tensormap" else ()
            params.append(ParamDesc(kind, p.arg, dtype_name(p.dtype), p.rank,
                                    box, p.swizzle,
                                    _ACCESS.get(p.access, str(p.access)),
                                    p.name.decode()))
        grid = tuple(GridRule(g.arg, g.dim, g.tile) if g.present else None
                     for g in d.grid)
        contracts = tuple(
            Contract(c.arg, c.dim, _RELATIONS.get(c.relation, str(c.relation)),
                     c.bound_arg, c.bound_dim, c.bound,
                     c.arg_name.decode(), c.bound_name.decode(),
                     _contract_text(d, i))
            for i, c in enumerate(d.contracts[:d.ncontracts]))
        return cls(d.name.decode(), tuple(d.block), d.smem, grid, d.nargs,
                   tuple(params), contracts,
                   tuple(c or 1 for c in d.cluster), owner)


def _contract_text(d: _ffi.tile_rt_kernel_desc, index: int) -> str:
    """Contract `index` of `d` as the runtime prints it."""
    buf = ctypes.create_string_buffer(512)
    _ffi.rt().tile_rt_contract_format(buf, len(buf), ctypes.byref(d), index)
    return buf.value.decode()


def _as_bytes(text: str | bytes) -> bytes:
    return text.encode() if isinstance(text, str) else bytes(text)


def descs_of(info_ptr, owner=None) -> list[KernelDesc]:
    """The records of a parsed ``tile_rt_kernel_info *`` (borrowed from
    `owner`, which each record keeps for its host-only check and grid)."""
    lib = _ffi.rt()
    n = ctypes.c_int()
    check(lib.tile_rt_kernel_info_count(ctypes.byref(n), info_ptr))
    out = []
    for i in range(n.value):
        d = ctypes.POINTER(_ffi.tile_rt_kernel_desc)()
        check(lib.tile_rt_kernel_info_get(ctypes.byref(d), info_ptr, i))
        out.append(KernelDesc._from_c(d.contents, owner))
    return out


class KernelInfo(_Handle):
    """A parsed kernel info text (owns a ``tile_rt_kernel_info``).

    Usable as a context manager; :func:`kernel_info` is the one-shot form.
    """

    _free = "tile_rt_kernel_info_free"
    _noun = "kernel info"

    def __init__(self, text: str | bytes):
        data = _as_bytes(text)
        ptr = ctypes.c_void_p()
        check(_ffi.rt().tile_rt_kernel_info_parse(ctypes.byref(ptr), data,
                                                 len(data)))
        super().__init__(ptr, None)

    def _kernel_info_handle(self):
        return self._handle()

    def kernels(self) -> list[KernelDesc]:
        return descs_of(self._handle(), self)

    def find(self, name: str) -> KernelDesc:
        """The record named `name`; NotFoundError (listing the kernels there
        are) when there is none."""
        d = ctypes.POINTER(_ffi.tile_rt_kernel_desc)()
        check(_ffi.rt().tile_rt_kernel_info_find(ctypes.byref(d),
                                                 self._handle(),
                                                 name.encode()))
        return KernelDesc._from_c(d.contents, self)


def kernel_info(text: str | bytes) -> list[KernelDesc]:
    """Parses kernel info text with the runtime's parser. A malformed text
    raises ParseError with the runtime's message (line number and line)."""
    # Not closed here: the records keep it for their check and grid, and it
    # is freed with the last of them.
    return KernelInfo(text).kernels()
