"""Which configuration tile_mlir.ops runs for a problem (host only).

A configuration is a set of parameter bindings of one of kernels/*.mlir's
parametric kernels. For a problem the tuning cache has, the tuned one
wins (ops.py looks it up); for any other, the dispatch rules of
dispatch_rules.json choose by shape class:

- softmax: the first rule whose ``max_n`` (null: unbounded) holds the row
  length and whose ``max_m``, where it has one, the number of rows;
- gemm and gemm + bias + GELU: for a tuned problem (a rule's ``shape``,
  sides below 64 counted as 64), the configuration tuned for it; for any
  other, the nearest tuned problem's (gemm_distance), unless
  ``gemm_model`` predicts another configuration clearly faster. The
  model of a configuration is linear in features of the problem under
  its tiling (waves of CTAs over the GPU's SMs, k-steps per wave, the
  bytes the tiles read), fitted to the times every candidate took on
  every tuned problem: 3072^3 and 2048 x 512 x 8192, whose nearest tuned
  shapes' tilings fill the GPU badly there, get tilings that fill it.
- gemv (M = 1): the first rule of the operand's layout (``trans_b``)
  whose ``max_n`` and ``min_n``, where given, hold N; where none does,
  the row is a GEMM of one row (gemm's rules);
- attention: the first rule of the head dimension whose key-length bound
  (min_keys) the problem reaches, with D and CAUSAL from the problem.

The rules are data, regenerated from tuned results by rules_from_tuned
(python/benchmarks/bench_ops.py --tune --write-rules), so that a change of
the kernels or of the GPU is answered by tuning again, not by editing code.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Iterable, Mapping

from .compiler import binding_text

RULES_FILE = Path(__file__).with_name("dispatch_rules.json")
_rules_cache: dict[str, dict] = {}


def load_rules(path: str | Path | None = None) -> dict:
    """The rules of `path` (default: the package's dispatch_rules.json)."""
    key = str(path or RULES_FILE)
    rules = _rules_cache.get(key)
    if rules is None:
        rules = _rules_cache[key] = json.loads(Path(key).read_text())
    return rules


def dump_rules(rules: Mapping) -> str:
    """`rules` as dispatch_rules.json holds them: one line per rule."""
    lines = ["{"]
    items = list(rules.items())
    for i, (key, value) in enumerate(items):
        end = "," if i + 1 < len(items) else ""
        if isinstance(value, list):
            body = ",\n".join("  " + json.dumps(r) for r in value)
            lines.append(f" {json.dumps(key)}: [\n{body}\n ]{end}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}{end}")
    return "\n".join(lines) + "\n}\n"


def _type_binding(dtype: str) -> dict:
    if dtype not in ("f16", "bf16"):
        raise ValueError(f"tile_mlir.ops supports f16 and bf16, got {dtype}")
    return {"T": dtype}


def softmax_config(n: int, dtype: str, rules: Mapping | None = None,
                   rows: int | None = None) -> dict:
    """The bindings of kernels/softmax.mlir's `softmax` for rows of `n`
    elements of `dtype` ("f16" or "bf16"): the first rule whose max_n
    holds n and whose max_m, where the rule has one, holds `rows` (a rule
    with max_m is passed over when `rows` is not given)."""
    if n < 1:
        raise ValueError(f"softmax rows need at least one element, got {n}")
    for rule in (rules or load_rules())["softmax"]:
        if rule["max_n"] is not None and n > rule["max_n"]:
            continue
        if "max_m" in rule and (rows is None or rows > rule["max_m"]):
            continue
        return {**rule["params"], **_type_binding(dtype)}
    raise ValueError(f"no softmax rule holds rows of {n} elements (the "
                     f"last rule should be unbounded)")


def softmax_cluster_config(m: int, n: int, dtype: str,
                           rules: Mapping | None = None) -> dict | None:
    """The bindings of kernels/softmax_cluster.mlir's `softmax_cluster` for
    `m` rows of `n` elements, each row split over the CX blocks of a
    thread-block cluster (W columns a block) and read from memory once: the
    first "softmax_cluster" rule whose max_m holds m and whose min_n and
    CX * W hold n; None where no rule takes the problem (softmax_config's
    kernel runs it)."""
    for rule in (rules or load_rules()).get("softmax_cluster", []):
        p = rule["params"]
        if m > rule["max_m"] or n < rule.get("min_n", 1) or \
                n > p["CX"] * p["W"]:
            continue
        return {**p, **_type_binding(dtype)}
    return None


def gemm_tiles(m: int, n: int, bm: int, bn: int) -> int:
    """Output tiles of a BM x BN tiling of an M x N result."""
    return math.ceil(m / bm) * math.ceil(n / bn)


GEMM_MIN_SIDE = 64


def gemm_distance(a: Iterable[int], b: Iterable[int]) -> float:
    """How far apart two M x N x K problems are for choosing a
    configuration: the sum of |log2| of the ratios of their sides, each
    clamped at GEMM_MIN_SIDE."""
    return sum(abs(math.log2(max(x, GEMM_MIN_SIDE) / max(y, GEMM_MIN_SIDE)))
               for x, y in zip(a, b))


# The model overrules the nearest tuned shape's configuration only where it
# predicts that one this much slower than its own choice: its errors are
# about that size, and within them the measured neighbour is the better
# guess (leaving each of the 27 tuned H200 shapes out in turn: no shape
# above 512^3 below 0.85 of its tuned time, against one at a margin of 0,
# 128x8192x8192, one at 0.2, 512x4096x4096, and five at 0.3).
GEMM_MODEL_MARGIN = 0.10
GEMM_SMEM_PER_SM = 233472  # bytes of shared memory per SM (sm_90)
GEMM_THREADS_PER_SM = 2048


def gemm_features(m: int, n: int, k: int, params: Mapping,
                  sms: int) -> list[float]:
    """What gemm_model's times are linear in, for an M x N x K problem
    under the tiling of `params` on a GPU of `sms` SMs: a constant, waves
    times k-steps, waves (the epilogues), and the gigabytes the tiles
    read. A wave is as many CTAs as fit on every SM at once, by shared
    memory (the ring and the staged C tile, 16-bit elements) and
    threads, and at most two (registers bound the rest)."""
    bm, bn, bk = params["BM"], params["BN"], params["BK"]
    smem = (bm + bn) * bk * 2 * params["STAGES"]
    if params.get("TMA_STORE"):
        smem += bm * bn * 2
    per_sm = max(1, min(GEMM_SMEM_PER_SM // smem,
                        GEMM_THREADS_PER_SM // params["THREADS"], 2))
    tiles = gemm_tiles(m, n, bm, bn)
    waves = math.ceil(tiles / (sms * per_sm))
    return [1.0, waves * math.ceil(k / bk), float(waves),
            tiles * (bm + bn) * k * 2 / 1e9]


def gemm_predict(m: int, n: int, k: int, entry: Mapping, sms: int) -> float:
    """gemm_model's time (ms) for the configuration of `entry`."""
    return sum(c * f for c, f in zip(entry["coef"],
                                     gemm_features(m, n, k, entry["params"],
                                                   sms)))


def _raw_distance(a: Iterable[int], b: Iterable[int]) -> float:
    return sum(abs(math.log2(x / y)) for x, y in zip(a, b))


def gemm_config(m: int, n: int, k: int, dtype: str,
                rules: Mapping | None = None) -> dict:
    """The bindings of kernels/gemm.mlir's `gemm` (and gemm_bias_gelu's)
    for an M x N x K problem with `dtype` inputs: a tuned problem's own;
    else the nearest rule's (gemm_distance; of rules equally near, the
    nearest by unclamped sides, then the first), unless gemm_model
    predicts it GEMM_MODEL_MARGIN slower than its own fastest."""
    if min(m, n, k) < 1:
        raise ValueError(f"gemm needs every side at least 1, got "
                         f"{m}x{n}x{k}")
    rules = rules or load_rules()
    table = rules["gemm"]
    if not table:
        raise ValueError("there are no gemm rules")
    shape = (m, n, k)
    near = min(table, key=lambda r: (gemm_distance(shape, r["shape"]),
                                     _raw_distance(shape, r["shape"])))
    chosen = near["params"]
    model = rules.get("gemm_model")
    if model and gemm_distance(shape, near["shape"]) > 0:
        sms = rules["gemm_sms"]
        best = min(model, key=lambda e: gemm_predict(m, n, k, e, sms))
        mine = [e for e in model if e["params"] == near["params"]]
        if not mine or (gemm_predict(m, n, k, mine[0], sms) >
                        (1 + GEMM_MODEL_MARGIN) *
                        gemm_predict(m, n, k, best, sms)):
            chosen = best["params"]
    return {**chosen, **_type_binding(dtype)}


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination, partial pivoting)."""
    n = len(b)
    m = [row[:] + [v] for row, v in zip(a, b)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-300:
            continue
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-300 else 0.0
            for i in range(n)]


def fit_gemm_model(timings: Mapping[tuple[int, int, int], Mapping[str, float]],
                   configs: Iterable[Mapping], sms: int) -> list[dict]:
    """gemm_model entries for `configs` (parameter bindings) from
    `timings`: per tuned problem, the ms of each candidate by its config
    string ("BK=64 BM=128 ..."); one entry per distinct configuration.
    Least squares on relative error (_fit), over the problems where the
    configuration was timed."""
    out, seen = [], set()
    for params in configs:
        name = config_string(params)
        if name in seen:
            continue
        seen.add(name)
        rows = [(gemm_features(*shape, params, sms), times[name])
                for shape, times in timings.items() if name in times]
        if rows:
            out.append({"params": dict(params),
                        "coef": [float(f"{c:.6g}") for c in _fit(rows)]})
    return out


def _fit(rows: list[tuple[list[float], float]]) -> list[float]:
    """Coefficients c >= 0 minimising sum(((c . f) / t - 1)^2) over
    (f, t) rows: least squares, dropping the most negative coefficient's
    feature until none is negative (times do not fall as work grows)."""
    n = len(rows[0][0])
    active = list(range(n))
    while True:
        ata = [[sum(f[i] * f[j] / (t * t) for f, t in rows) for j in active]
               for i in active]
        atb = [sum(f[i] / t for f, t in rows) for i in active]
        for i in range(len(active)):
            ata[i][i] += 1e-9 * (ata[i][i] or 1.0)
        sol = _solve(ata, atb)
        worst = min(range(len(active)), key=lambda i: sol[i])
        if sol[worst] >= 0 or len(active) == 1:
            coef = [0.0] * n
            for i, c in zip(active, sol):
                coef[i] = max(c, 0.0)
            return coef
        del active[worst]


def config_string(params: Mapping) -> str:
    """Bindings as the tuner spells a configuration: sorted NAME=value,
    booleans as true/false."""
    return " ".join(f"{k}={binding_text(v)}" for k, v in sorted(params.items()))


def gemv_config(n: int, k: int, dtype: str, trans_b: bool,
                rules: Mapping | None = None) -> dict | None:
    """The bindings of kernels/gemv.mlir's `gemv` for y[N] = x[K] . B
    (B [K, N], or with `trans_b` the [N, K] rows of x @ W.T), or None
    where no rule takes the problem (it then runs as a GEMM of one row).
    Bindings with SPLIT are `gemv_splitk`'s (gemv_kernel)."""
    if min(n, k) < 1:
        raise ValueError(f"gemv needs N and K at least 1, got {n} and {k}")
    for rule in (rules or load_rules()).get("gemv", []):
        if rule["trans_b"] != bool(trans_b) or n > rule.get("max_n", n) \
                or n < rule.get("min_n", n):
            continue
        return {**rule["params"], "TRANS_B": bool(trans_b),
                **_type_binding(dtype)}
    return None


def gemv_kernel(config: Mapping) -> str:
    """The kernel of gemv.mlir that gemv_config's bindings are for: K
    split over SPLIT blocks where they bind SPLIT, else the plain one."""
    return "gemv_splitk" if "SPLIT" in config else "gemv"


def splitk_config(m: int, n: int, k: int, dtype: str, trans_b: bool,
                  rules: Mapping | None = None) -> dict | None:
    """The bindings of kernels/gemm_splitk_reduce.mlir's
    `gemm_splitk_reduce` for C[M, N] = A[M, K] . B (B [K, N], or with
    `trans_b` the [N, K] rows of x @ W.T): the first "splitk" rule of the
    layout whose max_m holds M and whose min_k / min_n / max_n, where
    given, hold K and N; None where no rule takes the problem (it then
    runs as a plain GEMM). These are the GEMMs whose output tiles alone
    leave SMs idle: few rows, long K."""
    if min(m, n, k) < 1:
        raise ValueError(f"split-K needs M, N and K at least 1, got {m}, {n} "
                         f"and {k}")
    for rule in (rules or load_rules()).get("splitk", []):
        if rule["trans_b"] != bool(trans_b) or m > rule["max_m"] or \
                k < rule.get("min_k", k) or n < rule.get("min_n", n) or \
                n > rule.get("max_n", n):
            continue
        return {**rule["params"], "TRANS_B": bool(trans_b),
                **_type_binding(dtype)}
    return None


def attention_config(d: int, causal: bool, dtype: str,
                     rules: Mapping | None = None, keys: int = 0) -> dict:
    """The bindings of kernels/flash_attention.mlir's `attention`: the
    first rule of head dimension `d` whose ``min_keys``, if it has one,
    the key length `keys` reaches, with D and CAUSAL from the problem."""
    rule = [r for r in (rules or load_rules())["attention"]
            if r["d"] == d and keys >= r.get("min_keys", 0)]
    if not rule:
        raise ValueError(f"attention supports head dimensions 64 and 128, "
                         f"got {d}")
    return {**rule[0]["params"], "D": d, "CAUSAL": bool(causal),
            **_type_binding(dtype)}


def rules_from_tuned(op: str, tuned: Iterable[tuple[tuple[int, ...], dict]],
                     rules: Mapping | None = None) -> list[dict]:
    """New rules for `op` ("softmax" or "gemm") from tuned results:
    (shape, bindings) pairs, the shape (M, N) or (M, N, K).

    softmax: one rule per tuned row length, in increasing order, bounded
    by it (the last unbounded), taking the configuration tuned for the
    largest problem of that length; gemm: one rule per tuned problem (the
    last tuned of a repeated one), in increasing order of shape. Type
    bindings are dropped (the caller's dtype binds T).

    The rules of `rules` (the current ones) marked ``"pinned"`` (a reason:
    chosen by a measurement the tuner does not make, such as a row bound)
    are kept: a softmax one before the first new rule that holds its row
    lengths, a gemm one unless a tuned problem has its shape."""
    def strip(p):
        return {k: v for k, v in p.items() if k not in ("T", "TC")}
    tuned = list(tuned)
    pinned = [r for r in (rules or {}).get(op, []) if r.get("pinned")]
    if op == "softmax":
        best: dict[int, tuple[int, dict]] = {}
        for (m, n), params in tuned:
            if n not in best or m > best[n][0]:
                best[n] = (m, strip(params))
        out = [{"max_n": n, "params": p} for n, (_, p) in sorted(best.items())]
        if out:
            out[-1]["max_n"] = None
        for rule in pinned:
            bound = math.inf if rule["max_n"] is None else rule["max_n"]
            at = next((i for i, r in enumerate(out)
                       if r.get("pinned") is None and
                       (r["max_n"] is None or r["max_n"] >= bound)),
                      len(out))
            out.insert(at, rule)
        return out
    if op == "gemm":
        best_g = {tuple(shape): strip(params) for shape, params in tuned}
        kept = {tuple(r["shape"]): r for r in pinned
                if tuple(r["shape"]) not in best_g}
        out = [{"shape": list(shape), "params": p}
               for shape, p in best_g.items()] + list(kept.values())
        return sorted(out, key=lambda r: tuple(r["shape"]))
    raise ValueError(f"rules are regenerated for softmax and gemm, not {op}")
