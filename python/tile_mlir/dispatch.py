"""Which configuration tile_mlir.ops runs for a problem (host only).

A configuration is a set of parameter bindings of one of kernels/*.mlir's
parametric kernels. For a problem the tuning cache has, the tuned one
wins (ops.py looks it up); for any other, the dispatch rules of
dispatch_rules.json choose by shape class:

- softmax: the first rule whose ``max_n`` (null: unbounded) holds the row
  length;
- gemm and gemm + bias + GELU: the first rule whose ``min_tiles`` the
  problem reaches, counting output tiles of that rule's own BM x BN (a
  problem too small to fill the GPU with large tiles takes smaller ones);
- attention: the kernel's defaults, with D and CAUSAL from the problem.

The rules are data, regenerated from tuned results by rules_from_tuned
(python/benchmarks/bench_ops.py --tune --write-rules), so that a change of
the kernels or of the GPU is answered by tuning again, not by editing code.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Iterable, Mapping

RULES_FILE = Path(__file__).with_name("dispatch_rules.json")
_rules_cache: dict[str, dict] = {}


def load_rules(path: str | Path | None = None) -> dict:
    """The rules of `path` (default: the package's dispatch_rules.json)."""
    key = str(path or RULES_FILE)
    rules = _rules_cache.get(key)
    if rules is None:
        rules = _rules_cache[key] = json.loads(Path(key).read_text())
    return rules


def _type_binding(dtype: str) -> dict:
    if dtype not in ("f16", "bf16"):
        raise ValueError(f"tile_mlir.ops supports f16 and bf16, got {dtype}")
    return {"T": dtype}


def softmax_config(n: int, dtype: str, rules: Mapping | None = None) -> dict:
    """The bindings of kernels/softmax.mlir's `softmax` for rows of `n`
    elements of `dtype` ("f16" or "bf16")."""
    if n < 1:
        raise ValueError(f"softmax rows need at least one element, got {n}")
    for rule in (rules or load_rules())["softmax"]:
        if rule["max_n"] is None or n <= rule["max_n"]:
            return {**rule["params"], **_type_binding(dtype)}
    raise ValueError(f"no softmax rule holds rows of {n} elements (the "
                     f"last rule should be unbounded)")


def gemm_tiles(m: int, n: int, bm: int, bn: int) -> int:
    """Output tiles of a BM x BN tiling of an M x N result."""
    return math.ceil(m / bm) * math.ceil(n / bn)


def gemm_config(m: int, n: int, k: int, dtype: str,
                rules: Mapping | None = None) -> dict:
    """The bindings of kernels/gemm.mlir's `gemm` (and gemm_bias_gelu's)
    for an M x N x K problem with `dtype` inputs."""
    for rule in (rules or load_rules())["gemm"]:
        p = rule["params"]
        if gemm_tiles(m, n, p["BM"], p["BN"]) >= rule["min_tiles"]:
            return {**p, **_type_binding(dtype)}
    raise ValueError(f"no gemm rule takes {m}x{n}x{k} (the last rule "
                     f"should have min_tiles 0)")


def attention_config(d: int, causal: bool, dtype: str,
                     rules: Mapping | None = None) -> dict:
    """The bindings of kernels/flash_attention.mlir's `attention`."""
    if d not in (64, 128):
        raise ValueError(f"attention supports head dimensions 64 and 128, "
                         f"got {d}")
    params = dict((rules or load_rules())["attention"][0]["params"])
    return {**params, "D": d, "CAUSAL": bool(causal),
            **_type_binding(dtype)}


def rules_from_tuned(op: str, tuned: Iterable[tuple[tuple[int, ...], dict]],
                     rules: Mapping | None = None) -> list[dict]:
    """New rules for `op` ("softmax" or "gemm") from tuned results:
    (shape, bindings) pairs, the shape (M, N) or (M, N, K).

    softmax: one rule per tuned row length, in increasing order, bounded
    by it (the last unbounded), taking the configuration tuned for the
    largest problem of that length; gemm: one rule per tuned problem, its
    min_tiles the tile count of its own configuration there, the largest
    first (the last takes min_tiles 0). Type bindings are dropped (the
    caller's dtype binds T)."""
    def strip(p):
        return {k: v for k, v in p.items() if k not in ("T", "TC")}
    tuned = list(tuned)
    if op == "softmax":
        best: dict[int, tuple[int, dict]] = {}
        for (m, n), params in tuned:
            if n not in best or m > best[n][0]:
                best[n] = (m, strip(params))
        out = [{"max_n": n, "params": p} for n, (_, p) in sorted(best.items())]
        if out:
            out[-1]["max_n"] = None
        return out
    if op == "gemm":
        out = []
        for (m, n, _k), params in tuned:
            p = strip(params)
            out.append({"min_tiles": gemm_tiles(m, n, p["BM"], p["BN"]),
                        "params": p})
        out.sort(key=lambda r: -r["min_tiles"])
        seen, unique = set(), []
        for r in out:  # one rule per configuration: its largest problem
            key = json.dumps(r["params"], sort_keys=True)
            if key not in seen:
                seen.add(key)
                unique.append(r)
        if unique:
            unique[-1]["min_tiles"] = 0
        return unique
    raise ValueError(f"rules are regenerated for softmax and gemm, not {op}")
