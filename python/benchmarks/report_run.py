"""Runs the report's jobs (report_plan.py), each in a process of its own
with its output in logs/NAME.log, and turns the CSV each wrote into rows
of the tidy table (report_data.py). A job that fails, times out or leaves
out an implementation costs only its own rows, which are recorded as
missing; the others run on. Also collects the facts of the run (env.json).
"""

from __future__ import annotations

import csv
import datetime
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from report_data import COLUMNS, number
from report_plan import Job, Settings, plan


def progress(text: str) -> None:
    print(f"report: {text}", file=sys.stderr, flush=True)


def child_env(s: Settings, llvm_lib: str | None) -> dict:
    """The environment of every job: ptxas on PATH, our libraries for the
    scripts, LLVM's when given, unbuffered Python."""
    env = dict(os.environ)
    cuda = env.get("CUDA_HOME", "/usr/local/cuda")
    env["PATH"] = f"{cuda}/bin:{env.get('PATH', '')}"
    env.setdefault("TILE_MLIR_LIB_DIR", str(s.build / "lib"))
    if llvm_lib:
        env["LD_LIBRARY_PATH"] = os.pathsep.join(
            filter(None, [llvm_lib, env.get("LD_LIBRARY_PATH")]))
    env["PYTHONUNBUFFERED"] = "1"
    return env


def run_job(job: Job, env: dict, log: Path, echo: bool) -> tuple[int, str]:
    """Runs `job`, its output into `log` (and to stderr with `echo`).
    Returns its exit status (-9 when killed at its timeout, 127 when it
    could not start) and what went wrong ("" when nothing did)."""
    with open(log, "w") as f:
        f.write(f"$ {shlex.join(job.argv)}\n")
        f.flush()
        try:
            p = subprocess.Popen(job.argv, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, env=env,
                                 text=True, errors="replace",
                                 start_new_session=True)
        except OSError as e:
            f.write(f"{e}\n")
            return 127, str(e)
        expired = threading.Event()

        def kill():
            """Ends the job's process group (its own session)."""
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        def expire():
            expired.set()
            kill()
        timer = threading.Timer(job.timeout_s, expire)
        timer.start()
        try:
            for line in p.stdout:
                f.write(line)
                if echo:
                    sys.stderr.write("    " + line)
                    sys.stderr.flush()
            rc = p.wait()
        except BaseException:
            kill()
            p.wait()
            raise
        finally:
            timer.cancel()
    if expired.is_set():
        return rc, f"killed after {job.timeout_s:.0f} s"
    return rc, "" if rc == 0 else f"exit status {rc}"


# ===--------------------------------------------------------------------=== #
# What each harness wrote, as tidy rows
# ===--------------------------------------------------------------------=== #


def read_table(path: Path) -> list[dict]:
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except OSError:
        return []


def verdict(err: str) -> tuple[str, str]:
    """(rel_err, check) of a script's error cell: "1.2e-03", "1.2e-03
    FAIL", "FAIL(nan)" or empty."""
    if not err:
        return "", ""
    first = err.split()[0]
    return ("" if number(first) is None else first,
            "FAIL" if "FAIL" in err else "pass")


def row(base: dict, impl: str, kernel: str, ms, throughput,
        err: str = "") -> dict:
    rel_err, check = verdict(err)
    ms, throughput = number(ms), number(throughput)
    return {**base, "impl": impl, "kernel": kernel,
            "ms": "" if ms is None else f"{ms:.6g}",
            "throughput": "" if throughput is None else f"{throughput:.6g}",
            "rel_err": rel_err, "check": check if ms else "missing"}


def per_ms(work: float, value) -> float | None:
    """work / ms in 10^12 per second, or ms from such a rate: the same
    division."""
    v = number(value)
    return work / v / 1e9 if v else None


def tile_bench_rows(job: Job, table: list[dict]) -> list[dict]:
    return [{**t, "shape": t["size"], "source": job.source} for t in table]


