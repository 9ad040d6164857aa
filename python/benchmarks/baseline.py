#!/usr/bin/env python3
"""The speed baseline: tile_mlir.ops against its peers on a fixed list of
shapes, recorded in the repository and rerun before a change to the
lowering, the kernels or the dispatch lands (docs/Performance.md).

Per case, in one process, timed in turns (tile_mlir.timing: CUDA events,
L2 flushed, medians, the order shuffled per round), --repeats times:
- ours: what tile_mlir.ops runs for the shape (the dispatch rules; the
  tuning cache is not looked at);
- default: the kernel file's own instance for the shape (softmax_n4096_f16,
  attention_causal_d64_f16, gemm_f16, ...), which the dispatch must never
  be slower than;
- peer: torch.matmul (cuBLAS), gelu(addmm(bias, a, b)) (cuBLASLt plus an
  element-wise kernel, what users run unfused), torch.softmax, or SDPA on
  its cuDNN backend.
Each output is first checked against an fp32 torch reference.

The ratios are speeds: peer/ours above 1 is faster than the peer;
default/ours below 1 means the dispatch picked a slower configuration than
the kernel's instance. The spread is (max - min) / median of peer/ours over
the repeats.

    baseline.py --record docs/benchmarks/baseline.json   # write it
    baseline.py --check docs/benchmarks/baseline.json    # compare
    baseline.py --check OLD --record NEW                 # both

--check exits 1 when a case's peer/ours fell by more than the larger of 5%
and the recorded and measured spreads together, or when ours is slower than
the default instance by more than that margin; it prints every case.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import math
import statistics
import sys
from pathlib import Path

import _common as c

# (op, shape, flags): the benchmark sets plus decode, odd, vocabulary and
# short-sequence shapes.
CASES = [
    ("gemm", (4096, 4096, 4096), {}),
    ("gemm", (8192, 8192, 8192), {}),
    ("gemm", (1024, 1024, 1024), {}),
    ("gemm", (8192, 8192, 1024), {}),
    ("gemm", (4096, 14336, 4096), {}),
    ("gemm", (1, 4096, 4096), {}),
    ("gemm", (16, 4096, 4096), {}),
    ("gemm", (128, 4096, 4096), {}),
    ("gemm", (1000, 3000, 2000), {}),
    ("gemm", (777, 3001, 1234), {}),
    ("gemm", (4096, 50257, 4096), {}),
    ("gemm", (4096, 4096, 4096), {"trans_b": True}),
    ("gemm", (1, 4096, 4096), {"trans_b": True}),
    ("gemm", (16, 4096, 4096), {"trans_b": True}),
    ("gemm", (16, 4096, 14336), {"trans_b": True}),
    ("gemm", (1, 32000, 4096), {"trans_b": True}),
    ("gemm", (1, 14336, 4096), {}),
    ("gemm", (1024, 1024, 1024), {"batch": 8}),
    ("gemm", (256, 256, 256), {"batch": 32}),
    ("gemm_bias_gelu", (4096, 4096, 4096), {}),
    ("gemm_bias_gelu", (512, 16384, 4096), {}),
    ("gemm_bias_gelu", (4096, 4096, 4096), {"trans_b": True}),
    ("softmax", (4096, 4096), {}),
    ("softmax", (16384, 1024), {}),
    ("softmax", (2048, 3000), {}),
    ("softmax", (8192, 128256), {}),
    ("softmax", (4096, 151936), {}),
    ("softmax", (1024, 256000), {}),
    ("softmax", (256, 131072), {}),
    ("softmax", (4096, 65536), {}),
    ("softmax", (8, 262144), {}),
    ("attention", (4, 32, 4096, 64), {"causal": False}),
    ("attention", (4, 32, 4096, 64), {"causal": True}),
    ("attention", (8, 32, 8192, 64), {"causal": False}),
    ("attention", (4, 32, 2048, 64), {"causal": True}),
    ("attention", (4, 32, 4096, 128), {"causal": False}),
    ("attention", (4, 32, 4096, 128), {"causal": True}),
    ("attention", (16, 32, 512, 128), {"causal": False}),
    ("attention", (4, 32, 4096, 128), {"causal": False, "kv_heads": 8}),
    ("attention", (4, 32, 1024, 128), {"causal": True, "kv_heads": 8}),
]

MIN_MARGIN = 0.05


def case_name(op: str, shape, flags) -> str:
    text = f"{op} {'x'.join(map(str, shape))}"
    if flags.get("trans_b"):
        text += " W.T"
    if flags.get("batch"):
        text += f" b{flags['batch']}"
    if flags.get("kv_heads"):
        text += f" kv{flags['kv_heads']}"
    return text + (" causal" if flags.get("causal") else "")


def aligned(shape) -> bool:
    """Whether every row of a gemm's 16-bit operands is a multiple of 16
    bytes, which the kernel file's instances (TMA, no padding) need."""
    return all(side * 2 % 16 == 0 for side in shape[1:])


