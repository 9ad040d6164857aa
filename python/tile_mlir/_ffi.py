"""Every ctypes declaration of tile_mlir, and nothing else.

Two libraries, each loaded on first use:

- ``libTileCAPI.so``: the tile C API (include/tile-c) plus the upstream MLIR
  C API entry points it exports (mlir-c/IR.h, mlir-c/Diagnostics.h);
- ``libtile_rt.so``: the runtime (include/tile-rt/tile_rt.h).

They are looked up in ``$TILE_MLIR_LIB_DIR`` (a directory, or several joined
with ``os.pathsep``) when it is set, else in ``$TILE_BUILD_DIR/lib``, the
directory recorded when the package was installed with pip (where
``cmake --install`` put the libraries, see python/setup.py), ``<repo>/build/lib``
when running from a checkout (where tools/build.sh puts them),
``/usr/local/lib`` and ``/usr/lib``, else by the system loader
(``LD_LIBRARY_PATH``). libTileCAPI.so needs libMLIR.so.22.1 and
libLLVM.so.22.1: installed, it finds them through its RUNPATH; from a build
directory, through the loader's path.

The declarations mirror the C headers one to one; :func:`check` turns a
``tile_rt_status`` into the matching exception of :mod:`tile_mlir.errors`.
"""

from __future__ import annotations

import ctypes
import os
import threading
from ctypes import (CFUNCTYPE, POINTER, Structure, Union, c_char, c_char_p,
                    c_double, c_float, c_int, c_int8, c_int32, c_int64,
                    c_size_t, c_ssize_t, c_uint8, c_uint16, c_uint32,
                    c_uint64, c_void_p)
from pathlib import Path

from . import errors

# ===--------------------------------------------------------------------=== #
# Finding the libraries
# ===--------------------------------------------------------------------=== #

CAPI_LIBRARY = "libTileCAPI.so"
RT_LIBRARY = "libtile_rt.so"
TUNE_LIBRARY = "libtile_tune.so"

_REPO_ROOT = Path(__file__).resolve().parents[2]
STANDARD_LIBRARY_DIRS = (Path("/usr/local/lib"), Path("/usr/lib"))

try:  # Written by python/setup.py when the package is built for installing.
    from ._installed import LIBRARY_DIR as _INSTALLED_LIBRARY_DIR
    _INSTALLED = True
except ImportError:  # Running from a checkout (PYTHONPATH=python).
    _INSTALLED_LIBRARY_DIR = None
    _INSTALLED = False


def library_dirs() -> list[Path]:
    """The directories searched for the libraries, in order (the system
    loader comes after them unless ``$TILE_MLIR_LIB_DIR`` is set)."""
    explicit = os.environ.get("TILE_MLIR_LIB_DIR")
    if explicit:
        return [Path(d) for d in explicit.split(os.pathsep) if d]
    dirs = []
    build = os.environ.get("TILE_BUILD_DIR")
    if build:
        dirs.append(Path(build) / "lib")
    if _INSTALLED_LIBRARY_DIR:
        dirs.append(Path(_INSTALLED_LIBRARY_DIR))
    if not _INSTALLED:
        dirs.append(_REPO_ROOT / "build" / "lib")
    dirs.extend(d for d in STANDARD_LIBRARY_DIRS if d not in dirs)
    return dirs


def loaded_libraries() -> dict[str, str]:
    """The libraries loaded so far: file name -> the path loaded (the bare
    name when the system loader found it)."""
    with _lock:
        return {name: _loaded_from[name] for name in _libs}


