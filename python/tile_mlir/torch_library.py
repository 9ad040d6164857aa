"""Kernels as PyTorch operators (torch.library custom ops).

    op = tile_mlir.torch_op(rt.load(compiled).kernel("softmax_n4096_f16"))
    y = op(x)                          # torch.ops.tile_mlir.softmax_n4096_f16
    torch.compile(model, fullgraph=True)   # traces through it

The operator's schema comes from the kernel info: memref arguments the
kernel only reads are Tensor inputs, scalars are float (f32) or int (i32,
i64) inputs, arguments it only writes are outputs, allocated (contiguous)
and returned, and arguments it reads and writes are inputs the operator
mutates. Each output's sizes come from the kernel's shape contracts: every
dimension of an output must be `==` to a dimension of an input or to a
constant (`requires [%Y[0] == %X[0], ...]`), which also gives the fake
(meta) implementation torch.compile and FakeTensor use. The contracts are
checked on every launch.

Forward only: the backward of an operator raises RuntimeError (one that
mutates an argument has no autograd registration, and torch warns).

Only the standard library is imported here; torch when an op is made.
"""

from __future__ import annotations

from dataclasses import dataclass

from .info import KernelDesc
from .runtime import _TORCH_DTYPES

_SCALAR_TYPES = {"f32": "float", "i32": "int", "i64": "int"}


@dataclass(frozen=True)
class OpSignature:
    """How a kernel's arguments map onto an operator's.

    ``inputs``: the kernel argument index of each operator argument, in
    order; ``outputs``: of each returned tensor; ``mutated``: the inputs
    the kernel writes. ``shapes[i]``: for output i, per dimension, either
    ``("input", position, dim)`` (that size of operator input ``position``)
    or ``("const", value)``. ``schema``: the torch.library schema, without
    the name.
    """

    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    mutated: tuple[int, ...]
    shapes: tuple[tuple[tuple, ...], ...]
    schema: str


class OpSignatureError(ValueError):
    """The kernel cannot be an operator as it stands (the message says
    why and what to change)."""


def op_signature(desc: KernelDesc, outputs=None) -> OpSignature:
    """The operator signature of a kernel (host only: no torch, no GPU).

    `outputs`: the kernel argument indices of the outputs, overriding what
    the kernel info says each argument's access is (needed when it does
    not say: a kernel info without ``access`` lines)."""
    args = desc.args
    written = set()
    for i, p in enumerate(args):
        if p.kind != "memref":
            continue
        access = getattr(p, "access", "unknown")
        if outputs is not None:
            access = "write" if i in outputs else "read"
        if access == "unknown":
            raise OpSignatureError(
                f"kernel '{desc.name}': its kernel info does not say which "
                f"arguments it writes (no access lines: compiled by an "
                f"older tile-mlir?); recompile it, or pass outputs=[...] "
                f"(the argument indices it writes)")
        if access in ("write", "readwrite"):
            written.add((i, access))
    outs = tuple(i for i, a in sorted(written) if a == "write")
    mutated = tuple(i for i, a in sorted(written) if a == "readwrite")
    if outputs is not None:
        bad = [i for i in outputs if not 0 <= i < len(args) or
               args[i].kind != "memref"]
        if bad:
            raise OpSignatureError(
                f"kernel '{desc.name}': outputs {bad} are not memref "
                f"arguments (it has {len(args)} arguments: "
                f"{', '.join(str(p) for p in args)})")
    inputs = tuple(i for i in range(len(args)) if i not in outs)
    position = {arg: k for k, arg in enumerate(inputs)}
    shapes = tuple(_output_shape(desc, o, position) for o in outs)

    names = _arg_names(desc)
    params = []
    for k, i in enumerate(inputs):
        p = args[i]
        if p.kind == "memref":
            alias = f"({chr(ord('a') + mutated.index(i))}!)" \
                if i in mutated else ""
            params.append(f"Tensor{alias} {names[i]}")
        else:
            params.append(f"{_SCALAR_TYPES[p.dtype]} {names[i]}")
    if len(outs) == 1:
        ret = "Tensor"
    else:
        ret = "(" + ", ".join("Tensor" for _ in outs) + ")"
    return OpSignature(inputs, outs, mutated, shapes,
                       f"({', '.join(params)}) -> {ret}")