def instance_name(op: str, shape, flags, dtype: str) -> str:
    """The kernel file's own instance for the shape."""
    if op == "softmax":
        n = shape[1]
        for bound in (128, 512, 1024, 4096, 8192, 57337):
            if n <= bound:
                return f"softmax_n{bound}_{dtype}"
        return f"softmax_{dtype}"
    if op == "attention":
        causal = "causal_" if flags.get("causal") else ""
        group = shape[1] // flags.get("kv_heads", shape[1])
        gqa = f"gqa{group}_" if group > 1 else ""
        return f"attention_{gqa}{causal}d{shape[3]}_{dtype}"
    return f"{op}_{'nt_' if flags.get('trans_b') else ''}{dtype}"


class Case:
    """The inputs of one case and its three runs: ours, default (None where
    no instance of the kernel file takes the shape), peer."""

    def __init__(self, bench: c.Bench, op: str, shape, flags, dtype: str):
        import tile_mlir.ops as ops
        t = c.torch()
        dt = c.torch_dtype(dtype)
        dev = f"cuda:{bench.device}"
        self.op, self.shape, self.flags = op, shape, flags
        self.backend = None
        # What the check compares: all of an output, or (attention) the
        # first batch's first heads, which an fp32 reference holds.
        self.part = lambda out: out
        kernel = bench.kernel(str(c.REPO / "kernels" /
                                  ops._KERNEL_FILES[op]),
                              instance_name(op, shape, flags, dtype))
        if isinstance(kernel, str):
            raise RuntimeError(kernel)
        if op.startswith("gemm") and (not aligned(shape) or
                                      flags.get("batch")):
            kernel = None
        if op in ("gemm", "gemm_bias_gelu"):
            m, n, k = shape
            a = t.randn(m, k, device=dev, dtype=dt)
            w = t.randn(n, k, device=dev, dtype=dt) / math.sqrt(k)
            # x @ W.T reads W in place; the default instance gets W itself.
            b = w.t() if flags.get("trans_b") else w.t().contiguous()
            b_arg = w if flags.get("trans_b") else b
            out = t.empty(m, n, device=dev, dtype=dt)
            if flags.get("batch"):
                # [B, M, K] @ [B, K, N] against torch.bmm.
                a, b = (t.randn(flags["batch"], *rc, device=dev, dtype=dt)
                        / math.sqrt(k) for rc in ((m, k), (k, n)))
                self.ours = lambda: ops.gemm(a, b)
                self.peer = lambda: t.bmm(a, b)
                self.ref = lambda: a.float() @ b.float()
            elif op == "gemm":
                self.ours = lambda: ops.gemm(a, b)
                self.default = lambda: kernel.launch(a, b_arg, out)
                self.peer = lambda: t.matmul(a, b)
                self.ref = lambda: a.float() @ b.float()
            else:
                bias = t.randn(n, device=dev, dtype=dt)
                gelu = t.nn.functional.gelu
                self.ours = lambda: ops.gemm(a, b, bias=bias,
                                             activation="gelu_tanh")
                self.default = lambda: kernel.launch(a, b_arg, bias, out)
                self.peer = lambda: gelu(t.addmm(bias, a, b),
                                         approximate="tanh")
                self.ref = lambda: gelu(t.addmm(bias.float(), a.float(),
                                                b.float()),
                                        approximate="tanh")
        elif op == "softmax":
            x = t.randn(*shape, device=dev, dtype=dt) * 4
            y = t.empty_like(x)
            self.ours = lambda: ops.softmax(x)
            self.default = lambda: kernel.launch(x, y)
            self.peer = lambda: t.softmax(x, dim=-1)
            self.ref = lambda: t.softmax(x.float(), dim=-1)
        else:
            from torch.nn.attention import SDPBackend
            q = t.randn(*shape, device=dev, dtype=dt)
            kv = (shape[0], flags.get("kv_heads", shape[1])) + shape[2:]
            k, v = (t.randn(*kv, device=dev, dtype=dt) for _ in range(2))
            gqa = kv[1] != shape[1]
            o = t.empty_like(q)
            causal = bool(flags.get("causal"))
            scale = 1 / math.sqrt(shape[3])
            sdpa = t.nn.functional.scaled_dot_product_attention
            self.backend = SDPBackend.CUDNN_ATTENTION
            self.ours = lambda: ops.attention(q, k, v, causal=causal)
            self.default = lambda: kernel.launch(q, k, v, o, scale)
            self.peer = lambda: sdpa(q, k, v, is_causal=causal,
                                     enable_gqa=gqa)
            self.part = lambda out: out[:1, :4]
            group = shape[1] // kv[1]
            self.ref = lambda: sdpa(q[:1, :4].float(),
                                    *(x[:1, :-(-4 // group)].float()
                                      for x in (k, v)),
                                    is_causal=causal, enable_gqa=gqa)
        self.out_of_default = out if op.startswith("gemm") else \
            (y if op == "softmax" else o)
        if kernel is None:
            self.default = None

    def check(self) -> float:
        """The worst relative error of ours and the default instance."""
        ref = self.ref()
        worst = c.rel_fro(self.part(self.ours()), ref)
        if self.default is None:
            return worst
        self.out_of_default.fill_(float("nan"))
        self.default()
        return max(worst, c.rel_fro(self.part(self.out_of_default), ref))


def measure(bench: c.Bench, case: Case, repeats: int) -> dict:
    ratios, rows = [], []
    for _ in range(repeats):
        if case.backend is not None:
            from torch.nn.attention import sdpa_kernel
            backend = sdpa_kernel(case.backend)
        else:
            backend = contextlib.nullcontext()
        fns = [case.ours, case.peer] + ([case.default] if case.default
                                         else [])
        with backend:
            times = bench.time_in_turns(fns)
        ours, peer = times[:2]
        rows.append((ours, times[2] if case.default else None, peer))
        ratios.append(peer / ours)
    med = statistics.median
    ours, peer = (med(r[i] for r in rows) for i in (0, 2))
    row = {"ours_ms": ours, "peer_ms": peer, "peer_over_ours": med(ratios),
           "spread": (max(ratios) - min(ratios)) / med(ratios)}
    if case.default:
        row["default_ms"] = med(r[1] for r in rows)
        row["default_over_ours"] = med(r[1] / r[0] for r in rows)
    return row


def margin(recorded: dict | None, now: dict) -> float:
    spread = now["spread"] + (recorded["spread"] if recorded else 0.0)
    return max(MIN_MARGIN, spread)


def main() -> int:
    p = c.parser(__doc__, "kernels/gemm.mlir")
    c.add_dtype_option(p, "every case")
    p.add_argument("--record", metavar="FILE",
                   help="measure every case and write the baseline")
    p.add_argument("--check", metavar="FILE",
                   help="measure every case and compare with FILE (with "
                        "--record too: compare, then write the new one)")
    p.add_argument("--repeats", type=int, default=3,
                   help="timings in turns per case (default: %(default)s)")
    p.add_argument("--only", default="",
                   help="comma-separated ops to run (default: all)")
    p.set_defaults(iters=30)
    args = p.parse_args()
    if not (args.record or args.check):
        p.error("give --record FILE, --check FILE or both")
    c.maybe_profile(args, __file__, "regex:.", None)
    only = set(filter(None, args.only.split(",")))
    bench = c.Bench(args)
    import tile_mlir.ops as ops
    ops.use_tuning_cache = False
    bench.banner("speed baseline: tile_mlir.ops against its peers")
    t = c.torch()
    recorded, same_gpu = {}, True
    if args.check:
        old = json.loads(Path(args.check).read_text())
        recorded = {r["case"]: r for r in old["cases"]}
        here = t.cuda.get_device_properties(bench.device).name
        same_gpu = old.get("gpu") == here
        if not same_gpu:
            # Ratios move with the card (bandwidth against compute): only a
            # record from this GPU can say that a change made a case slower.
            print(f"# recorded on {old.get('gpu')}, running on {here}: the "
                  f"'was' column is for information, no case is judged "
                  f"slower than it (record this GPU's file to compare)")
    results, failures = [], 0
    print(f"{'case':32} {'ours ms':>9} {'peer/ours':>9} {'was':>6} "
          f"{'def/ours':>8} {'spread':>6} {'rel err':>8}  verdict")
    for op, shape, flags in CASES:
        if only and op not in only:
            continue
        name = case_name(op, shape, flags)
        try:
            case = Case(bench, op, shape, flags, args.dtype)
            err = case.check()
            row = {"case": name, "rel_err": err, **measure(bench, case,
                                                          args.repeats)}
        except Exception as e:  # a refused shape is a result too
            row = {"case": name, "error": f"{type(e).__name__}: {e}"}
        results.append(row)
        was = recorded.get(name)
        if "error" in row:
            verdict = "ERROR " + row["error"][:60]
            failures += bool(was and "error" not in was)
            print(f"{name:32} {verdict}")
            continue
        m = margin(was, row)
        verdict = "ok"
        if not row["rel_err"] <= 2e-2:
            verdict = "WRONG"
        elif same_gpu and was and "peer_over_ours" in was and \
                row["peer_over_ours"] < was["peer_over_ours"] * (1 - m):
            verdict = f"SLOWER than recorded (margin {m:.0%})"
        elif row.get("default_over_ours", 1.0) < 1 - m:
            verdict = f"SLOWER than the default instance (margin {m:.0%})"
        failures += verdict != "ok"
        before = f"{was['peer_over_ours']:6.3f}" if was and \
            "peer_over_ours" in was else "     -"
        print(f"{name:32} {row['ours_ms']:9.4f} {row['peer_over_ours']:9.3f} "
              f"{before} {row.get('default_over_ours', math.nan):8.3f} "
              f"{row['spread']:6.1%} {row['rel_err']:8.1e}  {verdict}")
    if args.record:
        props = t.cuda.get_device_properties(bench.device)
        doc = {"about": "tile_mlir.ops against its peers "
                        "(python/benchmarks/baseline.py)",
               "date": datetime.date.today().isoformat(),
               "gpu": props.name, "clocks": c.sm_clock(bench.device),
               "torch": t.__version__, "dtype": args.dtype,
               "iters": args.iters, "repeats": args.repeats,
               "cases": results}
        Path(args.record).write_text(json.dumps(doc, indent=1) + "\n")
        print(f"# wrote {args.record}")
    bench.close()
    print(f"# {failures} case(s) regressed, wrong or newly failing"
          if failures else "# every case holds")
    return 1 if args.check and failures else 0


if __name__ == "__main__":
    sys.exit(main())
