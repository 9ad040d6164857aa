#!/usr/bin/env python3
"""The benchmark report: one command runs the four operators over the
shape sets of docs/BENCHMARKS.md against every peer (tile-bench: GEMM
against cuBLAS, GEMM + bias + GELU against cuBLASLt; the scripts of
python/benchmarks: the fused GEMM against torch, softmax against torch and
the copy, attention against SDPA's FlashAttention and cuDNN backends), with
--tuned the autotuner's configurations beside ours, and writes into DIR:

  results.csv   one row per measurement (op, shape, dtype, variant, impl,
                kernel, ms, throughput, unit, rel_err, check, source) and
                our rows' ratios to each peer (vs_PEER: peer time / ours)
  env.json      date, GPU, driver, CUDA, torch, SM clock before and after,
                SM count, the tensor-core peak and copy bandwidth measured
                in the same run, and what became of each command
  tables.md     the Markdown tables of docs/BENCHMARKS.md
  ratio_OP.png, throughput_OP.png   the charts (matplotlib)
  raw/, logs/   each command's own CSV and output

A command that fails costs only its own measurements, recorded as missing.
The exit status is 0 when every command ran and every check passed, else 1
(the report is written either way).

  report.py --out DIR [--tuned] [--ops gemm,softmax] [--quick]
  report.py --render-only DIR [--publish docs/BENCHMARKS.md]

--render-only draws the tables and charts again from DIR/results.csv and
DIR/env.json: no GPU, no torch. --publish copies the charts to
docs/benchmarks/ and replaces the report section of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

import report_data
import report_plan
import report_tables

REPO = Path(__file__).resolve().parents[2]


def parse(argv):
    p = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Environment: CUDA_HOME (ptxas; default /usr/local/cuda), "
               "TILE_MLIR_LIB_DIR (default BUILD/lib), LD_LIBRARY_PATH or "
               "--llvm-lib (libMLIR.so.22.1, libLLVM.so.22.1), "
               "CUDA_VISIBLE_DEVICES (the GPU: the first visible one).")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--out", metavar="DIR", type=Path,
                      help="run the benchmarks and write the report here")
    what.add_argument("--render-only", metavar="DIR", type=Path,
                      help="only redraw DIR's tables and charts from its "
                           "results.csv and env.json")
    p.add_argument("--ops", default=",".join(report_plan.OPS),
                   help="operators, comma-separated (default: %(default)s)")
    p.add_argument("--tuned", action="store_true",
                   help="also the autotuner's configuration of each shape "
                        "(tile-bench --tuned, tile-tune --emit-dir), beside "
                        "ours; tunes what the tuning cache lacks")
    p.add_argument("--quick", action="store_true",
                   help="a few shapes of each operator, fewer runs")
    p.add_argument("--iters", type=int, default=None,
                   help="timed runs per measurement (default 50; 30 with "
                        "--quick; the scripts take at least 30)")
    p.add_argument("--warmup", type=int, default=None,
                   help="untimed runs first (default 10; 5 with --quick)")
    p.add_argument("--build", metavar="DIR", type=Path,
                   default=REPO / "build",
                   help="the build holding bin/ and lib/ "
                        "(default: %(default)s)")
    p.add_argument("--llvm-lib", metavar="DIR",
                   help="put DIR (libMLIR.so.22.1, libLLVM.so.22.1) first "
                        "on the commands' LD_LIBRARY_PATH")
    p.add_argument("--dry-run", action="store_true",
                   help="print the commands, run nothing")
    p.add_argument("--collect-only", action="store_true",
                   help="run nothing: read again what the commands wrote "
                        "in DIR/raw (with the same --ops, --tuned and "
                        "--quick) and write the report from it")
    p.add_argument("--quiet", action="store_true",
                   help="do not echo the commands' output to stderr (it "
                        "is in DIR/logs either way)")
    p.add_argument("--no-charts", action="store_true",
                   help="tables only (no matplotlib needed)")
    p.add_argument("--publish", metavar="DOC", type=Path,
                   help="also put the tables and charts into DOC (e.g. "
                        "docs/BENCHMARKS.md) between its report markers")
    args = p.parse_args(argv)
    args.ops = [o for o in args.ops.split(",") if o]
    bad = [o for o in args.ops if o not in report_plan.OPS]
    if bad:
        p.error(f"--ops: unknown {', '.join(bad)} (want "
                f"{', '.join(report_plan.OPS)})")
    if args.iters is None:
        args.iters = 30 if args.quick else 50
    if args.warmup is None:
        args.warmup = 5 if args.quick else 10
    return args


def finish(directory: Path, rows: list[dict], env: dict, charts: bool,
           publish: Path | None) -> int:
    """Writes tables.md and the charts (and publishes them); 0, or 1 when
    the charts could not be drawn."""
    rc = 0
    if charts:
        try:
            import report_charts
            for path in report_charts.render(rows, env, directory):
                print(f"report: wrote {path}", file=sys.stderr)
        except ImportError as e:
            print(f"report: no charts: {e} (install python3-matplotlib: "
                  "tools/setup.sh), then report.py --render-only "
                  f"{directory}", file=sys.stderr)
            rc = 1
    (directory / "tables.md").write_text(report_tables.markdown(
        rows, env, charts=frozenset(p.name for p in directory.glob("*.png"))))
    print(f"report: wrote {directory / 'tables.md'}", file=sys.stderr)
    if publish:
        report_tables.publish(directory, publish, rows, env)
        print(f"report: updated {publish}", file=sys.stderr)
    return rc


def run(args) -> int:
    import report_run
    s = report_plan.Settings(REPO, args.build.resolve(), args.out.resolve(),
                             args.ops, args.tuned, args.quick, args.iters,
                             args.warmup)
    if args.dry_run:
        for job in report_plan.plan(s):
            print(shlex.join(job.argv))
        return 0
    if args.collect_only:
        rows = [r for job in report_plan.plan(s) if job.csv
                for r in report_run.job_rows(job)]
        facts = report_data.read_env(s.out)
        report_data.write_csv(s.out / "results.csv", rows)
        return finish(s.out, rows, facts, not args.no_charts, args.publish)
    if s.tuned and not (s.build / "bin" / "tile-tune").exists():
        print(f"report: no {s.build}/bin/tile-tune: running without tuned "
              "configurations", file=sys.stderr)
        s.tuned = False
    s.out.mkdir(parents=True, exist_ok=True)
    env = report_run.child_env(s, args.llvm_lib)
    start = time.monotonic()
    facts = report_run.start_env(s, env, 0, [sys.argv[0], *sys.argv[1:]])
    rows, runs = report_run.run_all(s, env, echo=not args.quiet)
    facts["nvidia_smi_after"] = report_run.nvidia_smi(0)
    facts["runs"] = runs
    facts["seconds"] = round(time.monotonic() - start)
    report_data.write_csv(s.out / "results.csv", rows)
    (s.out / "env.json").write_text(json.dumps(facts, indent=2) + "\n")
    rc = finish(s.out, rows, facts, not args.no_charts, args.publish)
    failed = [r["name"] for r in runs if r["error"]]
    wrong = sum(r.get("check") == "FAIL" or r.get("check") == "MISMATCH"
                for r in rows)
    print(f"report: {len(rows)} rows in {s.out / 'results.csv'}, "
          f"{facts['seconds']} s"
          + (f"; failed: {', '.join(failed)}" if failed else "")
          + (f"; {wrong} failed checks" if wrong else ""), file=sys.stderr)
    return 1 if rc or failed or wrong else 0


def main(argv=None) -> int:
    args = parse(argv)
    if args.out:
        return run(args)
    directory = args.render_only
    rows = report_data.read_csv(directory / "results.csv") \
        if (directory / "results.csv").exists() else None
    if rows is None:
        raise SystemExit(f"report: no {directory / 'results.csv'}")
    return finish(directory, rows, report_data.read_env(directory),
                  not args.no_charts, args.publish)


if __name__ == "__main__":
    sys.exit(main())
