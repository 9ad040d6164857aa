"""The tuner from Python without a GPU (tune.test): the space filtered and
compiled through the compile cache (compile_only), for gemm and for causal
attention (flash_attention.mlir beside KERNEL.mlir), the refusals, and the
helpers. With --gpu, tuning on the device, the cached answer, and the
launch path's fall-back to the defaults (tune-gpu.test).

Usage: tune_test.py KERNEL.mlir CACHE_DIR [--gpu]
"""
import sys
from pathlib import Path

import tile_mlir

src, cache = sys.argv[1], Path(sys.argv[2])
space = {"BM": [128], "BN": [128, 256], "BK": [64], "STAGES": [2],
         "THREADS": [256], "TMA_STORE": [True]}

if "--gpu" not in sys.argv:
    r = tile_mlir.tune(src, "gemm_f16", "gemm", (256, 256, 256),
                       compile_only=True, cache_dir=cache, space=space)
    entries = sorted(p.parent.parent.name
                     for p in (cache / "v1").rglob("*.json"))
    print("compile_only:", r, "entries:", entries)
    attn = str(Path(src).parent / "flash_attention.mlir")
    r = tile_mlir.tune(attn, "attention", "attention", (1, 2, 256, 64),
                       causal=True, params={"T": "f16"}, compile_only=True,
                       cache_dir=cache,
                       space={"BM": [128], "BN": [128], "STAGES": [2],
                              "THREADS": [256], "MINB": [1]})
    entries = sorted(p.parent.parent.name
                     for p in (cache / "v1").rglob("*.json"))
    print("attention compile_only:", r, "entries:", entries)
    try:
        tile_mlir.tune(src, "gemm_f16", "gemm", (256, 256, 256))
    except ValueError as e:
        print("ValueError:", e)
    try:
        tile_mlir.tune(src, "gemm_f16", "gemm", (256, 256))
    except ValueError as e:
        print("ValueError:", e)
    try:
        tile_mlir.tune(src, "gemm_f16", "attention", (1, 2, 256))
    except ValueError as e:
        print("ValueError:", e)
    try:
        tile_mlir.tune(src, "gemm_f16", "gemm", (256, 256, 256), causal=True)
    except ValueError as e:
        print("ValueError:", e)
    # Why comes back in the exception, nothing on stderr (checked by the
    # RUN line): the diagnostic, then the tuner's own line.
    for kernel, op, shape in (("nope", "gemm", (256, 256, 256)),
                              ("gemm_f16", "softmax", (4, 1024))):
        try:
            tile_mlir.tune(src, kernel, op, shape, compile_only=True,
                           cache_dir=cache)
        except tile_mlir.TuneError as e:
            print("TuneError:", e)
    # A kernel of the user's, on a problem given as data.
    rms = str(Path(src).parent / "examples" / "rmsnorm.mlir")
    problem = {"args": [{"name": "X", "shape": [64, 1000]},
                        {"name": "W", "shape": [1000]},
                        {"name": "Y", "shape": [64, 1000], "output": True},
                        {"name": "eps", "value": 1e-6}]}
    r = tile_mlir.tune(rms, "rmsnorm_f16", problem=problem,
                       compile_only=True, cache_dir=cache,
                       space={"ROWS": [4], "THREADS": [128]})
    print("problem compile_only:", r)
    for bad in ({"args": [{"shape": [64, 1000]}]}, '{"args": 3}'):
        try:
            tile_mlir.tune(rms, "rmsnorm_f16", problem=bad,
                           compile_only=True, cache_dir=cache)
        except tile_mlir.TuneError as e:
            print("TuneError:", e)
    try:
        tile_mlir.tune(rms, "rmsnorm_f16", "softmax", problem=problem)
    except ValueError as e:
        print("ValueError:", e)
    t = tile_mlir.TuneResult("BM=128 CAUSAL=true", 0.5, False, 1.0, "k",
                             tile_mlir.Compiled(b"", ""))
    print("bindings:", t.bindings)

    class T:
        def __init__(self, *shape):
            self.shape = shape
    print("shapes:", tile_mlir.tune.__module__,
          sys.modules["tile_mlir.tune"].problem_shape(
              "gemm", T(8, 4), T(4, 16), T(8, 16)),
          sys.modules["tile_mlir.tune"].problem_shape(
              "softmax", T(3, 50257), T(3, 50257)),
          sys.modules["tile_mlir.tune"].problem_shape(
              "attention", T(2, 4, 100, 64), T(2, 4, 100, 64),
              T(2, 4, 100, 64), T(2, 4, 100, 64), 0.125))
    flags = sys.modules["tile_mlir.tune"].flag_bindings
    print("flags:", flags("gemm_bias_gelu", gelu="erf"),
          flags("gemm_bias_gelu", gelu="tanh"), flags("gemm", gelu="erf"),
          flags("attention", causal=True), flags("attention"))
    sys.exit(0)

with tile_mlir.Runtime(0) as rt:
    first = tile_mlir.tune(src, "gemm_f16", "gemm", (256, 256, 256),
                           runtime=rt, cache_dir=cache, space=space)
    again = tile_mlir.tune(src, "gemm_f16", "gemm", (256, 256, 256),
                           runtime=rt, cache_dir=cache, space=space)
    print("first from cache:", first.from_cache, "in space:",
          first.bindings["BN"] in (128, 256))
    print("again from cache:", again.from_cache, "same:",
          again.config == first.config and
          again.compiled.binary == first.compiled.binary)
    miss = tile_mlir.tune(src, "gemm_f16", "gemm", (512, 256, 256),
                          runtime=rt, cache_dir=cache, space=space,
                          lookup_only=True)
    print("lookup miss:", miss)

    class T:
        def __init__(self, *shape):
            self.shape = shape
    k = tile_mlir.tuned_kernel(rt, src, "gemm_f16", "gemm", T(512, 256),
                               T(256, 256), T(512, 256), on_miss="default",
                               cache_dir=cache)
    print("default kernel:", k.name)
