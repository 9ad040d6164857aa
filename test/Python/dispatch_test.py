"""The dispatch rules of tile_mlir.ops (host only: dispatch.test): the
configuration chosen per shape class, the refusals, and rules regenerated
from tuned results. Every rule of the package's file is also compiled, for
f16 and bf16, so that a rule the kernels refuse fails here, not on a
user's GPU."""
import sys

import tile_mlir as tm
import tile_mlir.dispatch as d


def short(p):
    return " ".join(f"{k}={v}" for k, v in p.items())


for n in (1, 32, 33, 64, 100, 128, 129, 2000, 2048, 2049, 4096, 8192, 8193, 50257, 57337,
          57338, 262144):
    print(f"softmax n={n}: {short(d.softmax_config(n, 'f16'))}")
for s in ((64, 64, 64), (1024, 1024, 1024), (128, 8192, 8192),
          (256, 8192, 8192), (2048, 2048, 2048), (4096, 4096, 4096)):
    print(f"gemm {s}: {short(d.gemm_config(*s, 'bf16'))}")
print(f"attention: {short(d.attention_config(128, True, 'f16'))}")
for label, fn in (("softmax n=0", lambda: d.softmax_config(0, "f16")),
                  ("softmax f32", lambda: d.softmax_config(64, "f32")),
                  ("attention d=96", lambda: d.attention_config(96, False,
                                                                "f16")),
                  ("rules for attention",
                   lambda: d.rules_from_tuned("attention", []))):
    try:
        fn()
        print(f"{label}: accepted")
    except ValueError as e:
        print(f"{label}: ValueError: {e}")

print("regenerated softmax:", d.rules_from_tuned("softmax", [
    ((4096, 1024), {"COLS": 1024, "ROWS": 4, "T": "f16"}),
    ((64, 1024), {"COLS": 512, "ROWS": 2, "T": "f16"}),
    ((8192, 128), {"COLS": 128, "ROWS": 32, "T": "f16"}),
    ((4096, 50257), {"COLS": 7168, "T": "f16"})]))
print("regenerated gemm:", d.rules_from_tuned("gemm", [
    ((4096, 4096, 4096), {"BM": 128, "BN": 256, "T": "f16", "TC": "f16"}),
    ((8192, 8192, 8192), {"BM": 128, "BN": 256}),
    ((256, 8192, 8192), {"BM": 128, "BN": 128}),
    ((64, 64, 64), {"BM": 64, "BN": 128})]))

kernels = sys.argv[1]
rules = d.load_rules()
compiled = 0
for t in ("f16", "bf16"):
    for rule in rules["softmax"]:
        tm.compile(f"{kernels}/softmax.mlir", kernels=["softmax"],
                   params={**rule["params"], "T": t}, fmt="ptx")
        compiled += 1
    for rule in rules["gemm"]:
        p = {**rule["params"], "T": t}
        tm.compile(f"{kernels}/gemm.mlir", kernels=["gemm"],
                   params={**p, "TC": t}, fmt="ptx")
        tm.compile(f"{kernels}/gemm_bias_gelu.mlir",
                   kernels=["gemm_bias_gelu"], params=p, fmt="ptx")
        compiled += 2
print(f"rules compiled: {compiled}")
