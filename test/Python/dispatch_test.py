"""The dispatch rules of tile_mlir.ops (host only: dispatch.test): the
configuration chosen per shape class, the refusals, and rules regenerated
from tuned results. Every rule of the package's file is also compiled, for
f16 and bf16, so that a rule the kernels refuse fails here, not on a
user's GPU."""
import json
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import tile_mlir as tm
import tile_mlir.dispatch as d
from tile_mlir.tune import candidate_times


def short(p):
    return " ".join(f"{k}={v}" for k, v in p.items())


for n in (1, 32, 33, 64, 100, 128, 129, 2000, 2048, 2049, 4096, 8192, 8193, 50257, 57337,
          57338, 262144):
    print(f"softmax n={n}: {short(d.softmax_config(n, 'f16'))}")
# Rows beyond 65536 columns: fewer rows than SMs take the wide blocks.
for m, n in ((8, 262144), (132, 128256), (133, 128256), (8192, 128256)):
    print(f"softmax {m}x{n}: {short(d.softmax_config(n, 'f16', rows=m))}")
for s in ((64, 64, 64), (1024, 1024, 1024), (128, 8192, 8192),
          (256, 8192, 8192), (2048, 2048, 2048), (4096, 4096, 4096),
          (64, 4096, 4096), (4096, 64, 4096), (16, 4096, 4096),
          (1, 1, 1), (512, 16384, 4096)):
    print(f"gemm {s}: {short(d.gemm_config(*s, 'bf16'))}")
# Nearness on hand-made rules: clamped sides, ties to the nearer unclamped.
toy = {"gemm": [{"shape": [16, 4096, 4096], "params": {"BM": 16}},
                {"shape": [64, 4096, 4096], "params": {"BM": 64}},
                {"shape": [4096, 64, 4096], "params": {"BM": 128}},
                {"shape": [4096, 4096, 4096], "params": {"BM": 256}}]}
for s in ((16, 4096, 4096), (64, 4096, 4096), (32, 4096, 4096),
          (8, 11008, 4096), (48, 4096, 4096), (4096, 32, 4096),
          (2048, 2048, 2048), (4096, 4096, 4096), (1024, 1024, 64)):
    print(f"toy gemm {s}: {short(d.gemm_config(*s, 'f16', toy))}")
print(f"attention: {short(d.attention_config(128, True, 'f16'))}")
print(f"attention: {short(d.attention_config(64, False, 'bf16'))}")
print(f"attention 4096 keys: "
      f"{short(d.attention_config(128, False, 'f16', keys=4096))}")
print(f"attention 4095 keys: "
      f"{short(d.attention_config(128, False, 'f16', keys=4095))}")
# The gemm model: fitted to synthetic times made from known coefficients,
# it gives them back; a coefficient the data would make negative is zero.
small = {"BM": 64, "BN": 64, "BK": 64, "STAGES": 4, "THREADS": 128,
         "TMA_STORE": True}
large = {"BM": 128, "BN": 256, "BK": 64, "STAGES": 3, "THREADS": 256,
         "TMA_STORE": True}
truth = {d.config_string(small): [0.005, 0.0002, 0.001, 0.04],
         d.config_string(large): [0.005, 0.0005, 0.0025, 0.04]}
problems = [(64, 4096, 4096), (4096, 4096, 4096), (512, 512, 512),
            (8192, 8192, 1024), (2048, 512, 8192), (96, 6144, 4096)]
timings = {s: {name: sum(c * f for c, f in zip(
    coef, d.gemm_features(*s, cfg, 132)))
    for (name, coef), cfg in zip(truth.items(), (small, large))}
    for s in problems}
model = d.fit_gemm_model(timings, [small, large, dict(small)], 132)
print("model entries:", len(model))
for e in model:
    got = e["coef"]
    want = truth[d.config_string(e["params"])]
    print(f"fit {d.config_string(e['params'])}: "
          f"{all(abs(g - w) <= 1e-3 * w for g, w in zip(got, want))}")
falling = {s: {d.config_string(small): 0.01 - 0.00001 * i}
           for i, s in enumerate(problems)}
print("non-negative:", all(c >= 0 for c in
                           d.fit_gemm_model(falling, [small], 132)[0]["coef"]))
print("config string:", d.config_string(small))
# Choosing with it: a tuned shape keeps its own configuration; elsewhere
# the model overrules the nearest shape's only by more than the margin.
modelled = {"gemm": [{"shape": [4096, 4096, 4096], "params": large}],
            "gemm_sms": 132, "gemm_model": model}
for s in ((4096, 4096, 4096), (4000, 4000, 4000), (64, 4096, 4096),
          (2048, 512, 8192)):
    cfg = d.gemm_config(*s, "f16", modelled)
    ratio = (d.gemm_predict(*s, model[1], 132) /
             d.gemm_predict(*s, model[0], 132))
    print(f"modelled gemm {s}: BM={cfg['BM']} BN={cfg['BN']} "
          f"(large/small predicted {ratio:.2f})")
