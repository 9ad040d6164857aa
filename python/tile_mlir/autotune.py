"""Tuning any parametric kernel from Python, on the caller's own tensors.

    import tile_mlir
    r = tile_mlir.autotune("rmsnorm.mlir", "rmsnorm", x, w, y, 1e-6,
                           reference=lambda x, w, y, eps: torch_rmsnorm(x, w),
                           params={"T": "f16"})
    r.kernel.launch(x, w, y, 1e-6)   # the fastest correct configuration
    r.config, r.times, r.rejected, r.from_cache

The kernel's declared `space` is enumerated and pruned as tile-tune does
(mlirTileEnumerateCandidates: the `where` constraints, the shape contracts
against the arguments, the plan, the device's shared memory and threads);
the survivors are compiled in parallel through the compile cache, each is
run once on the arguments and checked against `reference(*args)` (or the
kernel's default configuration), the correct ones are timed in turns
(tile_mlir.timing, the benchmarks' protocol) and the fastest is kept in
the cache with its cubin, so the same call in a new process compiles
nothing. docs/Tuning.md, "Any kernel, from Python".
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from . import _cache, _ffi, compiler, timing
from .compiler import Compiled, _c_strings, _options, _parsed, _source
from .errors import CompileError, TileError
from .runtime import MemRef, Runtime, _dtype_name
from .tune import TuneError, axis_texts, config_bindings

KIND = "autotune"  # the cache's kind of entry


class AutotuneError(TuneError):
    """autotune() could not choose a configuration; the message says why."""


class AutotuneWarning(UserWarning):
    """A candidate was rejected: wrong, or it did not compile or run."""


@dataclass(frozen=True)
class Candidate:
    """One configuration of the space and its verdict before compiling:
    "viable", "constraint", "contract", "refused", "shared-memory" or
    "threads" (docs/Tuning.md), with why it is dropped."""

    config: str  #: "COLS=1024 ROWS=4 THREADS=128"
    verdict: str
    message: str = ""
    shared_bytes: int = 0
    threads: int = 0

    @property
    def bindings(self) -> dict:
        return config_bindings(self.config)


@dataclass(frozen=True)
class Space:
    """A kernel's tuning space for one problem: the C API's description
    (``axis``, ``default`` and ``fixed`` lines) and every configuration."""

    text: str
    candidates: tuple[Candidate, ...] = ()

    def _lines(self, kind: str) -> list[str]:
        return [line[len(kind) + 1:] for line in self.text.splitlines()
                if line.startswith(kind + " ")]

    @property
    def axes(self) -> dict[str, list]:
        """The tuned parameters and their values."""
        out = {}
        for line in self._lines("axis"):
            name, _, values = line.partition("=")
            out[name] = [config_bindings(f"{name}={v}")[name]
                         for v in values.split(",")]
        return out

    @property
    def default(self) -> str:
        """The kernel's own configuration (each tuned parameter at its
        default), as a configuration's text."""
        return " ".join(self._lines("default"))

    @property
    def fixed(self) -> dict:
        """Every other parameter: bound by the caller or the instance, or
        its default."""
        return config_bindings(" ".join(self._lines("fixed")))

    def viable(self) -> list[Candidate]:
        return [c for c in self.candidates if c.verdict == "viable"]

    def counts(self) -> dict[str, int]:
        """How many configurations got each verdict."""
        out: dict[str, int] = {}
        for c in self.candidates:
            out[c.verdict] = out.get(c.verdict, 0) + 1
        return out


def _view(arg):
    """(dtype name, sizes, strides) of a tensor or MemRef, else None."""
    if isinstance(arg, MemRef):
        return _dtype_name(arg.dtype), arg.sizes, arg.strides
    if hasattr(arg, "shape") and hasattr(arg, "stride"):
        return _dtype_name(arg.dtype), tuple(arg.shape), tuple(arg.stride())
    return None


def _arg_shapes(args) -> str:
    """The problem as mlirTileEnumerateCandidates takes it: each argument's
    shape `AxB`, `;` between them, a scalar's entry empty."""
    return ";".join("x".join(str(int(s)) for s in v[1]) if v else ""
                    for v in map(_view, args))