def _load(name: str) -> ctypes.CDLL:
    tried = []
    for d in library_dirs():
        path = d / name
        if path.is_file():
            try:
                lib = ctypes.CDLL(str(path))
                _loaded_from[name] = str(path)
                return lib
            except OSError as e:
                hint = ""
                if "libMLIR" in str(e) or "libLLVM" in str(e):
                    hint = (" (put the directory holding libMLIR.so.22.1 and "
                            "libLLVM.so.22.1 on LD_LIBRARY_PATH before "
                            "starting Python)")
                raise errors.LibraryNotFoundError(
                    f"cannot load {path}: {e}{hint}") from None
        tried.append(str(path))
    if not os.environ.get("TILE_MLIR_LIB_DIR"):
        try:
            lib = ctypes.CDLL(name)  # the system loader: LD_LIBRARY_PATH
            _loaded_from[name] = name
            return lib
        except OSError as e:
            tried.append(f"{name} via the system loader ({e})")
    raise errors.LibraryNotFoundError(
        f"cannot find {name}; looked for " + ", ".join(tried) +
        ". Build it with tools/build.sh or set TILE_MLIR_LIB_DIR to the "
        "directory holding it")


def _declare(lib: ctypes.CDLL, table, optional=()) -> None:
    for name, restype, argtypes in table:
        if name in optional and not hasattr(lib, name):
            continue
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


_lock = threading.Lock()
_libs: dict[str, ctypes.CDLL] = {}
_loaded_from: dict[str, str] = {}


def _get(name: str, declare) -> ctypes.CDLL:
    lib = _libs.get(name)
    if lib is None:
        with _lock:
            lib = _libs.get(name)
            if lib is None:
                lib = _load(name)
                declare(lib)
                _libs[name] = lib
    return lib


# ===--------------------------------------------------------------------=== #
# MLIR C API (mlir-c/Support.h, IR.h, Diagnostics.h) and tile-c
# ===--------------------------------------------------------------------=== #


class MlirStringRef(Structure):
    _fields_ = [("data", c_void_p), ("length", c_size_t)]


def _opaque(name: str):
    return type(name, (Structure,), {"_fields_": [("ptr", c_void_p)]})


MlirContext = _opaque("MlirContext")
MlirDialectRegistry = _opaque("MlirDialectRegistry")
MlirModule = _opaque("MlirModule")
MlirLocation = _opaque("MlirLocation")
MlirDiagnostic = _opaque("MlirDiagnostic")


class MlirLogicalResult(Structure):
    _fields_ = [("value", c_int8)]


MlirStringCallback = CFUNCTYPE(None, MlirStringRef, c_void_p)
# MlirDiagnosticHandler returns MlirLogicalResult, a struct of one int8_t:
# ctypes cannot return a structure from a callback, but the ABIs (x86-64
# SysV, AArch64) return that struct exactly as an int8_t.
MlirDiagnosticHandler = CFUNCTYPE(c_int8, MlirDiagnostic, c_void_p)
MlirDeleteUserData = CFUNCTYPE(None, c_void_p)

# enum MlirDiagnosticSeverity
MLIR_DIAGNOSTIC_SEVERITY = {0: "error", 1: "warning", 2: "note", 3: "remark"}

# enum MlirTileOutputFormat
MLIR_TILE_OUTPUT_CUBIN = 0
MLIR_TILE_OUTPUT_PTX = 1


class MlirTileCompileOptions(Structure):
    _fields_ = [("chip", c_char_p), ("features", c_char_p),
                ("optLevel", c_int), ("format", c_int),
                ("bindings", POINTER(c_char_p)), ("numBindings", c_size_t),
                ("kernels", POINTER(c_char_p)), ("numKernels", c_size_t)]


# enum MlirTileAssembly
MLIR_TILE_ASSEMBLY_PTX = 0
MLIR_TILE_ASSEMBLY_SASS = 1

#: The fields of MlirTileInstructionMix, in order (include/tile-c/Inspect.h).
INSTRUCTION_MIX_FIELDS = (
    "total", "wgmma", "mma", "tma", "mbarrier", "barrier", "shuffle",
    "localLoads", "localStores", "globalLoads", "globalStores",
    "sharedLoads", "sharedStores")


class MlirTileInstructionMix(Structure):
    _fields_ = [(name, ctypes.c_int64) for name in INSTRUCTION_MIX_FIELDS]


