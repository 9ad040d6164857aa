"""Compiling tile IR to a GPU binary in process, through mlirTileCompile."""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

from . import _ffi
from ._ffi import check
from .errors import CompileError, DisassemblerError
from .info import KernelDesc, KernelInfo, kernel_info
from .inspection import InstructionMix, count_instructions, disassemble

_FORMATS = {"cubin": _ffi.MLIR_TILE_OUTPUT_CUBIN,
            "ptx": _ffi.MLIR_TILE_OUTPUT_PTX}

_registered = False
_register_lock = threading.Lock()


def _register_passes() -> None:
    """mlirTileRegisterPassesAndPipelines, once per process."""
    global _registered
    if _registered:
        return
    with _register_lock:
        if not _registered:
            _ffi.capi().mlirTileRegisterPassesAndPipelines()
            _registered = True


@dataclass(frozen=True)
class KernelResources:
    """One kernel's resources: as recorded in its cubin (see
    tile_rt_kernel_resources), its kernel info's threads and dynamic shared
    memory, the planner's pipeline stages and, where the module's source is
    known (compile()), the instruction mix of its PTX and, with nvdisasm,
    of its SASS. ``spill_stores``/``spill_loads`` count the SASS's local
    stores and loads (None without SASS); ``frame_bytes`` > 0 also means
    spills or local arrays."""

    sm: int
    registers: int
    static_smem: int
    reserved_smem: int
    frame_bytes: int
    stack_bytes: int
    param_bytes: int
    barriers: int
    max_threads: tuple[int, int, int]
    threads: int | None = None
    dynamic_smem: int | None = None
    stages: int | None = None
    stage_bytes: int | None = None
    ptx_mix: InstructionMix | None = None
    sass_mix: InstructionMix | None = None
    spill_stores: int | None = None
    spill_loads: int | None = None


@dataclass(frozen=True)
class _Recipe:
    """How a Compiled was made, to compile its source again (PTX, IR)."""

    source: bytes
    chip: str
    features: str
    opt_level: int
    params: tuple
    kernels: tuple


