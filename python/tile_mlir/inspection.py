"""What the compiler made of a kernel, without a GPU: the SASS of a cubin
(the CUDA toolkit's nvdisasm) and the instruction mix of one kernel in its
PTX or SASS, through the C API of include/tile-c/Inspect.h.

The IR after a pass and the PTX are methods of :class:`Compiled`.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass

from . import _ffi
from .errors import DisassemblerError

_KINDS = {"ptx": _ffi.MLIR_TILE_ASSEMBLY_PTX,
          "sass": _ffi.MLIR_TILE_ASSEMBLY_SASS}


def _snake(name: str) -> str:
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)


@dataclass(frozen=True)
class InstructionMix:
    """A kernel's instructions that matter on Hopper, each counted once
    where it appears in the code (not how often it runs). In SASS, local
    loads and stores are register spills or local arrays."""

    total: int
    wgmma: int
    mma: int
    tma: int
    mbarrier: int
    barrier: int
    shuffle: int
    local_loads: int
    local_stores: int
    global_loads: int
    global_stores: int
    shared_loads: int
    shared_stores: int


assert [f for f in InstructionMix.__dataclass_fields__] == [
    _snake(n) for n in _ffi.INSTRUCTION_MIX_FIELDS]


def count_instructions(text: str | bytes, kernel: str,
                       kind: str = "ptx") -> InstructionMix:
    """The instruction mix of `kernel` in `text`: PTX (kind="ptx") or
    nvdisasm's SASS (kind="sass"). KeyError when `text` has no such
    kernel."""
    if kind not in _KINDS:
        raise ValueError(f"kind must be 'ptx' or 'sass', got {kind!r}")
    data = text.encode() if isinstance(text, str) else bytes(text)
    name = kernel.encode()
    mix = _ffi.MlirTileInstructionMix()
    result = _ffi.capi().mlirTileCountInstructions(
        _ffi.string_ref(data), _KINDS[kind], _ffi.string_ref(name),
        ctypes.byref(mix))
    if not result.value:
        raise KeyError(f"no kernel '{kernel}' in this {kind.upper()}")
    return InstructionMix(*(getattr(mix, n)
                            for n in _ffi.INSTRUCTION_MIX_FIELDS))


def _call_with_text(fn, *args) -> tuple[bool, str]:
    chunks: list[bytes] = []
    cb = _ffi.MlirStringCallback(
        lambda ref, _: chunks.append(_ffi.string_ref_bytes(ref)))
    result = fn(*args, cb, None)
    return bool(result.value), b"".join(chunks).decode("utf-8", "replace")


def find_disassembler() -> str | None:
    """The nvdisasm that :func:`disassemble` runs ($TILE_NVDISASM when set,
    else the first of $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin
    and PATH), or None."""
    ok, text = _call_with_text(_ffi.capi().mlirTileFindDisassembler)
    return text if ok else None


def disassemble(cubin: bytes) -> str:
    """The SASS of `cubin` as ``nvdisasm -c`` prints it, each kernel in
    section ``.text.<kernel>``. DisassemblerError says why there is none
    (no nvdisasm: where it was looked for; or nvdisasm's own message)."""
    data = bytes(cubin)
    ok, text = _call_with_text(_ffi.capi().mlirTileDisassemble,
                               _ffi.string_ref(data))
    if not ok:
        raise DisassemblerError(text)
    return text
