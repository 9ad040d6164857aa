"""tile_mlir.autotune on the GPU (autotune-gpu.test): the RMSNorm of
kernels/examples/rmsnorm.mlir tuned on torch tensors against a torch reference, with
its wrong variant (SKIP_W=true) added to the space and rejected; again with
the kernel's default configuration as the reference; then, with --again in
a new process on the same cache, the same answer from the cache with
nothing compiled.

Usage: autotune_gpu_test.py RMSNORM.mlir CACHE_DIR [--again]
"""
import sys
import warnings
from pathlib import Path

import torch

import tile_mlir as tm

sys.path.insert(0, str(Path(__file__).parent / "Inputs"))
from no_compile import forbid_compiling  # noqa: E402

src, cache = sys.argv[1], sys.argv[2]
again = "--again" in sys.argv
torch.manual_seed(0)
EPS = 1e-6
SPACE = {"SKIP_W": [False, True]}


def rmsnorm(x, w, y, eps):
    """The reference: in fp32, one output (y)."""
    x = x.float()
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w.float()


def problem(m, n):
    x = torch.randn(m, n, dtype=torch.float16, device="cuda")
    w = torch.rand(n, dtype=torch.float16, device="cuda") + 0.5
    return x, w, torch.empty_like(x), EPS


def err(y, ref):
    return ((y.float() - ref).norm() / ref.norm()).item()


def check_winner(label, r, args):
    x, w, y, eps = args
    y.fill_(float("nan"))
    r.kernel.launch(x, w, y, eps)
    e = err(y, rmsnorm(*args))
    print(f"{label}: from cache {r.from_cache}, SKIP_W {r.config['SKIP_W']}, "
          f"{'ok' if e < 1e-2 else f'FAILED rel {e:.3g}'}")


if again:
    forbid_compiling()  # the entry holds the cubin
    args = problem(333, 1000)
    r = tm.autotune(src, "rmsnorm", *args, reference=rmsnorm, space=SPACE,
                    cache_dir=cache)
    check_winner("again", r, args)
    print("counts:", r.counts, "rejected:", len(r.rejected))
    sys.exit(0)

args = problem(333, 1000)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    r = tm.autotune(src, "rmsnorm", *args, reference=rmsnorm, space=SPACE,
                    cache_dir=cache)
check_winner("tuned", r, args)
wrong = [c for c, why in r.rejected if why.startswith("wrong:")]
print("rejected:", len(r.rejected) == r.counts["rejected"] > 0,
      "all SKIP_W:", all(c["SKIP_W"] for c in wrong) and
      len(wrong) == len(r.rejected),
      "warned:", sum(issubclass(w.category, tm.AutotuneWarning)
                     for w in caught) == len(r.rejected))
print("timed:", len(r.times) == r.counts["timed"] > 0,
      "all correct ones:", not any("SKIP_W=true" in c for c in r.times),
      "fastest:", min(r.times, key=r.times.get) ==
      " ".join(f"{k}={str(v).lower()}" for k, v in r.config.items()))

# The kernel's default configuration as the reference.
args = problem(64, 1000)
r = tm.autotune(src, "rmsnorm", *args, space=SPACE, cache_dir=cache)
check_winner("default as reference", r, args)
print("rejected:", len(r.rejected) > 0 and
      all(c["SKIP_W"] for c, _ in r.rejected))
# Rows longer than the default's COLS: it cannot be the reference.
try:
    tm.autotune(src, "rmsnorm", *problem(8, 3000), cache_dir=cache)
except tm.AutotuneError as e:
    print("AutotuneError:", str(e)[:80])
