"""The autotuner from Python: libtile_tune.so (include/tile-tune/tile_tune.h).

    import tile_mlir
    with tile_mlir.Runtime(0) as rt:
        r = tile_mlir.tune("kernels/gemm.mlir", "gemm_f16", "gemm",
                           (4096, 4096, 4096), runtime=rt)
        print(r.config, r.ms, r.from_cache)
        gemm = rt.load(r.compiled).kernel("gemm_f16")

        # Given tensors: the cached best for their shapes; on a miss, tune
        # (on_miss="tune") or take the kernel's defaults (on_miss="default").
        k = tile_mlir.tuned_kernel(rt, "kernels/gemm.mlir", "gemm_f16",
                                   "gemm", a, b, c, on_miss="default")
        k.launch(a, b, c)

        # Attention: shape (B, H, S, D); causal binds the kernel's CAUSAL.
        r = tile_mlir.tune("kernels/flash_attention.mlir", "attention",
                           "attention", (8, 16, 4096, 128), causal=True,
                           params={"T": "f16"}, runtime=rt)

        # Any kernel: a problem described as data (docs/Problems.md).
        r = tile_mlir.tune("kernels/examples/rmsnorm.mlir", "rmsnorm_f16",
                           problem=json.load(open("rmsnorm.json")),
                           runtime=rt)

The tuner, its cache and its key are tile-tune's (docs/Tuning.md).
"""

from __future__ import annotations

import ctypes
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from . import _ffi
from .compiler import Compiled, binding_text, compile as _compile
from .errors import TileError

OPS = ("gemm", "gemm_bias_gelu", "softmax", "attention")
# The sizes of each operator's shape: (M, N, K), (M, N), (B, H, S, D).
_SHAPE_SIZES = {"gemm": 3, "gemm_bias_gelu": 3, "softmax": 2, "attention": 4}


class TuneError(TileError):
    """Tuning could not choose a configuration; the message says why."""


@dataclass(frozen=True)
class TuneResult:
    """What tuning chose for one problem."""
    config: str             # "BK=64 BM=128 ..."
    ms: float               # its median time
    from_cache: bool
    seconds: float          # the call's wall time
    key: str                # the tuning cache key
    compiled: Compiled      # the best configuration's cubin and kernel info

    @property
    def bindings(self) -> dict[str, int | bool]:
        """The configuration as parameter bindings."""
        return config_bindings(self.config)


def config_bindings(config: str) -> dict[str, int | bool | str]:
    """A configuration's text ("BM=128 TMA_STORE=true") as bindings: ints,
    bools, and type names as strings."""
    out: dict[str, int | bool | str] = {}
    for item in config.split():
        name, _, value = item.partition("=")
        if value in ("true", "false"):
            out[name] = value == "true"
        else:
            try:
                out[name] = int(value)
            except ValueError:
                out[name] = value
    return out


def axis_texts(space: Mapping[str, Sequence[object]] | None) -> list[str]:
    """A space override (name -> values) as the C API's axes,
    ``NAME=V1,V2``."""
    return [f"{k}=" + ",".join(binding_text(v) for v in vs)
            for k, vs in (space or {}).items()]


def candidate_times(result: TuneResult,
                    cache_dir: str | os.PathLike) -> dict[str, float]:
    """The time (ms) of every candidate that tuning `result` timed, by
    configuration, from its record in the tuning cache `cache_dir`
    (first-pass times of the candidates stopped early included): what
    the dispatch rules' gemm model is fitted to."""
    path = (Path(cache_dir) / "v1" / "tune" / result.key[:2] /
            f"{result.key}.json")
    record = json.loads(path.read_text())["record"]
    return {c["config"]: c["ms"] for c in record["candidates"]
            if "ms" in c and c.get("verdict") in ("measured", "early-stop")}


def _strings(items) -> tuple[ctypes.Array, int, list[bytes]]:
    keep = [s.encode() for s in items]
    arr = (ctypes.c_char_p * max(len(keep), 1))(*keep)
    return arr, len(keep), keep