# include/tile-c/Tune.h
class MlirTileCandidate(Structure):
    _fields_ = [("config", MlirStringRef), ("status", c_int),
                ("statusName", MlirStringRef), ("message", MlirStringRef),
                ("sharedBytes", c_int64), ("threads", c_int64)]


class MlirTileTuningLimits(Structure):
    _fields_ = [("sharedBytes", c_int64), ("threads", c_int64)]


MlirTileCandidateCallback = CFUNCTYPE(None, POINTER(MlirTileCandidate),
                                      c_void_p)


# include/tile-c/Cache.h
class MlirTileCacheComponent(Structure):
    _fields_ = [("name", MlirStringRef), ("value", MlirStringRef)]


class MlirTileCacheBlob(Structure):
    _fields_ = [("name", MlirStringRef), ("data", MlirStringRef)]


MlirTileCacheBlobCallback = CFUNCTYPE(None, MlirStringRef, MlirStringRef,
                                      c_void_p)

# enum MlirTileCacheResult
MLIR_TILE_CACHE_MISS = 0
MLIR_TILE_CACHE_HIT = 1
MLIR_TILE_CACHE_CORRUPT = 2

_CAPI = [
    ("mlirContextCreate", MlirContext, []),
    ("mlirContextDestroy", None, [MlirContext]),
    ("mlirContextAppendDialectRegistry", None,
     [MlirContext, MlirDialectRegistry]),
    ("mlirContextLoadAllAvailableDialects", None, [MlirContext]),
    ("mlirDialectRegistryCreate", MlirDialectRegistry, []),
    ("mlirDialectRegistryDestroy", None, [MlirDialectRegistry]),
    ("mlirTileModuleCreateParse", MlirModule, [MlirContext, MlirStringRef]),
    ("mlirTileModuleCreateParseFromFile", MlirModule,
     [MlirContext, MlirStringRef]),
    ("mlirModuleDestroy", None, [MlirModule]),
    ("mlirContextAttachDiagnosticHandler", c_uint64,
     [MlirContext, MlirDiagnosticHandler, c_void_p, MlirDeleteUserData]),
    ("mlirContextDetachDiagnosticHandler", None, [MlirContext, c_uint64]),
    ("mlirDiagnosticPrint", None,
     [MlirDiagnostic, MlirStringCallback, c_void_p]),
    ("mlirDiagnosticGetLocation", MlirLocation, [MlirDiagnostic]),
    ("mlirDiagnosticGetSeverity", c_int, [MlirDiagnostic]),
    ("mlirDiagnosticGetNumNotes", c_ssize_t, [MlirDiagnostic]),
    ("mlirDiagnosticGetNote", MlirDiagnostic, [MlirDiagnostic, c_ssize_t]),
    ("mlirLocationPrint", None, [MlirLocation, MlirStringCallback, c_void_p]),
    ("mlirTileRegisterAllDialects", None, [MlirDialectRegistry]),
    ("mlirTileRegisterPassesAndPipelines", None, []),
    ("mlirTileCompileOptionsInitDefault", None,
     [POINTER(MlirTileCompileOptions)]),
    ("mlirTileCompile", MlirLogicalResult,
     [MlirModule, POINTER(MlirTileCompileOptions), MlirStringCallback,
      MlirStringCallback, c_void_p]),
    ("mlirTileCompileCached", MlirLogicalResult,
     [MlirModule, POINTER(MlirTileCompileOptions), c_char_p,
      MlirStringCallback, MlirStringCallback, c_void_p,
      POINTER(ctypes.c_bool)]),
    ("mlirTileEnumerateCandidates", MlirLogicalResult,
     [MlirModule, MlirStringRef, POINTER(MlirTileCompileOptions),
      POINTER(c_char_p), c_size_t, MlirStringRef,
      POINTER(MlirTileTuningLimits), MlirStringCallback,
      MlirTileCandidateCallback, c_void_p]),
    ("mlirTileCacheGetDefaultDirectory", None,
     [MlirStringCallback, c_void_p]),
    ("mlirTileCacheGetCompilerBuildId", None, [MlirStringCallback, c_void_p]),
    ("mlirTileCacheComputeKey", None,
     [MlirStringRef, POINTER(MlirTileCacheComponent), c_size_t,
      MlirStringCallback, c_void_p]),
    ("mlirTileCacheStore", MlirLogicalResult,
     [MlirStringRef, MlirStringRef, POINTER(MlirTileCacheComponent),
      c_size_t, MlirStringRef, POINTER(MlirTileCacheBlob), c_size_t,
      MlirStringCallback, c_void_p]),
    ("mlirTileCacheLoad", c_int,
     [MlirStringRef, MlirStringRef, POINTER(MlirTileCacheComponent),
      c_size_t, MlirStringCallback, MlirTileCacheBlobCallback,
      MlirStringCallback, c_void_p]),
    ("mlirTileEstimateResources", MlirLogicalResult,
     [MlirModule, POINTER(MlirTileCompileOptions), MlirStringCallback,
      c_void_p]),
    ("mlirTileCompilePrintIR", MlirLogicalResult,
     [MlirModule, POINTER(MlirTileCompileOptions), c_char_p,
      MlirStringCallback, c_void_p]),
    ("mlirTileFindDisassembler", MlirLogicalResult,
     [MlirStringCallback, c_void_p]),
    ("mlirTileDisassemble", MlirLogicalResult,
     [MlirStringRef, MlirStringCallback, c_void_p]),
    ("mlirTileCountInstructions", MlirLogicalResult,
     [MlirStringRef, c_int, MlirStringRef,
      POINTER(MlirTileInstructionMix)]),
]