def _arg_names(desc: KernelDesc) -> list[str]:
    """Schema names of the arguments: the source names that the kernel info
    carries (for the arguments its contracts read) where they are
    identifiers torch accepts, else arg<i>."""
    names = [f"arg{i}" for i in range(len(desc.args))]
    for i, p in enumerate(desc.args):
        name = getattr(p, "name", "")
        if name and name.isidentifier() and name not in names:
            names[i] = name
    return names


def _output_shape(desc: KernelDesc, out: int, position) -> tuple:
    """Per dimension of output `out`, where its size comes from: a ==
    contract with a constant or with an input's size, either way round."""
    rules = {}
    for c in getattr(desc, "contracts", ()):
        if c.relation != "eq":
            continue
        if c.arg == out and c.bound_arg < 0:
            rules.setdefault(c.dim, ("const", c.bound))
        elif c.arg == out and c.bound_arg in position:
            rules.setdefault(c.dim, ("input", position[c.bound_arg],
                                     c.bound_dim))
        elif c.bound_arg == out and c.arg in position:
            rules.setdefault(c.bound_dim, ("input", position[c.arg], c.dim))
    missing = [d for d in range(desc.args[out].rank) if d not in rules]
    if missing:
        names = _arg_names(desc)
        d = missing[0]
        like = next((names[i] for i in position
                     if desc.args[i].kind == "memref" and
                     desc.args[i].rank > d), "X")
        raise OpSignatureError(
            f"kernel '{desc.name}': the size of output {names[out]} "
            f"(argument {out}) in dimension{'s' if len(missing) > 1 else ''}"
            f" {', '.join(map(str, missing))} is fixed by no == contract "
            f"with an input or a constant; add one to the kernel's "
            f"requires clause (e.g. %{names[out]}[{d}] == %{like}[{d}])")
    return tuple(rules[d] for d in range(desc.args[out].rank))


# -- Registering ---------------------------------------------------------- #

_registered: dict[str, object] = {}  # qualname -> what keeps it alive
_libraries: dict[str, object] = {}  # namespace -> torch.library.Library

def torch_op(kernel, name: str | None = None, *, namespace: str = "tile_mlir",
             outputs=None):
    """Registers `kernel` (a loaded tile_mlir.Kernel) as the PyTorch
    operator ``torch.ops.<namespace>.<name>`` (name: the kernel's) and
    returns it (the OpOverload ``.default``). Registering a name twice raises ValueError. The operator
    keeps the kernel (and its module and runtime) alive."""
    import torch

    desc = kernel.desc
    sig = op_signature(desc, outputs)
    name = name or desc.name
    qualname = f"{namespace}::{name}"
    if qualname in _registered:
        raise ValueError(f"the operator {qualname} is registered already")
    dtypes = [getattr(torch, _TORCH_DTYPES[desc.args[o].dtype])
              for o in sig.outputs]

    def allocate(inputs, like):
        out = []
        for shape, dtype in zip(sig.shapes, dtypes):
            sizes = [inputs[r[1]].shape[r[2]] if r[0] == "input" else r[1]
                     for r in shape]
            out.append(torch.empty(sizes, dtype=dtype, device=like.device))
        return out

    def first_tensor(inputs):
        for v in inputs:
            if isinstance(v, torch.Tensor):
                return v
        raise ValueError(f"{qualname}: no tensor argument to place the "
                         f"outputs by")

    def result(outs):
        if len(outs) == 1:
            return outs[0]
        return tuple(outs)

    def impl(*inputs):
        outs = allocate(inputs, first_tensor(inputs))
        args = [None] * len(desc.args)
        for k, i in enumerate(sig.inputs):
            args[i] = inputs[k]
        for t, o in zip(outs, sig.outputs):
            args[o] = t
        kernel.launch(*args)
        return result(outs) if outs else None

    def fake(*inputs):
        return result(allocate(inputs, first_tensor(inputs))) \
            if sig.outputs else None

    lib = _libraries.get(namespace)
    if lib is None:
        lib = _libraries[namespace] = torch.library.Library(namespace,
                                                            "FRAGMENT")
    def backward(ctx, *grads):
        raise RuntimeError(f"{qualname} has no backward: tile_mlir "
                           f"operators are forward only")

    lib.define(name + sig.schema)
    lib.impl(name, impl, "CUDA")
    torch.library.register_fake(qualname, fake, lib=lib)
    if not sig.mutated:
        # Asking a gradient through the operator is an error, not the
        # silent zero torch's fallback for ops without a formula warns of.
        torch.library.register_autograd(qualname, backward, lib=lib)
    _registered[qualname] = (kernel, impl, fake)
    return getattr(getattr(torch.ops, namespace), name).default