def softmax_rows(job: Job, table: list[dict]) -> list[dict]:
    out = []
    for t in table:
        base = {"op": "softmax", "shape": f"{t['M']}x{t['N']}",
                "dtype": job.dtype, "variant": "", "unit": "TB/s",
                "source": job.source}
        out.append(row(base, "ours", t["kernel"], t["ours ms"],
                       t["ours TB/s"], t["err"]))
        if "tuned" in t:
            out.append(row(base, "ours-tuned", t["tuned"], t["tuned ms"],
                           t["tuned TB/s"], t["tuned err"]))
        out.append(row(base, "torch", "torch.softmax", t["torch ms"],
                       t["torch TB/s"]))
        out.append(row(base, "copy", "torch copy_", t["copy ms"],
                       t["copy TB/s"]))
    return out


def attention_rows(job: Job, table: list[dict]) -> list[dict]:
    out = []
    for t in table:
        b, h, s, d = (int(t[k]) for k in "BHSD")
        causal = t["causal"] == "yes"
        flops = 4 * b * h * s * s * d / (2 if causal else 1)
        base = {"op": "attention", "shape": f"{b}x{h}x{s}x{d}",
                "dtype": job.dtype,
                "variant": "causal" if causal else "non-causal",
                "unit": "TFLOP/s", "source": job.source}
        name = f"attention{'_causal' if causal else ''}_d{d}_{job.dtype}"
        out.append(row(base, "ours", name, t["ours ms"], t["ours TF/s"],
                       t["err"]))
        if "tuned" in t:
            out.append(row(base, "ours-tuned", t["tuned"], t["tuned ms"],
                           t["tuned TF/s"], t["tuned err"]))
        for impl, col, kernel in (("sdpa-flash", "flash TF/s", "FLASH"),
                                  ("sdpa-cudnn", "cudnn TF/s", "CUDNN")):
            out.append(row(base, impl, f"SDPBackend.{kernel}_ATTENTION",
                           per_ms(flops, t[col]), t[col]))
    return out


def gemm_bias_gelu_rows(job: Job, table: list[dict]) -> list[dict]:
    out = []
    for t in table:
        m, n, k = (int(t[x]) for x in "MNK")
        flops = 2 * m * n * k
        base = {"op": "gemm_bias_gelu", "shape": f"{m}x{n}x{k}",
                "dtype": job.dtype, "variant": job.variant,
                "unit": "TFLOP/s", "source": job.source}
        out.append(row(base, "ours", "gemm_bias_gelu_f16", t["fused ms"],
                       t["fused TF/s"], t["fused err"]))
        out.append(row(base, "ours-plain", "gemm_f16", t["gemm ms"],
                       t["gemm TF/s"]))
        for impl, col, kernel in (
                ("cublaslt", "cuBLASLt ms", "torch._addmm_activation"),
                ("torch", "unfused ms", "gelu(a @ b + bias)"),
                ("cublas", "cuBLAS ms", "torch.matmul")):
            out.append(row(base, impl, kernel, t[col],
                           per_ms(flops, t[col])))
    return out


PARSERS = {
    "tile-bench": tile_bench_rows,
    "bench_softmax.py": softmax_rows,
    "bench_attention.py": attention_rows,
    "bench_gemm_bias_gelu.py": gemm_bias_gelu_rows,
}


def job_rows(job: Job) -> list[dict]:
    """The rows of what `job` wrote, and a missing row for each expected
    implementation it did not time."""
    try:
        rows = PARSERS[job.source](job, read_table(job.csv))
    except (KeyError, ValueError) as e:
        progress(f"{job.name}: cannot read {job.csv}: {e!r}")
        rows = []
    timed = {(r["shape"], r["variant"], r["impl"]) for r in rows
             if number(r.get("ms"))}
    have = {(r["shape"], r["variant"], r["impl"]) for r in rows}
    for shape, variant, impl in job.expect:
        if (shape, variant, impl) in timed:
            continue
        if (shape, variant, impl) not in have:
            rows.append({"op": job.op, "shape": shape, "dtype": job.dtype,
                         "variant": variant, "impl": impl,
                         "source": job.source, "check": "missing"})
    rows = [{c: r.get(c, "") for c in COLUMNS} for r in rows]
    for r in rows:
        if not number(r["ms"]) and not r["check"]:
            r["check"] = "missing"
    return rows