def capi() -> ctypes.CDLL:
    """libTileCAPI.so, loaded and declared."""
    return _get(CAPI_LIBRARY, lambda lib: _declare(lib, _CAPI))


def string_ref(data: bytes) -> MlirStringRef:
    """An MlirStringRef over `data` (which the caller keeps alive)."""
    return MlirStringRef(ctypes.cast(c_char_p(data), c_void_p), len(data))


def string_ref_bytes(ref: MlirStringRef) -> bytes:
    return ctypes.string_at(ref.data, ref.length) if ref.length else b""


# ===--------------------------------------------------------------------=== #
# tile_rt (include/tile-rt/tile_rt.h)
# ===--------------------------------------------------------------------=== #

# enum tile_rt_status
TILE_RT_SUCCESS = 0
TILE_RT_ERROR_NO_DRIVER = 1
TILE_RT_ERROR_NO_DEVICE = 2
TILE_RT_ERROR_CUDA = 3
TILE_RT_ERROR_INVALID_ARGUMENT = 4
TILE_RT_ERROR_PARSE = 5
TILE_RT_ERROR_NOT_FOUND = 6
TILE_RT_ERROR_IO = 7
TILE_RT_ERROR_OUT_OF_MEMORY = 8
TILE_RT_ERROR_UNSUPPORTED = 9
TILE_RT_ERROR_TIMEOUT = 10

# enum tile_rt_dtype
TILE_RT_F16 = 0
TILE_RT_BF16 = 1
TILE_RT_F32 = 2
TILE_RT_F64 = 3
TILE_RT_I8 = 4
TILE_RT_I16 = 5
TILE_RT_I32 = 6
TILE_RT_I64 = 7

# enum tile_rt_param_kind
TILE_RT_PARAM_MEMREF = 0
TILE_RT_PARAM_SCALAR = 1
TILE_RT_PARAM_TENSORMAP = 2

# enum tile_rt_access
TILE_RT_ACCESS_UNKNOWN = 0
TILE_RT_ACCESS_READ = 1
TILE_RT_ACCESS_WRITE = 2
TILE_RT_ACCESS_READWRITE = 3

# enum tile_rt_arg_kind
TILE_RT_ARG_MEMREF = 0
TILE_RT_ARG_I32 = 1
TILE_RT_ARG_I64 = 2
TILE_RT_ARG_F32 = 3