@dataclass(frozen=True)
class Compiled:
    """What one compilation produced: the binary (cubin bytes, or PTX text
    as bytes) and the kernel info text (docs/KernelABI.md)."""

    binary: bytes
    kernel_info: str
    fmt: str = "cubin"
    chip: str = "sm_90a"
    #: Warnings and remarks the compiler emitted (errors raise instead).
    diagnostics: tuple[str, ...] = field(default=(), compare=False)
    _recipe: _Recipe | None = field(default=None, compare=False, repr=False)
    _memo: dict = field(default_factory=dict, compare=False, repr=False)

    def _again(self, what: str) -> _Recipe:
        if self._recipe is None:
            raise ValueError(f"{what} needs the module's source; this was "
                             "loaded from files (compile() keeps it)")
        return self._recipe

    @property
    def ptx(self) -> str:
        """The PTX text: the binary itself for fmt="ptx", else the same
        source and options compiled again to PTX (once)."""
        if self.fmt == "ptx":
            return self.binary.decode()
        if "ptx" not in self._memo:
            r = self._again("PTX of a cubin")
            self._memo["ptx"] = compile(
                r.source, r.chip, r.features, r.opt_level, "ptx",
                dict(r.params), list(r.kernels)).binary.decode()
        return self._memo["ptx"]

    def ir(self, after: str = "all") -> str:
        """The IR after pass `after` of the compile pipeline (its argument,
        e.g. "tile-infer-layouts" or "convert-gpu-to-nvvm"), or after every
        pass ("all"), each dump headed ``// -----// IR Dump After ...``.
        CompileError lists the pipeline's passes when none is `after`."""
        r = self._again("the IR")
        return _print_ir(r, after)

    def sass(self) -> str:
        """The SASS of the cubin (``nvdisasm -c``; each kernel in section
        ``.text.<kernel>``). DisassemblerError says why there is none."""
        if self.fmt != "cubin":
            raise ValueError("SASS is disassembled from a cubin; this is PTX")
        if "sass" not in self._memo:
            self._memo["sass"] = disassemble(self.binary)
        return self._memo["sass"]

    def kernels(self) -> list[KernelDesc]:
        """The kernel records, parsed by the runtime."""
        return kernel_info(self.kernel_info)

    def kernel(self, name: str) -> KernelDesc:
        """The record of kernel `name` (NotFoundError lists the others)."""
        return KernelInfo(self.kernel_info).find(name)

    def resources(self, name: str) -> KernelResources:
        """What kernel `name` uses, without a GPU: what ptxas gave it
        (registers, static shared memory, stack...) read from the cubin by
        the runtime; threads and dynamic shared memory from its kernel info;
        and, where the source is known, the pipeline stages and the PTX's
        instruction mix, and the SASS's where nvdisasm is found."""
        if self.fmt != "cubin":
            raise ValueError("resources are read from a cubin; this is PTX")
        lib = _ffi.rt()
        if not _ffi.rt_has("tile_rt_cubin_kernel_resources"):
            raise NotImplementedError("this libtile_rt.so has no "
                                      "tile_rt_cubin_kernel_resources")
        r = _ffi.tile_rt_kernel_resources()
        check(lib.tile_rt_cubin_kernel_resources(
            ctypes.byref(r), self.binary, len(self.binary), name.encode()))
        desc = self.kernel(name)
        extra = {"threads": desc.block[0] * desc.block[1] * desc.block[2],
                 "dynamic_smem": desc.smem}
        if self._recipe is not None:
            r0 = self._recipe
            planned = {p.name: p for p in estimate(
                r0.source, r0.chip, dict(r0.params), list(r0.kernels))}
            if name in planned:
                extra["stages"] = planned[name].stages
                extra["stage_bytes"] = planned[name].stage_bytes
            extra["ptx_mix"] = count_instructions(self.ptx, name, "ptx")
        try:
            sass = count_instructions(self.sass(), name, "sass")
            extra.update(sass_mix=sass, spill_stores=sass.local_stores,
                         spill_loads=sass.local_loads)
        except DisassemblerError:
            pass
        return KernelResources(r.sm, r.registers, r.static_smem,
                               r.reserved_smem, r.frame_bytes, r.stack_bytes,
                               r.param_bytes, r.barriers,
                               tuple(r.max_threads), **extra)

    def save(self, stem: str | os.PathLike) -> tuple[Path, Path]:
        """Writes ``<stem>.cubin`` (or ``.ptx``) and ``<stem>.kinfo``, the
        files ``tile-run --no-compile --image F --kinfo F`` loads."""
        stem = Path(stem)
        image = stem.with_name(stem.name + "." + self.fmt)
        kinfo = stem.with_name(stem.name + ".kinfo")
        image.write_bytes(self.binary)
        kinfo.write_text(self.kernel_info)
        return image, kinfo

    @classmethod
    def load(cls, image: str | os.PathLike,
             kinfo: str | os.PathLike) -> Compiled:
        """Reads a binary and its kernel info back from files."""
        data = Path(image).read_bytes()
        fmt = "ptx" if not data.startswith(b"\x7fELF") else "cubin"
        return cls(data, Path(kinfo).read_text(), fmt)


class _Diagnostics:
    """An MLIR diagnostic handler that collects formatted diagnostics."""

    _LOC = re.compile(r'^loc\("(.*)":(\d+):(\d+)(?: to .*)?\)$')

    def __init__(self) -> None:
        self.entries: list[tuple[str, str]] = []  # (severity, text)
        self.callback = _ffi.MlirDiagnosticHandler(self._handle)

    @staticmethod
    def _print(fn, obj) -> str:
        chunks: list[bytes] = []
        cb = _ffi.MlirStringCallback(
            lambda ref, _: chunks.append(_ffi.string_ref_bytes(ref)))
        fn(obj, cb, None)
        return b"".join(chunks).decode("utf-8", "replace")

    def _format(self, diag, indent: str) -> str:
        lib = _ffi.capi()
        severity = _ffi.MLIR_DIAGNOSTIC_SEVERITY.get(
            lib.mlirDiagnosticGetSeverity(diag), "error")
        loc = self._print(lib.mlirLocationPrint,
                          lib.mlirDiagnosticGetLocation(diag))
        m = self._LOC.match(loc)
        if m:
            loc = f"{m.group(1)}:{m.group(2)}:{m.group(3)}"
        elif loc == "loc(unknown)":
            loc = ""
        text = self._print(lib.mlirDiagnosticPrint, diag).rstrip()
        lines = [f"{indent}{loc + ': ' if loc else ''}{severity}: {text}"]
        for i in range(lib.mlirDiagnosticGetNumNotes(diag)):
            note = lib.mlirDiagnosticGetNote(diag, i)
            # The context attaches the whole failing op (often the entire
            # module) as a note; the C API cannot turn that off.
            if self._print(lib.mlirDiagnosticPrint, note).startswith(
                    "see current operation:"):
                continue
            lines.append(self._format(note, indent + "  "))
        return "\n".join(lines)

    def _handle(self, diag, _user) -> int:
        try:
            severity = _ffi.MLIR_DIAGNOSTIC_SEVERITY.get(
                _ffi.capi().mlirDiagnosticGetSeverity(diag), "error")
            self.entries.append((severity, self._format(diag, "")))
        except Exception as e:  # never let an exception cross into C
            self.entries.append(("error", f"<unprintable diagnostic: {e}>"))
        return 1  # success: handled, nothing printed to stderr

    def all(self) -> tuple[str, ...]:
        return tuple(text for _, text in self.entries)

    def non_errors(self) -> tuple[str, ...]:
        return tuple(t for s, t in self.entries if s != "error")