def enumerate_space(source, kernel: str, *args, params=None, space=None,
                    limits: tuple[int, int] = (0, 0)) -> Space:
    """The configurations tile-tune would try for `kernel` of `source` on
    `args` (tensors, MemRefs and numbers, as a launch takes them; none: the
    shape contracts are not checked), with their verdicts: `params` fixes
    parameters, `space` replaces or adds an axis (name -> values), `limits`
    is (shared bytes, threads per block), <= 0 for sm_90a's. Nothing is
    compiled. AutotuneError says why a kernel, binding or axis is refused."""
    found: list[Candidate] = []
    text: list[bytes] = []

    def on_candidate(ptr, _):
        c = ptr.contents
        found.append(Candidate(
            _ffi.string_ref_bytes(c.config).decode(),
            _ffi.string_ref_bytes(c.statusName).decode(),
            _ffi.string_ref_bytes(c.message).decode(), c.sharedBytes,
            c.threads))

    on_text = _ffi.MlirStringCallback(
        lambda ref, _: text.append(_ffi.string_ref_bytes(ref)))
    on_cand = _ffi.MlirTileCandidateCallback(on_candidate)
    axes = _c_strings(axis_texts(space))
    shapes, name = _arg_shapes(args).encode(), kernel.encode()
    bounds = _ffi.MlirTileTuningLimits(*limits)
    with _parsed(source) as (lib, module, what, diags):
        options, _keep = _options(lib, "sm_90a", "+ptx80", 2, "cubin",
                                  params, None)
        ok = lib.mlirTileEnumerateCandidates(
            module, _ffi.string_ref(name), options, axes, len(axes),
            _ffi.string_ref(shapes), bounds, on_text, on_cand, None)
        if not ok.value:
            raise AutotuneError(f"cannot tune '{kernel}' of {what}:\n" +
                                "\n".join(diags.all()))
    return Space(b"".join(text).decode(), tuple(found))


@dataclass
class AutotuneResult:
    """What autotune() chose."""

    kernel: object  #: launchable: the chosen configuration, loaded
    config: dict  #: its bindings
    #: Median milliseconds of every correct candidate, by configuration
    #: text (on a cache hit, as they were measured then).
    times: dict[str, float]
    #: (bindings, why) of each candidate that was wrong or failed.
    rejected: list[tuple[dict, str]]
    from_cache: bool
    key: str  #: the cache key
    compiled: Compiled  #: the chosen cubin and kernel info
    #: How many configurations became what: the space's verdicts, then
    #: "compiled", "rejected", "timed" (empty on a cache hit).
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


class TorchRunner:
    """Runs candidates on the caller's torch tensors: each check launches
    once with the outputs poisoned (NaN) and the arguments the kernel also
    reads restored to their values at the call; timing is
    tile_mlir.timing's. `outputs` are the indices of the arguments the
    kernel writes, `inout` those it also reads."""

    def __init__(self, runtime: Runtime, args, outputs, inout=(),
                 warmup: int = 10, iters: int = 50, flush: bool = True):
        self.runtime, self.args = runtime, args
        self.outputs, self.inout = tuple(outputs), tuple(inout)
        self.warmup, self.iters, self.flush = warmup, iters, flush
        self._saved = None

    def load(self, compiled: Compiled, name: str, config: dict):
        return self.runtime.load(compiled).kernel(name)

    def run(self, kernel) -> list:
        torch = sys.modules["torch"]
        if self._saved is None:
            self._saved = {i: self.args[i].clone() for i in self.inout}
        for i in self.outputs:
            if i in self._saved:
                self.args[i].copy_(self._saved[i])
            elif self.args[i].is_floating_point():
                self.args[i].fill_(float("nan"))
            else:
                self.args[i].fill_(-1)
        kernel.launch(*self.args)
        torch.cuda.synchronize()
        return [self.args[i].clone() for i in self.outputs]

    def time(self, kernels) -> list[float]:
        runs = [k.prepare(*self.args) for k in kernels]
        flush = timing.l2_flush(self.args[self.outputs[0]].device) \
            if self.flush else None
        return timing.time_in_turns(runs, self.warmup, self.iters, flush)

    def close(self) -> None:
        """Gives the arguments the kernel reads and writes their values at
        the call back."""
        for i, saved in (self._saved or {}).items():
            self.args[i].copy_(saved)