TILE_RT_MAX_RANK = 5
TILE_RT_MAX_PARAMS = 64
TILE_RT_MAX_NAME = 255

tile_rt_status = c_int
tile_rt_dtype = c_int
tile_rt_access = c_int
tile_rt_deviceptr = c_uint64


TILE_RT_MAX_ARG_NAME = 63


class tile_rt_param_desc(Structure):
    _fields_ = [("kind", c_int), ("arg", c_int), ("dtype", tile_rt_dtype),
                ("rank", c_int), ("box", c_uint32 * TILE_RT_MAX_RANK),
                ("swizzle", c_int), ("access", tile_rt_access),
                ("name", c_char * (TILE_RT_MAX_ARG_NAME + 1))]


class tile_rt_grid_rule(Structure):
    _fields_ = [("present", c_int), ("arg", c_int), ("dim", c_int),
                ("tile", c_int64)]


TILE_RT_MAX_CONTRACT_TERMS = 24


class tile_rt_contract_term(Structure):
    _fields_ = [("kind", c_int), ("arg", c_int), ("dim", c_int),
                ("value", c_int64)]


class tile_rt_contract(Structure):
    _fields_ = [("arg", c_int), ("dim", c_int), ("relation", c_int),
                ("bound_arg", c_int), ("bound_dim", c_int),
                ("bound", c_int64),
                ("arg_name", c_char * (TILE_RT_MAX_ARG_NAME + 1)),
                ("bound_name", c_char * (TILE_RT_MAX_ARG_NAME + 1)),
                ("nlhs", c_int), ("nterms", c_int),
                ("terms", tile_rt_contract_term * TILE_RT_MAX_CONTRACT_TERMS)]


class tile_rt_kernel_desc(Structure):
    _fields_ = [("name", c_char_p), ("block", c_uint32 * 3),
                ("smem", c_uint32), ("grid", tile_rt_grid_rule * 3),
                ("nargs", c_int), ("nparams", c_int),
                ("params", POINTER(tile_rt_param_desc)),
                ("ncontracts", c_int),
                ("contracts", POINTER(tile_rt_contract)),
                ("cluster", c_uint32 * 3)]


class tile_rt_memref(Structure):
    _fields_ = [("dtype", tile_rt_dtype), ("rank", c_int),
                ("ptr", tile_rt_deviceptr),
                ("sizes", c_int64 * TILE_RT_MAX_RANK),
                ("strides", c_int64 * TILE_RT_MAX_RANK)]


class _tile_rt_arg_u(Union):
    _fields_ = [("memref", tile_rt_memref), ("i32", c_int32),
                ("i64", c_int64), ("f32", c_float)]


class tile_rt_arg(Structure):
    _fields_ = [("kind", c_int), ("u", _tile_rt_arg_u)]


class tile_rt_device_info(Structure):
    _fields_ = [("name", c_char * 256), ("ordinal", c_int),
                ("cc_major", c_int), ("cc_minor", c_int),
                ("sm_count", c_int), ("max_smem_optin", c_int),
                ("max_threads_per_block", c_int), ("l2_bytes", c_int),
                ("clock_khz", c_int), ("total_memory", c_size_t),
                ("driver_version", c_int)]


class tile_rt_kernel_attrs(Structure):
    _fields_ = [("registers", c_int), ("static_smem", c_int),
                ("local_bytes", c_int), ("const_bytes", c_int),
                ("max_threads_per_block", c_int),
                ("max_dynamic_smem", c_int), ("ptx_version", c_int),
                ("binary_version", c_int)]


class tile_rt_kernel_resources(Structure):
    _fields_ = [("sm", c_int), ("registers", c_int),
                ("static_smem", c_uint32), ("reserved_smem", c_uint32),
                ("frame_bytes", c_uint32), ("stack_bytes", c_uint32),
                ("param_bytes", c_uint32), ("barriers", c_int),
                ("max_threads", c_uint32 * 3)]


_p = POINTER
_vp = c_void_p
_pvp = _p(c_void_p)