# What the model is fitted to: every timed candidate of a tuning record.
with tempfile.TemporaryDirectory() as cache:
    key = "ab" + "0" * 62
    entry = Path(cache, "v1", "tune", "ab", f"{key}.json")
    entry.parent.mkdir(parents=True)
    entry.write_text(json.dumps({"record": {"candidates": [
        {"config": "BM=64", "ms": 0.5, "verdict": "measured"},
        {"config": "BM=128", "ms": 0.9, "verdict": "early-stop"},
        {"config": "BM=256", "verdict": "shared-memory"},
        {"config": "BM=32", "ms": 0.1, "verdict": "wrong"}]}}))
    print("candidate times:",
          candidate_times(SimpleNamespace(key=key), cache))
for slower in (1.05, 1.2):  # the nearest's predicted time over the best's
    flat = dict(modelled, gemm_model=[
        {"params": small, "coef": [0.01, 0, 0, 0]},
        {"params": large, "coef": [0.01 * slower, 0, 0, 0]}])
    cfg = d.gemm_config(4000, 4000, 4000, "f16", flat)
    print(f"nearest {slower}x slower: BM={cfg['BM']} BN={cfg['BN']}")

for label, fn in (("softmax n=0", lambda: d.softmax_config(0, "f16")),
                  ("softmax f32", lambda: d.softmax_config(64, "f32")),
                  ("attention d=96", lambda: d.attention_config(96, False,
                                                                "f16")),
                  ("gemm 0x8x8", lambda: d.gemm_config(0, 8, 8, "f16")),
                  ("gemv 0x8", lambda: d.gemv_config(0, 8, "f16", True)),
                  ("gemm, no rules",
                   lambda: d.gemm_config(8, 8, 8, "f16", {"gemm": []})),
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
# Pinned rules (measured outside the tuner) survive regeneration: a row
# bound before the new unbounded rule, a gemm shape the tuner did not tune.
current = {"softmax": [{"max_n": 128, "params": {"COLS": 64}},
                       {"max_n": None, "max_m": 8, "params": {"COLS": 16384},
                        "pinned": "why"}],
           "gemm": [{"shape": [512, 16384, 4096], "params": {"BM": 128},
                     "pinned": "why"},
                    {"shape": [4096, 4096, 4096], "params": {"BM": 64},
                     "pinned": "why"}]}
print("regenerated, pinned softmax:", [
    (r["max_n"], r.get("max_m"), r["params"]["COLS"])
    for r in d.rules_from_tuned("softmax", [
        ((4096, 1024), {"COLS": 1024}), ((64, 65536), {"COLS": 8192})],
        current)])
print("regenerated, pinned gemm:", [
    (r["shape"], r["params"]["BM"]) for r in d.rules_from_tuned("gemm", [
        ((4096, 4096, 4096), {"BM": 128}), ((64, 64, 64), {"BM": 256})],
        current)])
print("regenerated gemm:", d.rules_from_tuned("gemm", [
    ((4096, 4096, 4096), {"BM": 128, "BN": 256, "T": "f16", "TC": "f16"}),
    ((8192, 8192, 8192), {"BM": 128, "BN": 256}),
    ((256, 8192, 8192), {"BM": 128, "BN": 128}),
    ((64, 64, 64), {"BM": 64, "BN": 128}),
    ((256, 8192, 8192), {"BM": 64, "BN": 64})]))

for n, k, trans_b in ((4096, 4096, True), (4097, 4096, True),
                      (4096, 4096, False), (8192, 1001, False)):
    config = d.gemv_config(n, k, "f16", trans_b)
    print(f"gemv {n}x{k} trans_b={trans_b}: "
          f"{short(config) if config else 'no rule (gemm)'}")

kernels = sys.argv[1]
rules = d.load_rules()


def distinct(params):
    """Each configuration once, however many rules hold it."""
    return {tuple(sorted(p.items())): p for p in params}.values()


compiled = 0
for t in ("f16", "bf16"):
    for params in distinct(r["params"] for r in rules["softmax"]):
        tm.compile(f"{kernels}/softmax.mlir", kernels=["softmax"],
                   params={**params, "T": t}, fmt="ptx")
        compiled += 1
    for params in distinct(r["params"] for r in rules["gemm"]):
        p = {**params, "T": t}
        tm.compile(f"{kernels}/gemm.mlir", kernels=["gemm"],
                   params={**p, "TC": t}, fmt="ptx")
        tm.compile(f"{kernels}/gemm_bias_gelu.mlir",
                   kernels=["gemm_bias_gelu"], params=p, fmt="ptx")
        compiled += 2
    for rule in rules["attention"]:
        for causal in (False, True):
            tm.compile(f"{kernels}/flash_attention.mlir", kernels=["attention"],
                       params=d.attention_config(
                           rule["d"], causal, t,
                           keys=rule.get("min_keys", 0)),
                       fmt="ptx")
            compiled += 1
    for rule in rules["gemv"]:
        tm.compile(f"{kernels}/gemv.mlir",
                   kernels=[d.gemv_kernel(rule["params"])],
                   params={**rule["params"], "TRANS_B": rule["trans_b"],
                           "T": t}, fmt="ptx")
        compiled += 1
print(f"rules compiled: {compiled}")