def tune(source: str | os.PathLike, kernel: str, op: str | None = None,
         shape: Sequence[int] | None = None, *,
         problem: Mapping[str, object] | str | None = None, runtime=None,
         params: Mapping[str, object] | None = None,
         space: Mapping[str, Sequence[object]] | None = None,
         gelu: str = "tanh", causal: bool = False,
         cache_dir: str | os.PathLike | None = None,
         no_cache: bool = False, retune: bool = False,
         lookup_only: bool = False, compile_only: bool = False,
         jobs: int = 0, verbose: bool = False,
         quiet: bool = True) -> TuneResult | None:
    """Tunes `kernel` of `source` for `op` at `shape` ((M, N, K) for the
    gemms, (M, N) for softmax, (B, H, S, D) for attention) on `runtime`'s
    GPU, or reads the cached answer. `gelu` ("tanh" or "erf") is
    gemm_bias_gelu's form, `causal` whether attention masks the keys past
    each query; each binds the kernel's ERF or CAUSAL where nothing else
    does (flag_bindings). `params` fixes parameters, `space` replaces or
    adds an axis (name -> values). With `lookup_only`, a miss returns None
    instead of tuning. With `compile_only` (no runtime needed) the space is
    filtered and compiled, nothing is chosen, and None is returned.

    A kernel that is none of the operators is tuned on `problem` instead
    of `op` and `shape`: a problem description (a dict, or its JSON text;
    docs/Problems.md), its candidates checked against its "reference"
    kernel or the kernel's default configuration."""
    if problem is not None:
        if op not in (None, "problem") or shape is not None:
            raise ValueError("problem= says the whole problem: no op or "
                             "shape with it")
        op, shape, want = "problem", (), 0
    elif op not in OPS:
        raise ValueError(f"op must be one of {OPS}, got {op!r} (a kernel of "
                         "yours: problem=)")
    else:
        want = _SHAPE_SIZES[op]
        if shape is None or len(shape) != want:
            raise ValueError(f"{op} takes a shape of {want} sizes, got "
                             f"{shape}")
    if causal and op != "attention":
        raise ValueError(f"causal is attention's, not {op}'s")
    if runtime is None and not compile_only:
        raise ValueError("tuning measures on a GPU: pass runtime=")
    if gelu not in ("tanh", "erf"):
        raise ValueError(f"gelu is 'tanh' or 'erf', got {gelu!r}")
    lib = _ffi.tune()
    o = _ffi.tile_tune_options()
    lib.tile_tune_options_init(ctypes.byref(o))
    src = str(Path(source)).encode()
    names = (kernel.encode(), op.encode())
    o.source_path, o.kernel, o.op = src, names[0], names[1]
    problem_text = None
    if problem is not None:
        problem_text = (problem if isinstance(problem, str)
                        else json.dumps(problem)).encode()
        o.op, o.problem_json = None, problem_text
    elif op == "attention":
        o.b, o.h, o.s, o.d = (int(v) for v in shape)
        o.causal = int(causal)
    else:
        o.m, o.n = int(shape[0]), int(shape[1])
        o.k = int(shape[2]) if want == 3 else 0
    o.gelu_erf = int(gelu == "erf")
    bindings = [f"{k}={binding_text(v)}" for k, v in (params or {}).items()]
    o.params, o.nparams, keep_p = _strings(bindings)
    o.axes, o.naxes, keep_a = _strings(axis_texts(space))
    cache = str(cache_dir).encode() if cache_dir is not None else None
    o.cache_dir = cache
    o.no_cache, o.retune = int(no_cache), int(retune)
    o.lookup_only, o.compile_only = int(lookup_only), int(compile_only)
    o.jobs, o.verbose, o.quiet = jobs, int(verbose), int(quiet)
    o.capture_errors = 1

    ctx = runtime._handle() if runtime is not None else None
    res = _ffi.tile_tune_result()
    rc = lib.tile_tune_run(ctypes.byref(o), ctx, ctypes.byref(res))
    del keep_p, keep_a, problem_text
    try:
        if rc == _ffi.TILE_TUNE_MISS or (rc == _ffi.TILE_TUNE_OK and
                                         compile_only):
            return None
        if rc != _ffi.TILE_TUNE_OK:
            why = (lib.tile_tune_last_error() or b"").decode(
                errors="replace").strip()
            what = ("its problem" if problem is not None else
                    f"{op} {tuple(shape)}{' causal' if causal else ''}")
            raise TuneError(f"tuning {kernel} of {source} for {what} "
                            f"failed" + (f":\n{why}" if why else ""))
        image = ctypes.string_at(res.image, res.image_size)
        kinfo = ctypes.string_at(res.kinfo, res.kinfo_size).decode()
        return TuneResult(res.best.decode(), res.best_ms,
                          bool(res.from_cache), res.seconds,
                          res.key.decode(), Compiled(image, kinfo, "cubin"))
    finally:
        lib.tile_tune_result_free(ctypes.byref(res))


def problem_shape(op: str, *tensors) -> tuple[int, ...]:
    """The problem of `op` from its arguments (anything with `.shape`):
    gemm (A [M,K], B [K,N], C), gemm_bias_gelu (A, B, bias, C), softmax
    (X [M,N], Y), attention (Q [B,H,S,D], K, V, O, scale)."""
    if op == "attention":
        return tuple(int(v) for v in tensors[0].shape)
    if op == "softmax":
        m, n = tensors[0].shape
        return (int(m), int(n))
    (m, k), (_, n) = tensors[0].shape, tensors[1].shape
    return (int(m), int(n), int(k))


def flag_bindings(op: str, **tune_options) -> dict[str, bool]:
    """The binding of the parameter that a flag of the problem decides, as
    the tuner adds it where neither the instance nor the caller binds it
    (docs/Tuning.md): {"ERF": True} for gemm_bias_gelu with gelu="erf",
    {"CAUSAL": True} for attention with causal=True, else nothing."""
    if op == "gemm_bias_gelu" and tune_options.get("gelu") == "erf":
        return {"ERF": True}
    if op == "attention" and tune_options.get("causal"):
        return {"CAUSAL": True}
    return {}


def tuned_kernel(runtime, source: str | os.PathLike, kernel: str, op: str,
                 *tensors, on_miss: str = "tune", **tune_options):
    """The kernel to launch on `tensors`: the tuned configuration for their
    shapes from the cache; on a miss, tuned now (`on_miss="tune"`) or the
    kernel's defaults (`on_miss="default"`, with the flag's binding, see
    flag_bindings). `tune_options` go to tune()."""
    if on_miss not in ("tune", "default"):
        raise ValueError(f"on_miss is 'tune' or 'default', got {on_miss!r}")
    shape = problem_shape(op, *tensors)
    result = tune(source, kernel, op, shape, runtime=runtime,
                  lookup_only=on_miss == "default", **tune_options)
    if result is None:
        params = {**flag_bindings(op, **tune_options),
                  **(tune_options.get("params") or {})}
        compiled = _compile(Path(source), kernels=[kernel],
                            params=params or None)
    else:
        compiled = result.compiled
    return runtime.load(compiled).kernel(kernel)