_RT = [
    ("tile_rt_status_name", c_char_p, [tile_rt_status]),
    ("tile_rt_last_error", c_char_p, []),
    ("tile_rt_dtype_size", c_size_t, [tile_rt_dtype]),
    ("tile_rt_dtype_name", c_char_p, [tile_rt_dtype]),
    ("tile_rt_dtype_from_name", tile_rt_status,
     [_p(tile_rt_dtype), c_char_p]),
    # Kernel info.
    ("tile_rt_kernel_info_parse", tile_rt_status, [_pvp, c_char_p, c_size_t]),
    ("tile_rt_kernel_info_free", tile_rt_status, [_vp]),
    ("tile_rt_kernel_info_count", tile_rt_status, [_p(c_int), _vp]),
    ("tile_rt_kernel_info_get", tile_rt_status,
     [_p(_p(tile_rt_kernel_desc)), _vp, c_int]),
    ("tile_rt_kernel_info_find", tile_rt_status,
     [_p(_p(tile_rt_kernel_desc)), _vp, c_char_p]),
    # Cubin resources (newer runtimes only).
    ("tile_rt_cubin_kernel_resources", tile_rt_status,
     [_p(tile_rt_kernel_resources), c_char_p, c_size_t, c_char_p]),
    # Arguments.
    ("tile_rt_arg_memref", tile_rt_status,
     [_p(tile_rt_arg), tile_rt_dtype, tile_rt_deviceptr, c_int, _p(c_int64),
      _p(c_int64)]),
    ("tile_rt_arg_i32", tile_rt_status, [_p(tile_rt_arg), c_int32]),
    ("tile_rt_arg_i64", tile_rt_status, [_p(tile_rt_arg), c_int64]),
    ("tile_rt_arg_f32", tile_rt_status, [_p(tile_rt_arg), c_float]),
    ("tile_rt_kernel_desc_check_args", tile_rt_status,
     [_p(tile_rt_kernel_desc), _p(tile_rt_arg), c_int]),
    ("tile_rt_contract_format", None,
     [ctypes.c_char_p, c_size_t, _p(tile_rt_kernel_desc), c_int]),
    ("tile_rt_kernel_desc_grid", tile_rt_status,
     [_p(c_uint32), _p(tile_rt_kernel_desc), _p(tile_rt_arg), c_int]),
    # Context and device.
    ("tile_rt_device_count", tile_rt_status, [_p(c_int)]),
    ("tile_rt_context_create", tile_rt_status, [_pvp, c_int]),
    ("tile_rt_context_free", tile_rt_status, [_vp]),
    ("tile_rt_context_device_info", tile_rt_status,
     [_p(tile_rt_device_info), _vp]),
    ("tile_rt_context_make_current", tile_rt_status, [_vp]),
    ("tile_rt_context_synchronize", tile_rt_status, [_vp, c_double]),
    # Memory.
    ("tile_rt_mem_alloc", tile_rt_status,
     [_p(tile_rt_deviceptr), _vp, c_size_t]),
    ("tile_rt_mem_free", tile_rt_status, [_vp, tile_rt_deviceptr]),
    ("tile_rt_mem_htod", tile_rt_status,
     [_vp, tile_rt_deviceptr, _vp, c_size_t]),
    ("tile_rt_mem_dtoh", tile_rt_status,
     [_vp, _vp, tile_rt_deviceptr, c_size_t]),
    ("tile_rt_mem_dtod", tile_rt_status,
     [_vp, tile_rt_deviceptr, tile_rt_deviceptr, c_size_t]),
    ("tile_rt_mem_set8", tile_rt_status,
     [_vp, tile_rt_deviceptr, c_uint8, c_size_t]),
    ("tile_rt_mem_set16", tile_rt_status,
     [_vp, tile_rt_deviceptr, c_uint16, c_size_t]),
    ("tile_rt_mem_set32", tile_rt_status,
     [_vp, tile_rt_deviceptr, c_uint32, c_size_t]),
    # Streams and events.
    ("tile_rt_stream_create", tile_rt_status, [_pvp, _vp]),
    ("tile_rt_stream_free", tile_rt_status, [_vp]),
    ("tile_rt_stream_native", tile_rt_status, [_pvp, _vp]),
    ("tile_rt_stream_wrap", tile_rt_status, [_pvp, _vp, _vp]),
    ("tile_rt_stream_is_capturing", tile_rt_status, [_p(c_int), _vp, _vp]),
    ("tile_rt_stream_synchronize", tile_rt_status, [_vp, _vp, c_double]),
    ("tile_rt_event_create", tile_rt_status, [_pvp, _vp]),
    ("tile_rt_event_free", tile_rt_status, [_vp]),
    ("tile_rt_event_record", tile_rt_status, [_vp, _vp]),
    ("tile_rt_event_synchronize", tile_rt_status, [_vp, c_double]),
    ("tile_rt_event_elapsed_ms", tile_rt_status, [_p(c_float), _vp, _vp]),
    # Modules, kernels, launches.
    ("tile_rt_module_load", tile_rt_status,
     [_pvp, _vp, c_char_p, c_size_t, c_char_p, c_size_t]),
    ("tile_rt_module_free", tile_rt_status, [_vp]),
    ("tile_rt_module_kernel_info", tile_rt_status, [_pvp, _vp]),
    ("tile_rt_module_get_kernel", tile_rt_status, [_pvp, _vp, c_char_p]),
    ("tile_rt_kernel_desc_of", tile_rt_status,
     [_p(_p(tile_rt_kernel_desc)), _vp]),
    ("tile_rt_kernel_attributes", tile_rt_status,
     [_p(tile_rt_kernel_attrs), _vp]),
    ("tile_rt_launch", tile_rt_status,
     [_vp, _p(tile_rt_arg), c_int, _vp]),
    ("tile_rt_launch_native", tile_rt_status,
     [_vp, _p(tile_rt_arg), c_int, _vp]),
]