def run_all(s: Settings, env: dict, echo: bool) -> tuple[list, list]:
    """Runs every job of the plan; returns the rows and, per job, what
    became of it (env.json's runs)."""
    for d in ("raw", "logs"):
        (s.out / d).mkdir(parents=True, exist_ok=True)
    rows, runs = [], []
    jobs = plan(s)
    for i, job in enumerate(jobs, 1):
        step = f"[{i}/{len(jobs)}] {job.name}"
        progress(f"{step}: {shlex.join(job.argv)}")
        if job.csv:
            job.csv.unlink(missing_ok=True)
        log = s.out / "logs" / f"{job.name}.log"
        start = time.monotonic()
        rc, error = run_job(job, env, log, echo)
        seconds = time.monotonic() - start
        got = job_rows(job) if job.csv else []
        rows += got
        lost = sum(r["check"] == "missing" for r in got)
        progress(f"{step}: {error or 'done'} in {seconds:.0f} s, "
                 f"{len(got) - lost} measurements"
                 + (f", {lost} missing" if lost else "")
                 + (f" (see {log})" if error else ""))
        runs.append({"name": job.name, "command": shlex.join(job.argv),
                     "rc": rc, "seconds": round(seconds, 1),
                     "log": str(log.relative_to(s.out)), "error": error})
    return rows, runs


# ===--------------------------------------------------------------------=== #
# The facts of the run
# ===--------------------------------------------------------------------=== #

SMI_FIELDS = ["name", "driver_version", "clocks.sm", "clocks.max.sm",
              "clocks.mem", "temperature.gpu", "power.draw", "pstate"]


def nvidia_smi(device: int) -> dict:
    """nvidia-smi's view of GPU `device`, and the CUDA version of its
    driver; {"error": ...} without it."""
    try:
        q = subprocess.run(
            ["nvidia-smi", f"--id={device}",
             f"--query-gpu={','.join(SMI_FIELDS)}",
             "--format=csv,noheader,nounits"],
            capture_output=True, text=True, timeout=30)
        if q.returncode != 0:
            return {"error": q.stderr.strip() or f"exit {q.returncode}"}
        facts = dict(zip(SMI_FIELDS, (v.strip() for v in
                                      q.stdout.strip().split(","))))
        plain = subprocess.run(["nvidia-smi"], capture_output=True,
                               text=True, timeout=30).stdout
        m = re.search(r"CUDA Version:\s*([0-9.]+)", plain)
        if m:
            facts["cuda_driver"] = m.group(1)
        return facts
    except (OSError, subprocess.TimeoutExpired) as e:
        return {"error": str(e)}


def torch_facts(s: Settings, env: dict, device: int) -> dict:
    """report_env.py's facts and limits, or {"torch_error": ...}."""
    script = Path(__file__).with_name("report_env.py")
    try:
        p = subprocess.run([s.python, str(script), "--device", str(device)],
                           capture_output=True, text=True, env=env,
                           timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {"torch_error": str(e)}
    if p.returncode != 0:
        tail = p.stderr.strip().splitlines()
        return {"torch_error": tail[-1] if tail else f"exit {p.returncode}"}
    return json.loads(p.stdout)


def tool_version(argv: list[str], env: dict) -> str:
    """The line of `argv`'s output that names a release, else its last
    line; "" when it fails."""
    try:
        p = subprocess.run(argv, capture_output=True, text=True, env=env,
                           timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    lines = p.stdout.strip().splitlines() if p.returncode == 0 else []
    named = [x for x in lines if "release" in x]
    return (named or lines or [""])[-1]


def start_env(s: Settings, env: dict, device: int, argv: list[str]) -> dict:
    """env.json before the jobs run."""
    now = datetime.datetime.now(datetime.timezone.utc)
    facts = {"date": now.strftime("%Y-%m-%d %H:%M UTC"),
             "command": shlex.join(argv),
             "iters": s.iters, "warmup": s.warmup, "tuned": s.tuned,
             "quick": s.quick,
             "commit": tool_version(["git", "-C", str(s.repo), "rev-parse",
                                     "--short", "HEAD"], env),
             "ptxas": tool_version(["ptxas", "--version"], env),
             "nvidia_smi_before": nvidia_smi(device)}
    progress("measuring the tensor-core peak and the copy bandwidth (torch)")
    facts.update(torch_facts(s, env, device))
    return facts
