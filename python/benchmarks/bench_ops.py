#!/usr/bin/env python3
"""tile_mlir.ops over sweeps of shapes: softmax row lengths from 32 to
262144, GEMM sizes from 64 to 16384 on each side.

Per shape, timed in turns (CUDA events, L2 flushed, medians): the kernel
tile_mlir.ops picks untuned (the dispatch rules; the tuning cache is not
looked at), torch (torch.softmax; torch.matmul, i.e. cuBLAS), a copy of the
same bytes (softmax) and, with --tune, the configuration tile-tune chooses
for that shape (tuned now, or read from --cache-dir). Each result is
checked against an fp32 torch reference first.

"of tuned" is the tuned kernel's time over the untuned one's: how close
the rules come to tuning each shape. --write-rules FILE writes the rules
regenerated from the tuned configurations (tile_mlir.dispatch), to replace
python/tile_mlir/dispatch_rules.json.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import _common as c

SOFTMAX_N = (32, 64, 100, 128, 200, 256, 500, 512, 1000, 1024, 2048, 3000,
             4096, 5000, 8192, 10000, 16384, 32000, 32768, 50257, 65536,
             131072, 262144)
GEMM_SHAPES = ((64, 64, 64), (128, 128, 128), (256, 256, 256),
               (512, 512, 512), (1024, 1024, 1024), (2048, 2048, 2048),
               (4096, 4096, 4096), (8192, 8192, 8192),
               (16384, 16384, 16384), (64, 4096, 4096), (128, 8192, 8192),
               (256, 8192, 8192), (16, 4096, 4096), (4096, 64, 4096),
               (16384, 128, 4096), (4096, 4096, 64), (8192, 8192, 1024),
               (16384, 2048, 8192), (4096, 14336, 4096), (1000, 3000, 2000),
               (333, 264, 136), (64, 16384, 16384), (16384, 16384, 64))


def softmax_rows(n: int, decode: bool) -> int:
    """Rows for a row length: 16M elements in all (decode: 8 rows)."""
    return 8 if decode else max(1, min(65536, (1 << 24) // n))


def main() -> int:
    p = c.parser(__doc__, "kernels/softmax.mlir")
    p.add_argument("--op", choices=("softmax", "gemm", "both"),
                   default="both")
    p.add_argument("--dtype", choices=("f16", "bf16"), default="f16")
    p.add_argument("--softmax-n", default=",".join(map(str, SOFTMAX_N)),
                   help="row lengths (default: the sweep)")
    p.add_argument("--decode", action="store_true",
                   help="softmax on 8 rows (decode) instead of 16M elements")
    p.add_argument("--gemm-shapes",
                   default=",".join("x".join(map(str, s))
                                    for s in GEMM_SHAPES),
                   help="MxNxK,... (default: the sweep)")
    p.add_argument("--tune", action="store_true",
                   help="also time the tuned configuration of each shape")
    p.add_argument("--cache-dir", help="the tuning cache (default: tile-tune's)")
    p.add_argument("--write-rules", metavar="FILE",
                   help="write rules regenerated from the tuned results "
                        "(needs --cache-dir: the gemm model is fitted to "
                        "every candidate's time there)")
    p.add_argument("--json", metavar="FILE", help="also write the results")
    args = p.parse_args()
    if args.write_rules and not (args.tune and args.cache_dir):
        p.error("--write-rules needs --tune and --cache-dir")
    bench = c.Bench(args)
    torch = c.torch()
    import tile_mlir.dispatch as dispatch
    import tile_mlir.ops as ops
    from tile_mlir.tune import candidate_times
    ops.use_tuning_cache = False
    dtype = c.torch_dtype(args.dtype)
    bench.banner(f"tile_mlir.ops sweep, {args.dtype}: untuned (the dispatch "
                 f"rules) against torch{' and tuned' if args.tune else ''}")
    results, tuned_configs = [], {"softmax": [], "gemm": []}
    gemm_timings = {}  # shape -> {config: ms} of every timed candidate

    def tuned(op, kernel_file, kernel, shape, params):
        r = bench.tm.tune(c.REPO / "kernels" / kernel_file, kernel, op, shape,
                          runtime=ops._runtime(args.device), params=params,
                          cache_dir=args.cache_dir)
        return r, bench.rt.load(r.compiled).kernel(kernel)

    if args.op in ("softmax", "both"):
        print(f"{'M x N':>14} {'untuned ms':>10} {'torch ms':>9} "
              f"{'vs torch':>8} {'of copy':>7}"
              + (f" {'tuned ms':>9} {'of tuned':>8}  tuned" if args.tune
                 else "") + "  untuned configuration")
        for n in (int(v) for v in args.softmax_n.split(",")):
            m = softmax_rows(n, args.decode)
            x = torch.randn(m, n, dtype=dtype, device="cuda")
            y = torch.empty_like(x)
            ref = torch.softmax(x.float(), -1)
            err = c.rel_fro(ops.softmax(x), ref)
            kernel = ops._chosen[("softmax", args.dtype, (m, n), args.device,
                                  ())]
            config = dispatch.softmax_config(n, args.dtype, rows=m)
            dst = torch.empty_like(x)
            fns = [lambda: kernel.launch(x, y), lambda: torch.softmax(x, -1),
                   lambda: dst.copy_(x)]
            row = {"op": "softmax", "shape": [m, n], "rel_err": err,
                   "config": config}
            if args.tune:
                r, tk = tuned("softmax", "softmax.mlir", "softmax", (m, n),
                              {"T": args.dtype})
                y2 = torch.empty_like(x)
                tk.launch(x, y2)
                row["tuned_rel_err"] = c.rel_fro(y2, ref)
                row["tuned_config"] = r.config
                tuned_configs["softmax"].append(((m, n), r.bindings))
                fns.append(lambda: tk.launch(x, y2))
            ms = bench.time_in_turns(fns)
            row.update(untuned_ms=ms[0], torch_ms=ms[1], copy_ms=ms[2])
            line = (f"{m:>7} x {n:<6} {ms[0]:10.4f} {ms[1]:9.4f} "
                    f"{ms[1] / ms[0]:8.2f} {ms[2] / ms[0]:7.2f}")
            if args.tune:
                row["tuned_ms"] = ms[3]
                line += f" {ms[3]:9.4f} {ms[3] / ms[0]:8.2f}  {r.config}"
            short = " ".join(f"{k}={v}" for k, v in config.items()
                             if k != "T")
            print(line + f"  {short}" + ("" if err < 1e-2 else
                                         f"  FAILED rel {err:.3g}"))
            results.append(row)

    if args.op in ("gemm", "both"):
        print(f"{'M x N x K':>20} {'untuned ms':>10} {'cuBLAS ms':>9} "
              f"{'vs cuBLAS':>9}"
              + (f" {'tuned ms':>9} {'of tuned':>8}  tuned" if args.tune
                 else "") + "  untuned configuration")
        for item in args.gemm_shapes.split(","):
            m, n, k = (int(v) for v in item.split("x"))
            a = torch.randn(m, k, dtype=dtype, device="cuda")
            b = torch.randn(k, n, dtype=dtype, device="cuda")
            out = torch.empty(m, n, dtype=dtype, device="cuda")
            ref = a.float() @ b.float()
            err = c.rel_fro(ops.gemm(a, b), ref)
            kernel = ops._chosen[("gemm", args.dtype, (m, n, k), args.device,
                                  (("out", args.dtype),))]
            config = dispatch.gemm_config(m, n, k, args.dtype)
            fns = [lambda: kernel.launch(a, b, out),
                   lambda: torch.matmul(a, b, out=out)]
            row = {"op": "gemm", "shape": [m, n, k], "rel_err": err,
                   "config": config}
            if args.tune:
                r, tk = tuned("gemm", "gemm.mlir", "gemm", (m, n, k),
                              {"T": args.dtype, "TC": args.dtype})
                out2 = torch.empty_like(out)
                tk.launch(a, b, out2)
                row["tuned_rel_err"] = c.rel_fro(out2, ref)
                row["tuned_config"] = r.config
                tuned_configs["gemm"].append(((m, n, k), r.bindings))
                if args.write_rules:
                    gemm_timings[(m, n, k)] = candidate_times(
                        r, args.cache_dir)
                fns.append(lambda: tk.launch(a, b, out2))
            ms = bench.time_in_turns(fns)
            row.update(untuned_ms=ms[0], torch_ms=ms[1])
            line = (f"{m:>6} x {n:>5} x {k:<5} {ms[0]:10.4f} {ms[1]:9.4f} "
                    f"{ms[1] / ms[0]:9.2f}")
            if args.tune:
                row["tuned_ms"] = ms[2]
                line += f" {ms[2]:9.4f} {ms[2] / ms[0]:8.2f}  {r.config}"
            short = " ".join(f"{k}={v}" for k, v in config.items()
                             if k not in ("T", "TC"))
            print(line + f"  {short}" + ("" if err < 1e-2 else
                                         f"  FAILED rel {err:.3g}"))
            results.append(row)

    failed = sum(1 for r in results if r["rel_err"] >= 1e-2)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    if args.write_rules:
        rules = dict(dispatch.load_rules())
        for op, pairs in tuned_configs.items():
            if pairs:
                rules[op] = dispatch.rules_from_tuned(op, pairs, rules)
        if gemm_timings:
            rules["gemm_sms"] = torch.cuda.get_device_properties(
                args.device).multi_processor_count
            rules["gemm_model"] = dispatch.fit_gemm_model(
                gemm_timings, (r["params"] for r in rules["gemm"]),
                rules["gemm_sms"])
        rules["source"] = "bench_ops.py --tune --write-rules"
        Path(args.write_rules).write_text(dispatch.dump_rules(rules))
    bench.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