_RT_OPTIONAL = ("tile_rt_cubin_kernel_resources",)


def rt() -> ctypes.CDLL:
    """libtile_rt.so, loaded and declared."""
    return _get(RT_LIBRARY, lambda lib: _declare(lib, _RT, _RT_OPTIONAL))


LAUNCH_MODULE = "_tile_launch.abi3.so"
_launcher_state: list = []  # [module or None], once looked for


def launcher():
    """The fast launch extension (lib/Python/tile_launch_module.c) from the
    directory libtile_rt.so was loaded from, or None where it was not built
    (or $TILE_MLIR_NO_FAST_LAUNCH is set): launches then take the general
    path."""
    if _launcher_state:
        return _launcher_state[0]
    rt()
    module = None
    rt_path = _loaded_from.get(RT_LIBRARY)
    # Beside the runtime loaded from a directory (not by the system loader).
    if not os.environ.get("TILE_MLIR_NO_FAST_LAUNCH") and rt_path and \
            os.sep in rt_path:
        path = Path(rt_path).resolve().parent / LAUNCH_MODULE
        if path.is_file():
            import importlib.machinery
            import importlib.util
            loader = importlib.machinery.ExtensionFileLoader(
                "tile_mlir._tile_launch", str(path))
            spec = importlib.util.spec_from_file_location(
                "tile_mlir._tile_launch", str(path), loader=loader)
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            with _lock:
                _loaded_from[LAUNCH_MODULE] = str(path)
                _libs[LAUNCH_MODULE] = module
    _launcher_state.append(module)
    return module


def rt_has(name: str) -> bool:
    """Whether the loaded runtime exports `name` (for newer entry points)."""
    return hasattr(rt(), name)