def _device_of(args) -> int:
    for a in args:
        device = getattr(a, "device", None)
        if getattr(device, "type", None) == "cuda":
            return device.index or 0
    return 0


def _json(value) -> str:
    """Canonical JSON: keys sorted as llvm::json writes them."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      default=str)


def _arg_key(args) -> list:
    """Each argument's dtype, shape and strides; a number's type."""
    return [[v[0], list(v[1]), list(v[2])] if v else type(a).__name__
            for a, v in zip(args, map(_view, args))]


def _components(text: bytes, kernel: str, space: Space, args, key,
                runtime: Runtime, limits, rtol: float) -> dict[str, str]:
    """What the answer depends on: the cache key's components."""
    info = runtime.info
    cc = "".join(map(str, info.compute_capability))
    problem = {"key": _json(key)} if key is not None else \
        {"args": _json(_arg_key(args))}
    return {"source": hashlib.sha256(text).hexdigest(), "kernel": kernel,
            "space": space.text, **problem,
            "gpu": f"{info.name}|sm_{cc}|{info.sm_count} SMs",
            "limits": "smem {} threads {}".format(*limits),
            "check": f"rtol {rtol!r}",
            "compiler": _cache.compiler_build_id()}


def _source_bytes(source) -> bytes:
    text, path = _source(source)
    return path.read_bytes() if text is None else text


def _problem(source, kernel, args, params, space, key, runtime, rtol):
    """The space for `args` on `runtime`'s GPU, its limits, and the cache
    key's components."""
    info = runtime.info
    limits = (info.max_smem_optin - 1024, info.max_threads_per_block)
    tuning = enumerate_space(source, kernel, *args, params=params,
                             space=space, limits=limits)
    components = _components(_source_bytes(source), kernel, tuning, args,
                             key, runtime, limits, rtol)
    return tuning, components


def autotune_key(source, kernel: str, *args, params=None, space=None,
                 key=None, runtime=None, rtol: float = 1e-2) -> str:
    """The cache key autotune() files its answer under for these
    arguments (64 hex digits), without tuning."""
    runtime = runtime if runtime is not None else Runtime(_device_of(args))
    return _cache.key(KIND, _problem(source, kernel, args, params, space,
                                     key, runtime, rtol)[1])


def _outputs(result) -> list:
    """The reference's result as a list of copies."""
    outs = list(result) if isinstance(result, (tuple, list)) else [result]
    return [o.detach().clone() if hasattr(o, "clone") else o for o in outs]


def _error(outs, expected) -> float:
    if len(outs) != len(expected):
        raise ValueError(f"the reference gives {len(expected)} outputs, the "
                         f"kernel writes {len(outs)}")
    worst = 0.0
    for o, r in zip(outs, expected):
        if hasattr(o, "shape") and tuple(o.shape) != tuple(r.shape):
            raise ValueError(f"the reference gives an output of shape "
                             f"{tuple(r.shape)}, the kernel {tuple(o.shape)}")
        err = timing.rel_fro(o, r)
        if not err <= worst:  # NaN stays
            worst = err
    return worst


def _compile_all(source, kernel, configs, params, cache, jobs):
    """config text -> Compiled, or the CompileError; in parallel (the C
    API releases the GIL; one MLIR context per compilation)."""
    def one(config):
        try:
            return compiler.compile(
                source, params={**(params or {}), **config_bindings(config)},
                kernels=[kernel], cache_dir=cache or None)
        except CompileError as e:
            return e
    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        return dict(zip(configs, pool.map(one, configs)))


def _from_cache(hit, kernel, runner_for, key, start) -> AutotuneResult:
    record, blobs = hit
    rec = json.loads(record)
    compiled = Compiled(blobs["binary"], blobs["kinfo"].decode())
    config = rec["best"]["config"]
    loaded = runner_for(compiled).load(compiled, kernel,
                                       config_bindings(config))
    return AutotuneResult(
        loaded, config_bindings(config), rec["times"],
        [(config_bindings(r["config"]), r["reason"])
         for r in rec["rejected"]], True, key, compiled, {},
        time.perf_counter() - start)


