"""tile_mlir.autotune without a GPU (autotune-host.test), on the fake CUDA
driver (device facts and limits) with a fake runner in place of launching
and timing, on the RMSNorm of kernels/examples/rmsnorm.mlir: the space and its
pruning, the cache key, the rejection of a wrong candidate, the cache
round trip (with --lookup, a new process that must not compile), and the
errors.

Usage: TILE_RT_LIBCUDA=.../libtile_rt_fake_cuda.so
       autotune_host_test.py RMSNORM.mlir CACHE_DIR [--lookup | --key]
"""
import subprocess
import sys
import warnings
from pathlib import Path

import tile_mlir as tm

sys.path.insert(0, str(Path(__file__).parent / "Inputs"))
from no_compile import forbid_compiling  # noqa: E402

src, cache = Path(sys.argv[1]), Path(sys.argv[2])
rt = tm.Runtime(0)
EPS = 1e-6
# Five shapes of block by three constraints, both SKIP_W: ten to compile.
SPACE = {"ROWS": [1, 4], "COLS": [1024, 2048], "THREADS": [64, 128],
         "SKIP_W": [False, True]}


def args_for(m, n):
    """MemRefs standing for X, W, Y (never dereferenced) and eps."""
    return (tm.MemRef(0x10000, "f16", (m, n)), tm.MemRef(0x10000, "f16", (n,)),
            tm.MemRef(0x10000, "f16", (m, n)), EPS)


class FakeRunner:
    """Runs nothing: a candidate's "output" is [1, 2], or [1, 3] where it
    leaves the weight out (SKIP_W), or a launch error for COLS=2048
    THREADS=64 when `failing`; its time grows with ROWS, COLS and
    THREADS."""

    def __init__(self, failing=False):
        self.failing, self.loaded, self.ran, self.timed = failing, [], [], []

    def load(self, compiled, name, config):
        assert compiled.kernel(name).name == name  # a real kernel record
        self.loaded.append(config)
        return config

    def run(self, config):
        self.ran.append(config)
        if self.failing and config["COLS"] == 2048 and \
                config["THREADS"] == 64:
            raise tm.InvalidArgumentError(4, "INVALID_ARGUMENT", "planted")
        return [[1.0, 3.0] if config["SKIP_W"] else [1.0, 2.0]]

    def time(self, configs):
        self.timed.append(len(configs))
        return [c["ROWS"] + c["COLS"] / 1000 + c["THREADS"] / 1e4
                for c in configs]


def reference(x, w, y, eps):
    return ([1.0, 2.0],)  # one output


def text(config):
    return " ".join(f"{k}={str(v).lower()}" for k, v in config.items())