_STATUS_ERRORS = {
    TILE_RT_ERROR_NO_DRIVER: errors.NoDriverError,
    TILE_RT_ERROR_NO_DEVICE: errors.NoDeviceError,
    TILE_RT_ERROR_CUDA: errors.CudaError,
    TILE_RT_ERROR_INVALID_ARGUMENT: errors.InvalidArgumentError,
    TILE_RT_ERROR_PARSE: errors.ParseError,
    TILE_RT_ERROR_NOT_FOUND: errors.NotFoundError,
    TILE_RT_ERROR_IO: errors.RuntimeIOError,
    TILE_RT_ERROR_OUT_OF_MEMORY: errors.DeviceOutOfMemoryError,
    TILE_RT_ERROR_UNSUPPORTED: errors.UnsupportedError,
    TILE_RT_ERROR_TIMEOUT: errors.RuntimeTimeoutError,
}


def check(status: int) -> None:
    """Raises the exception for a failed ``tile_rt_status``, carrying
    ``tile_rt_last_error()``; returns for ``TILE_RT_SUCCESS``.

    Call it right after the failing call, on the same thread: the message is
    per thread and replaced by the next failure.
    """
    if status == TILE_RT_SUCCESS:
        return
    lib = rt()
    message = (lib.tile_rt_last_error() or b"").decode("utf-8", "replace")
    name = (lib.tile_rt_status_name(status) or b"UNKNOWN").decode()
    cls = _STATUS_ERRORS.get(status, errors.RuntimeCallError)
    raise cls(status, name, message)


# ===--------------------------------------------------------------------=== #
# The tuner (include/tile-tune/tile_tune.h)
# ===--------------------------------------------------------------------=== #

TILE_TUNE_OK = 0
TILE_TUNE_FAILED = 1
TILE_TUNE_MISS = 2


class tile_tune_options(Structure):
    _fields_ = [("source_path", c_char_p), ("kernel", c_char_p),
                ("op", c_char_p), ("m", c_int64), ("n", c_int64),
                ("k", c_int64), ("gelu_erf", c_int),
                ("params", _p(c_char_p)), ("nparams", c_int),
                ("axes", _p(c_char_p)), ("naxes", c_int),
                ("cache_dir", c_char_p), ("no_cache", c_int),
                ("retune", c_int), ("lookup_only", c_int),
                ("compile_only", c_int), ("jobs", c_int),
                ("compile_timeout_s", c_double),
                ("max_spill_bytes", c_int64), ("early_stop", c_double),
                ("iters", c_int), ("warmup", c_int), ("seed", c_uint64),
                ("timeout_s", c_double), ("smem_limit", c_int64),
                ("threads_limit", c_int64), ("verbose", c_int),
                ("quiet", c_int), ("b", c_int64), ("h", c_int64),
                ("s", c_int64), ("d", c_int64), ("causal", c_int),
                ("capture_errors", c_int), ("problem_json", c_char_p)]


class tile_tune_result(Structure):
    _fields_ = [("best", ctypes.c_char * 1024), ("best_ms", c_double),
                ("from_cache", c_int), ("seconds", c_double),
                ("key", ctypes.c_char * 65), ("image", c_void_p),
                ("image_size", c_size_t), ("kinfo", c_void_p),
                ("kinfo_size", c_size_t)]


# tile_tune_run_fn: (user, input set, CUstream) -> 0 or a failure.
tile_tune_run_fn = CFUNCTYPE(c_int, c_void_p, c_int, c_void_p)

_TUNE = [
    ("tile_tune_options_init", None, [_p(tile_tune_options)]),
    ("tile_tune_time_in_turns", c_int,
     [_vp, _vp, c_int, _p(tile_tune_run_fn), _p(tile_tune_run_fn), _pvp,
      c_int, c_int, c_int, c_double, _p(c_double)]),
    ("tile_tune_run", c_int,
     [_p(tile_tune_options), _vp, _p(tile_tune_result)]),
    ("tile_tune_result_free", None, [_p(tile_tune_result)]),
    ("tile_tune_last_error", ctypes.c_char_p, []),
]


def tune() -> ctypes.CDLL:
    """libtile_tune.so, loaded and declared (after the runtime, so that both
    share one libtile_rt.so)."""
    rt()
    return _get(TUNE_LIBRARY, lambda lib: _declare(lib, _TUNE))
