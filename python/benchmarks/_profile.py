"""--profile ncu|nsys for the benchmarks, as tile-run's and tile-bench's
(lib/Host/profile.h): the same command, less --profile and
--profile-out, runs again under Nsight Compute (one launch of our kernel:
the first timed one of the first shape, every section, the clocks left
alone) or Nsight Systems (a CUDA trace). Where the tool is not found, the
command is printed on stdout and the exit status is 1.

The tool is $TILE_NCU or $TILE_NSYS when set (and only it), else the first
found on PATH, in $CUDA_HOME/bin (/usr/local/cuda/bin), or in
/opt/nvidia/nsight-compute/VERSION/ (ncu) or
/opt/nvidia/nsight-systems/VERSION/bin/ (nsys), the last version in name
order.
"""

from __future__ import annotations

import argparse
import glob
import os
import shlex
import shutil
import sys
from pathlib import Path

TOOLS = ("ncu", "nsys")


def add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--profile", choices=TOOLS,
                   help="run this command again under Nsight Compute (our "
                        "kernel's first timed launch, every section, the "
                        "clocks untouched) or Nsight Systems; where the "
                        "tool is not found, print the command and exit 1")
    p.add_argument("--profile-out", metavar="FILE",
                   help="the report (default: SCRIPT-profile, in the "
                        "working directory)")


def find(tool: str) -> str | None:
    """Where `tool` is (see above), or None."""
    env = os.environ.get(f"TILE_{tool.upper()}")
    if env:
        return env if os.access(env, os.X_OK) else None
    found = shutil.which(tool)
    if found:
        return found
    cuda = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
    path = os.path.join(cuda, "bin", tool)
    if os.access(path, os.X_OK):
        return path
    pattern = ("/opt/nvidia/nsight-compute/*/ncu" if tool == "ncu"
               else "/opt/nvidia/nsight-systems/*/bin/nsys")
    found = [p for p in sorted(glob.glob(pattern)) if os.access(p, os.X_OK)]
    return found[-1] if found else None


def without_profile(argv: list[str]) -> list[str]:
    """`argv` less --profile, --profile-out and --csv and their values (the
    run under the profiler would overwrite the CSV with slowed timings)."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a in ("--profile", "--profile-out", "--csv"):
            skip = True
        elif not a.startswith(("--profile=", "--profile-out=", "--csv=")):
            out.append(a)
    return out


def command(tool: str, out: str, kernel_regex: str, launch_skip: int,
            app: list[str]) -> list[str]:
    if tool == "ncu":
        return ["ncu", "--clock-control", "none", "--launch-skip",
                str(launch_skip), "--launch-count", "1", "--set", "full",
                "--force-overwrite", "--kernel-name", kernel_regex,
                "-o", out, *app]
    return ["nsys", "profile", "--trace", "cuda", "--force-overwrite",
            "true", "-o", out, *app]


def maybe_profile(args: argparse.Namespace, script: str, kernel_regex: str,
                  argv: list[str] | None) -> None:
    """With --profile, replaces this process by the same command under the
    profiler, or prints that command and exits 1; else returns. Our kernel
    (ncu: `kernel_regex`) runs once for the check, then `--warmup` times,
    before its first timed launch."""
    if not args.profile:
        return
    argv = sys.argv[1:] if argv is None else argv
    script = str(Path(script).resolve())
    out = args.profile_out or f"{Path(script).stem}-profile"
    cmd = command(args.profile, out, kernel_regex, 1 + args.warmup,
                  [sys.executable, script, *without_profile(argv)])
    tool = find(args.profile)
    if tool is None:
        where = os.environ.get(f"TILE_{args.profile.upper()}")
        why = (f"TILE_{args.profile.upper()}='{where}' is not an executable"
               if where else f"no {args.profile} on PATH, in "
               "$CUDA_HOME/bin or in /opt/nvidia")
        print(f"{Path(script).name}: --profile: {why}; to profile, run:",
              file=sys.stderr)
        print(shlex.join(cmd))
        raise SystemExit(1)
    cmd[0] = tool
    print(f"{Path(script).name}: running under {args.profile}: "
          f"{shlex.join(cmd)}", file=sys.stderr, flush=True)
    sys.stdout.flush()
    os.execv(tool, cmd)