def tune(args, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = tm.autotune(src, "rmsnorm", *args, runtime=rt, cache_dir=cache,
                        **kw)
    return r, [w for w in caught if issubclass(w.category,
                                               tm.AutotuneWarning)]


if "--key" in sys.argv:  # the key in a process of its own
    print(tm.autotune_key(src, "rmsnorm", *args_for(64, 1000), space=SPACE,
                          runtime=rt))
    sys.exit(0)

if "--lookup" in sys.argv:  # a new process: the answer with no compiling
    forbid_compiling()
    runner = FakeRunner()
    r, warned = tune(args_for(64, 1000), reference=reference, space=SPACE,
                     runner=runner)
    print("lookup: from cache", r.from_cache, "config", text(r.config),
          "ran", len(runner.ran), "timed", len(runner.timed),
          "loaded", [text(c) for c in runner.loaded])
    print("lookup: times", len(r.times), "rejected", len(r.rejected),
          "binary", r.compiled.binary[:4], "counts", r.counts)
    sys.exit(0)

# -- The space: enumerated and pruned as tile-tune does --------------------
space = tm.enumerate_space(src, "rmsnorm", *args_for(64, 1000))
print("axes:", space.axes)
print("default:", space.default, "fixed:", space.fixed)
print("full space:", sorted(space.counts().items()))
c = next(c for c in space.candidates if c.verdict == "contract")
print("contract:", c.config, "-", c.message)
# Every configuration the contracts and constraints leave compiles (the
# small fragments of ROWS=1 get layouts that tile them); Tune/space.test
# shows the planner's refusals.
print("refused:", [c.config for c in space.candidates if c.verdict == "refused"])
small = tm.enumerate_space(src, "rmsnorm", *args_for(64, 1000),
                           limits=(8, 128))
print("limits 8 bytes, 128 threads:", sorted(small.counts().items()))
narrowed = tm.enumerate_space(src, "rmsnorm", *args_for(64, 1000),
                              space=SPACE, params={"T": "bf16"})
print("narrowed:", [c.config for c in narrowed.viable()][:3],
      len(narrowed.viable()), narrowed.fixed)

# -- The key: stable across processes, moved by what changes the answer ----
key = tm.autotune_key(src, "rmsnorm", *args_for(64, 1000), space=SPACE,
                      runtime=rt)
other = subprocess.run([sys.executable, __file__, str(src), str(cache),
                        "--key"], capture_output=True, text=True, check=True)
print("key in a new process: same", other.stdout.strip() == key)
variants = {
    "shape": dict(args=args_for(65, 1000)),
    "dtype": dict(args=args_for(64, 1000)[:3] + (1,)),
    "space": dict(space={**SPACE, "THREADS": [128]}),
    "params": dict(params={"T": "bf16"}),
    "rtol": dict(rtol=1e-3),
    "source": dict(source=src.read_text() + "// a comment\n"),
}
for what, v in variants.items():
    k = tm.autotune_key(v.get("source", src), "rmsnorm",
                        *v.get("args", args_for(64, 1000)),
                        space=v.get("space", SPACE),
                        params=v.get("params"), rtol=v.get("rtol", 1e-2),
                        runtime=rt)
    print(f"key with another {what}: differs", k != key)
by_n = {tm.autotune_key(src, "rmsnorm", *args_for(m, 1000), key=1000,
                        runtime=rt) for m in (64, 128)}
print("caller's key: one for both shapes", len(by_n) == 1, key not in by_n)

# -- Tuning: the wrong variant rejected, the fastest correct one chosen ----
runner = FakeRunner()
r, warned = tune(args_for(64, 1000), reference=reference, space=SPACE,
                 runner=runner)
print("tuned: from cache", r.from_cache, "config", text(r.config))
print("counts:", sorted(r.counts.items()))
assert r.rejected and all(c["SKIP_W"] for c, _ in r.rejected), r.rejected
assert not any("SKIP_W=true" in c for c in r.times), r.times
print("rejected:", len(r.rejected), sorted({why for _, why in r.rejected}))
print("warned:", len(warned), str(warned[0].message).split(" rejected")[0])
print("timed together:", runner.timed, "fastest:",
      min(r.times, key=r.times.get) == text(r.config))
entries = sorted(p.parent.parent.name for p in (cache / "v1").rglob("*.json"))
print("entries:", {k: entries.count(k) for k in sorted(set(entries))})
print("result key is the key:", r.key == key)

# The same in a new process: from the cache, nothing compiled.
again = subprocess.run([sys.executable, __file__, str(src), str(cache),
                        "--lookup"], capture_output=True, text=True)
print(again.stdout + again.stderr, end="")

# A launch that fails is rejected as not running; the default configuration
# as the reference rejects the wrong variant just as well.
r, _ = tune(args_for(96, 1000), space=SPACE, runner=FakeRunner(failing=True))
print("default as reference:", text(r.config), sorted(
    {why.split(":")[0] for _, why in r.rejected}))
print("not running:", sorted(text(c) for c, why in r.rejected
                             if why.startswith("does not run")))

# An entry that does not read is reported, dropped and tuned again.
entry = next((cache / "v1" / "autotune").rglob(r.key + ".json"))
entry.write_text("{not json")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    r = tm.autotune(src, "rmsnorm", *args_for(96, 1000), space=SPACE,
                    runtime=rt, cache_dir=cache, runner=FakeRunner())
print("corrupt entry: from cache", r.from_cache, "warned",
      [str(w.message)[:44] for w in caught
       if issubclass(w.category, RuntimeWarning)])


# -- The errors -----------------------------------------------------------
def error(label, fn):
    try:
        fn()
        print(f"{label}: no error?!")
    except (tm.AutotuneError, ValueError) as e:
        print(f"{label}: {type(e).__name__}: {str(e).splitlines()[-1]}")


error("unknown kernel", lambda: tm.autotune(
    src, "nope", *args_for(64, 1000), runtime=rt, runner=FakeRunner()))
error("unknown parameter", lambda: tm.enumerate_space(
    src, "rmsnorm", space={"BOGUS": [1, 2]}))
error("arguments of another kernel", lambda: tm.enumerate_space(
    src, "rmsnorm", *args_for(64, 1000)[:2]))
error("a type in the space", lambda: tm.enumerate_space(
    src, "rmsnorm", space={"T": ["f16", "bf16"]}))
error("nothing fits", lambda: tm.autotune(
    src, "rmsnorm", *args_for(64, 5000), runtime=rt, cache_dir=cache,
    reference=reference, runner=FakeRunner()))
error("no usable default", lambda: tm.autotune(
    src, "rmsnorm", *args_for(64, 2000), runtime=rt, cache_dir=cache,
    runner=FakeRunner()))
error("all wrong", lambda: tune(
    args_for(80, 1000), space=SPACE, runner=FakeRunner(),
    reference=lambda *a: ([5.0, 5.0],)))
error("two outputs for one", lambda: tune(
    args_for(88, 1000), space=SPACE, runner=FakeRunner(),
    reference=lambda *a: ([1.0, 2.0], [1.0, 2.0])))
# Options that would make every candidate wrong, or fail inside the
# compilation pool, are refused before anything is compiled.
for label, options in (("rtol=-1", {"rtol": -1}),
                       ("rtol=nan", {"rtol": float("nan")}),
                       ("jobs=-5", {"jobs": -5}),
                       ("iters=0", {"iters": 0})):
    error(label, lambda: tm.autotune(
        src, "rmsnorm", *args_for(64, 1000), runtime=rt, cache_dir=cache,
        runner=FakeRunner(), **options))