def _to_compile(tuning: Space, kernel: str, check_default: bool) -> list:
    """The viable configurations, and the default one where it is the
    reference; AutotuneError where nothing fits or the default cannot be
    the reference."""
    configs = [c.config for c in tuning.viable()]
    if not configs:
        why = "; ".join(f"{n} {v}" for v, n in tuning.counts().items())
        example = next((f" (e.g. {c.config}: {c.message})"
                        for c in tuning.candidates if c.message), "")
        raise AutotuneError(f"no configuration of '{kernel}' fits these "
                            f"arguments: {why}{example}")
    default = tuning.default
    if check_default:
        own = next((c for c in tuning.candidates if c.config == default),
                   None)
        if own is not None and own.verdict != "viable":
            raise AutotuneError(
                f"the default configuration of '{kernel}' ({default}) cannot "
                f"run these arguments ({own.verdict}: {own.message}); pass "
                f"reference= to check the candidates against")
        if default not in configs:
            configs.append(default)  # compiled as the reference only
    return configs


class _Trials:
    """Checking the compiled candidates and timing the correct ones."""

    def __init__(self, kernel: str, run, rtol: float):
        self.kernel, self.run, self.rtol = kernel, run, rtol
        self.rejected: list[tuple[str, str]] = []  # (config, why)

    def reject(self, config: str, why: str) -> None:
        self.rejected.append((config, why))
        warnings.warn(f"autotune '{self.kernel}': {config} rejected: {why}",
                      AutotuneWarning, stacklevel=4)

    def outputs(self, config: str, compiled: Compiled):
        return self.run.run(self.run.load(compiled, self.kernel,
                                          config_bindings(config)))

    def check(self, built: dict, configs, expected) -> list:
        """(config, compiled, loaded) of each correct candidate."""
        good = []
        for config in configs:
            compiled = built[config]
            if isinstance(compiled, CompileError):
                self.reject(config, f"does not compile: {compiled}")
                continue
            try:
                loaded = self.run.load(compiled, self.kernel,
                                       config_bindings(config))
                err = _error(self.run.run(loaded), expected)
            except TileError as e:
                self.reject(config, f"does not run: {e}")
                continue
            if not err <= self.rtol:
                self.reject(config, f"wrong: relative error {err:.3g} over "
                                    f"{self.rtol:g}")
                continue
            good.append((config, compiled, loaded))
        if not good:
            config, why = self.rejected[0]
            raise AutotuneError(
                f"no configuration of '{self.kernel}' is correct "
                f"({len(self.rejected)} rejected; the first, {config}: "
                f"{why})")
        return good