def _source(source) -> tuple[bytes | None, Path | None]:
    """(text, None) or (None, path) for what compile() was given."""
    if isinstance(source, os.PathLike):
        return None, Path(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), None
    if not isinstance(source, str):
        raise TypeError("compile() takes MLIR text, a path, or bytes; got "
                        f"{type(source).__name__}")
    if "\n" not in source and "{" not in source:
        return None, Path(source)  # a one-line string is a file name
    return source.encode(), None


def binding_text(value) -> str:
    """A binding's value as the C API spells it: true/false, 128, f16."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _c_strings(values) -> "ctypes.Array":
    return (ctypes.c_char_p * len(values))(*[v.encode() for v in values])


@contextlib.contextmanager
def _parsed(source):
    """Yields (lib, module, what, diagnostics) for `source` parsed in a
    fresh context with the tile dialects, and frees both afterwards."""
    text, path = _source(source)
    if path is not None and not path.is_file():
        raise FileNotFoundError(f"no such MLIR file: '{path}'")
    lib = _ffi.capi()
    _register_passes()
    ctx = lib.mlirContextCreate()
    try:
        registry = lib.mlirDialectRegistryCreate()
        lib.mlirTileRegisterAllDialects(registry)
        lib.mlirContextAppendDialectRegistry(ctx, registry)
        lib.mlirDialectRegistryDestroy(registry)
        lib.mlirContextLoadAllAvailableDialects(ctx)
        diags = _Diagnostics()
        handler = lib.mlirContextAttachDiagnosticHandler(
            ctx, diags.callback, None, _ffi.MlirDeleteUserData())
        if path is not None:
            name = os.fsencode(path)
            module = lib.mlirTileModuleCreateParseFromFile(
                ctx, _ffi.string_ref(name))
            what = f"'{path}'"
        else:
            module = lib.mlirTileModuleCreateParse(ctx, _ffi.string_ref(text))
            what = "the MLIR text"
        if not module.ptr:
            raise CompileError(f"cannot parse {what}", diags.all())
        try:
            yield lib, module, what, diags
        finally:
            lib.mlirModuleDestroy(module)
        lib.mlirContextDetachDiagnosticHandler(ctx, handler)
    finally:
        lib.mlirContextDestroy(ctx)


def _options(lib, chip, features, opt_level, fmt, params, kernels):
    """MlirTileCompileOptions, and the arrays it points to (keep them alive
    while it is used)."""
    options = _ffi.MlirTileCompileOptions()
    lib.mlirTileCompileOptionsInitDefault(ctypes.byref(options))
    options.chip = chip.encode()
    options.features = features.encode()
    options.optLevel = int(opt_level)
    options.format = _FORMATS[fmt]
    bindings = _c_strings([f"{k}={binding_text(v)}"
                           for k, v in (params or {}).items()])
    selected = _c_strings(list(kernels or []))
    options.bindings = bindings
    options.numBindings = len(bindings)
    options.kernels = selected
    options.numKernels = len(selected)
    return options, (bindings, selected)


def compile(source, chip: str = "sm_90a", features: str = "+ptx80",
            opt_level: int = 2, fmt: str = "cubin", params=None,
            kernels=None, cache_dir: str | os.PathLike | None = None
            ) -> Compiled:
    """Compiles every ``tile.kernel`` of a module to a cubin or PTX.

    `params` binds the parameters of parametric kernels (a mapping of
    names to ints, bools or type names such as ``"bf16"``); `kernels`, a
    list of kernel or instance names, compiles only those. A binding that
    a kernel refuses raises CompileError naming the parameter. With
    `cache_dir`, through the compile cache in that directory
    (mlirTileCompileCached, docs/Tuning.md): a hit compiles nothing.

    `source` is MLIR text (str or bytes) or the path of a .mlir file (a
    ``os.PathLike``, or a one-line str). Diagnostics are captured: a module
    that does not parse or lower raises CompileError carrying them, and
    warnings of a successful compilation end up in ``Compiled.diagnostics``.
    A cubin needs the CUDA toolkit's ptxas (under $CUDA_HOME, else the
    LLVM build's default CUDA path, else on PATH).
    """
    if fmt not in _FORMATS:
        raise ValueError(f"fmt must be 'cubin' or 'ptx', got {fmt!r}")
    if not 0 <= int(opt_level) <= 3:
        raise ValueError(f"opt_level must be 0..3, got {opt_level}")
    # What .ptx, .ir() and .resources() compile again: the text compiled
    # now, not a path whose file may change.
    text, path = _source(source)
    if path is not None and path.is_file():
        text = path.read_bytes()
    with _parsed(source) as (lib, module, what, diags):
        options, _keep = _options(lib, chip, features, opt_level, fmt,
                                  params, kernels)
        binary: list[bytes] = []
        info: list[bytes] = []
        on_binary = _ffi.MlirStringCallback(
            lambda ref, _: binary.append(_ffi.string_ref_bytes(ref)))
        on_info = _ffi.MlirStringCallback(
            lambda ref, _: info.append(_ffi.string_ref_bytes(ref)))
        if cache_dir is None:
            result = lib.mlirTileCompile(module, ctypes.byref(options),
                                         on_binary, on_info, None)
        else:
            result = lib.mlirTileCompileCached(
                module, ctypes.byref(options), os.fsencode(cache_dir),
                on_binary, on_info, None, None)
        if not result.value:
            raise CompileError(f"cannot compile {what} for {chip}",
                               diags.all() or
                               ("(no diagnostics were emitted)",))
    recipe = _Recipe(text, chip, features, int(opt_level),
                     tuple((params or {}).items()), tuple(kernels or ()))
    return Compiled(b"".join(binary), b"".join(info).decode(), fmt, chip,
                    diags.non_errors(), recipe)


def _print_ir(recipe: _Recipe, after: str) -> str:
    """mlirTileCompilePrintIR of `recipe`'s source and options."""
    with _parsed(recipe.source) as (lib, module, what, diags):
        options, _keep = _options(lib, recipe.chip, recipe.features,
                                  recipe.opt_level, "cubin",
                                  dict(recipe.params), list(recipe.kernels))
        chunks: list[bytes] = []
        on_text = _ffi.MlirStringCallback(
            lambda ref, _: chunks.append(_ffi.string_ref_bytes(ref)))
        result = lib.mlirTileCompilePrintIR(module, ctypes.byref(options),
                                            after.encode(), on_text, None)
        if not result.value:
            raise CompileError(f"cannot print the IR of {what} after "
                               f"{after!r}", diags.all() or
                               ("(no diagnostics were emitted)",))
    return b"".join(chunks).decode()


