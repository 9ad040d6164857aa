"""Runtime handles freed by the collector and at interpreter shutdown, in
whatever order those finalise them (lifetime.test): each script below runs
in its own interpreter against the fake CUDA driver, which counts what is
still alive and every call made on a released context. A script must exit
0, with no signal, having freed everything and used nothing after release.

Usage: TILE_RT_LIBCUDA=.../libtile_rt_fake_cuda.so lifetime_test.py
       lifetime_test.py --gpu KERNELS_DIR   (lifetime-gpu.test: the same
       scripts on the GPU with a compiled softmax; no counts, the exit status)
"""
import os
import subprocess
import sys
import textwrap

SETUP = """
import ctypes, gc, os
import tile_mlir as tm

KINFO = '''tile-kernel-info 1
kernel scale
block 256 1 1
smem 0
grid 0 0 0 256
param memref 0 f32 1
param scalar 1 f32
end
'''

class Counts(ctypes.Structure):  # fake_cuda_lifetime_counts of fake_cuda.h
    _fields_ = [(n, ctypes.c_int) for n in (
        "primary_refs", "modules", "allocations", "streams", "events",
        "calls_after_release")]

def alive():
    c = Counts()
    ctypes.CDLL(os.environ["TILE_RT_LIBCUDA"]).fake_cuda_lifetime(
        ctypes.byref(c))
    return ", ".join(f"{n} {getattr(c, n)}" for n, _ in c._fields_)

def everything():
    rt = tm.Runtime(0)
    mod = rt.load(tm.Compiled(b"FAKECUBIN scale", KINFO))
    k = mod.kernel("scale")
    buf = rt.alloc(4096)
    view = buf.memref("f32", (1024,))
    launch = k.prepare(view, 2.0)
    launch()
    return rt, mod, k, buf, view, launch, rt.stream(), rt.event()
"""

# On the GPU: a real cubin (compiled once, by this process), no counts.
GPU_SETUP = """
import gc, os
import tile_mlir as tm

def alive():
    return "ok"

def everything():
    rt = tm.Runtime(0)
    with open(os.environ["LIFETIME_CUBIN"], "rb") as f:
        image = f.read()
    with open(os.environ["LIFETIME_KINFO"]) as f:
        info = f.read()
    mod = rt.load(tm.Compiled(image, info))
    k = mod.kernel("softmax_n128_f16")
    buf = rt.alloc(2 * 64 * 128 * 2)
    x = buf.memref("f16", (64, 128))
    view = buf.memref("f16", (64, 128), offset=64 * 128 * 2)
    launch = k.prepare(x, view)
    launch()
    rt.synchronize()
    return rt, mod, k, buf, view, launch, rt.stream(), rt.event()
"""

GPU = len(sys.argv) > 2 and sys.argv[1] == "--gpu"
if GPU:
    import tempfile
    import tile_mlir as tm
    compiled = tm.compile(os.path.join(sys.argv[2], "softmax.mlir"),
                          kernels=["softmax_n128_f16"])
    scratch = tempfile.mkdtemp()
    os.environ["LIFETIME_CUBIN"] = os.path.join(scratch, "k.cubin")
    os.environ["LIFETIME_KINFO"] = os.path.join(scratch, "k.kinfo")
    with open(os.environ["LIFETIME_CUBIN"], "wb") as f:
        f.write(compiled.binary)
    with open(os.environ["LIFETIME_KINFO"], "w") as f:
        f.write(compiled.kernel_info)
    SETUP = GPU_SETUP

# Dropped and collected while the interpreter runs.
COLLECTED = {
    "rt mod k": """
rt, mod, k, *_ = everything()
del _
del rt, mod, k
gc.collect()
print(alive())
""",
    "everything": """
rt, mod, k, buf, view, launch, s, e = everything()
del rt, mod, k, buf, view, launch, s, e
gc.collect()
print(alive())
""",
    "kernel last": """
rt, mod, k, *_ = everything()
del _, rt, mod
gc.collect()
k = None
gc.collect()
print(alive())
""",
}

# Kept in globals (or reachable from them) until the interpreter exits.
SHUTDOWN = {
    "rt mod k": "rt, mod, k, *_ = everything(); del _",
    "k only": "k = everything()[2]",
    "mod only": "mod = everything()[1]",
    "buffer only": "buf = everything()[3]",
    "view only": "view = everything()[4]",
    "launch only": "launch = everything()[5]",
    "stream and event": "s, e = everything()[6:]",
    "everything": "rt, mod, k, buf, view, launch, s, e = everything()",
    "in a cycle": "box = list(everything()); box.append(box)",
    "on a class": "class Keep: pass\nKeep.all = everything()",
    "in a closure": "def f(a=everything()): return a",
    "two runtimes": "a = everything(); b = everything()",
}


def run(body: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, FAKE_CUDA_REPORT_AT_EXIT="1")
    return subprocess.run([sys.executable, "-c",
                           SETUP + textwrap.dedent(body)],
                          env=env, capture_output=True, text=True,
                          timeout=120)


def outcome(p: subprocess.CompletedProcess) -> str:
    if p.returncode < 0:
        return f"killed by signal {-p.returncode}"
    return f"exit {p.returncode}"


def at_exit(p: subprocess.CompletedProcess) -> str:
    if GPU:
        return "ok" if not p.stderr.strip() else p.stderr.strip()[-400:]
    for line in p.stderr.splitlines():
        if line.startswith("fake-cuda at exit: "):
            return line[len("fake-cuda at exit: "):]
    return "no report: " + p.stderr.strip()[-400:]


for name, body in COLLECTED.items():
    p = run(body)
    print(f"collected {name}: {outcome(p)}: {p.stdout.strip()}")
    if p.returncode != 0:
        print(p.stderr.strip()[-2000:])
for name, body in SHUTDOWN.items():
    p = run(body)
    print(f"shutdown {name}: {outcome(p)}: {at_exit(p)}")
    if p.returncode != 0:
        print(p.stderr.strip()[-2000:])