def _check_options(rtol, jobs, warmup, iters) -> None:
    """Refuses, before anything is compiled, the options that would make
    every candidate wrong or fail inside the compilation pool."""
    if isinstance(rtol, bool) or not isinstance(rtol, (int, float)) or \
            not 0 < rtol < math.inf:
        raise ValueError(f"rtol must be a positive finite number, got "
                         f"{rtol!r}")
    for name, value, least in (("jobs", jobs, 0), ("warmup", warmup, 0),
                               ("iters", iters, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or \
                value < least:
            raise ValueError(f"{name} must be an integer of at least "
                             f"{least}, got {value!r}")


def autotune(source, kernel: str, *args, reference=None, space=None,
             params=None, key=None, cache_dir=None, runtime=None,
             rtol: float = 1e-2, outputs=None, retune: bool = False,
             jobs: int = 0, warmup: int = 10, iters: int = 50,
             flush: bool = True, runner=None) -> AutotuneResult:
    """Chooses the fastest correct configuration of `kernel` of `source`
    (MLIR text or a path) for `args`, the arguments a launch takes (torch
    CUDA tensors and numbers), or reads it from the cache.

    `params` fixes parameters (the element type ``T`` among them);
    `space` replaces an axis's values or tunes a parameter the kernel
    gives none (name -> values). Each candidate's outputs are checked
    against `reference(*args)` (a tensor or a tuple, one per output), or
    with no reference against the kernel's default configuration's: a
    relative Frobenius error over `rtol` rejects it. `outputs` are the
    indices of the arguments the kernel writes (default: its kernel info's
    ``access`` lines). The outputs end up holding a candidate's result;
    the arguments the kernel reads and writes get their values back.

    The cache entry (kind "autotune", in `cache_dir`, default the
    project's cache directory, "" for none) is keyed by the source text,
    the kernel, the space (with `params`), the arguments' dtypes, shapes
    and strides (or the caller's `key` in their place: one tuning per key
    whatever the shapes), the GPU, its limits, `rtol` and the compiler's
    build. `retune` ignores an entry; `jobs` compilations run at once
    (default: every CPU); `warmup`, `iters` and `flush` are the timing's.
    `runner` replaces how candidates are loaded, run and timed (TorchRunner
    by default; the tests pass a fake one)."""
    start = time.perf_counter()
    _check_options(rtol, jobs, warmup, iters)
    runtime = runtime if runtime is not None else Runtime(_device_of(args))
    tuning, components = _problem(source, kernel, args, params, space, key,
                                  runtime, rtol)
    cache = _cache.default_directory() if cache_dir is None \
        else os.fspath(cache_dir)
    entry_key = _cache.key(KIND, components)

    def runner_for(compiled):
        if runner is not None:
            return runner
        desc = compiled.kernel(kernel)
        written = desc.outputs if outputs is None else tuple(outputs)
        if not written:
            raise ValueError(f"the kernel info of '{kernel}' marks no "
                             f"argument written: pass outputs=")
        inout = [p.arg for p in desc.args if p.access == "readwrite"]
        return TorchRunner(runtime, args, written, inout, warmup, iters,
                           flush)

    hit = _cache.load(cache, KIND, components) if cache and not retune \
        else None
    if hit is not None and {"binary", "kinfo"} <= hit[1].keys():
        return _from_cache(hit, kernel, runner_for, entry_key, start)

    configs = _to_compile(tuning, kernel, reference is None)
    built = _compile_all(source, kernel, configs, params, cache, jobs)
    first = next((c for c in built.values() if isinstance(c, Compiled)),
                 None)
    if first is None:
        raise AutotuneError(f"no configuration of '{kernel}' compiles; the "
                            f"first: {next(iter(built.values()))}")
    run = runner_for(first)
    trials = _Trials(kernel, run, rtol)
    try:
        if reference is not None:
            expected = _outputs(reference(*args))
        elif isinstance(built[tuning.default], Compiled):
            expected = trials.outputs(tuning.default, built[tuning.default])
        else:
            raise AutotuneError(f"the default configuration of '{kernel}' "
                                f"does not compile: {built[tuning.default]}")
        viable = set(c.config for c in tuning.viable())
        good = trials.check(built, [c for c in configs if c in viable],
                            expected)
        ms = run.time([loaded for _, _, loaded in good])
    finally:
        if hasattr(run, "close"):
            run.close()
    times = {config: t for (config, _, _), t in zip(good, ms)}
    best, compiled, loaded = min(good, key=lambda g: times[g[0]])
    counts = {**tuning.counts(), "rejected": len(trials.rejected),
              "compiled": sum(isinstance(c, Compiled)
                              for c in built.values()),
              "timed": len(good)}
    if cache:
        record = {"summary": f"autotune {kernel} on {runtime.info.name}: "
                             f"{best} ({times[best]:.4f} ms)",
                  "best": {"config": best, "ms": times[best]},
                  "times": times, "counts": counts,
                  "rejected": [{"config": c, "reason": w}
                               for c, w in trials.rejected]}
        _cache.store(cache, KIND, components, _json(record),
                     {"binary": compiled.binary,
                      "kinfo": compiled.kernel_info.encode()})
    return AutotuneResult(loaded, config_bindings(best), times,
                          [(config_bindings(c), w)
                           for c, w in trials.rejected],
                          False, entry_key, compiled, counts,
                          time.perf_counter() - start)