@dataclass(frozen=True)
class PlannedResources:
    """What a specialised kernel needs, planned before any lowering
    (mlirTileEstimateResources): dynamic shared memory with every pipeline
    stage, threads per block, the grid rule, the deepest pipeline's stages
    and what one stage of the pipelined tiles takes."""

    name: str
    shared_bytes: int
    threads: int
    grid: str
    stages: int = 1
    stage_bytes: int = 0
    pipelined_bytes: int = 0


def estimate(source, chip: str = "sm_90a", params=None,
             kernels=None) -> list[PlannedResources]:
    """Specialises the kernels of `source` (`params`, `kernels` as for
    compile) and plans each for `chip` without lowering it: no LLVM, no
    ptxas. A binding refused, or a kernel over the chip's shared memory,
    raises CompileError with the diagnostics (the bindings in a note)."""
    with _parsed(source) as (lib, module, what, diags):
        options, _keep = _options(lib, chip, "+ptx80", 3, "cubin", params,
                                  kernels)
        lines: list[bytes] = []
        on_text = _ffi.MlirStringCallback(
            lambda ref, _: lines.append(_ffi.string_ref_bytes(ref)))
        result = lib.mlirTileEstimateResources(module, ctypes.byref(options),
                                               on_text, None)
        if not result.value:
            raise CompileError(f"cannot plan {what} for {chip}",
                               diags.all() or
                               ("(no diagnostics were emitted)",))
    planned = []
    for line in b"".join(lines).decode().splitlines():
        # kernel <name> shared <bytes> stages <s> stage_bytes <b>
        #   pipelined_bytes <p> threads <n> grid <rule>
        (_, name, _, shared, _, stages, _, stage_bytes, _, pipelined, _,
         threads, _, grid) = line.split(" ", 13)
        planned.append(PlannedResources(name, int(shared), int(threads),
                                        grid, int(stages), int(stage_bytes),
                                        int(pipelined)))
    return planned
