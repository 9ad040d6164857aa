#!/usr/bin/env python3
"""The PTX of every instance of every kernel in kernels/ (the examples
too), to check that a change to the compiler leaves the generated code as
it was, or to see exactly where it does not.

    tools/kernel-ptx.py write DIR      # one DIR/<source>.ptx per source
    tools/kernel-ptx.py compare DIR    # compile again and compare with DIR

Each source is compiled with `tile-opt --tile-to-ptx` (every instance, the
default chip and features); the PTX is the gpu.binary's assembly. A typical
use: `write` at the commit before a change (a worktree and its own build),
then `compare` with the change built. `compare` prints one line per source
and, for a difference, the first differing lines of each kernel; it exits 1
when a source differs, is missing, or does not compile.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOURCES = ("kernels/*.mlir", "kernels/examples/*.mlir")


def unescape(text: str) -> str:
    """An MLIR string literal's body: \\XX hex bytes, \\\\ and \\"."""
    out, i = bytearray(), 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt in "\\\"":
                out += nxt.encode()
                i += 2
                continue
            out += bytes.fromhex(text[i + 1:i + 3])
            i += 3
            continue
        out += ch.encode()
        i += 1
    return out.decode()


def ptx_of(tile_opt: str, source: Path) -> str:
    """The PTX of every kernel of `source`."""
    # tile-opt brings its own runtimes: a sanitizer runtime preloaded into
    # this interpreter (the sanitizer test suite does) would clash with it.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    run = subprocess.run([tile_opt, str(source), "--tile-to-ptx"],
                         capture_output=True, text=True, timeout=600, env=env)
    if run.returncode != 0:
        raise RuntimeError(f"{source.name} does not compile (exit "
                           f"{run.returncode}):\n{run.stderr.strip()[:2000]}")
    found = re.findall(r'assembly = "((?:[^"\\]|\\.)*)"', run.stdout)
    if not found:
        raise RuntimeError(f"{source.name}: no assembly in tile-opt's output")
    return "".join(unescape(a) for a in found)


def sources(root: Path) -> list[Path]:
    return sorted(p for pattern in SOURCES for p in root.glob(pattern))


def out_name(root: Path, source: Path) -> str:
    return str(source.relative_to(root)).replace("/", "__") + ".ptx"


def first_difference(old: str, new: str, lines: int = 12) -> str:
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(),
                                "recorded", "now", n=1, lineterm="")
    return "\n".join(list(diff)[:lines])


def main() -> int:
    p = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("action", choices=("write", "compare"))
    p.add_argument("dir", type=Path)
    p.add_argument("--tile-opt", default=str(REPO / "build/bin/tile-opt"),
                   help="the tile-opt to compile with (default: %(default)s)")
    p.add_argument("--root", type=Path, default=REPO,
                   help="the checkout whose kernels/ are compiled "
                        "(default: this one)")
    args = p.parse_args()
    root = args.root.resolve()
    if args.action == "write":
        args.dir.mkdir(parents=True, exist_ok=True)
    bad = 0
    for source in sources(root):
        name = out_name(root, source)
        try:
            ptx = ptx_of(args.tile_opt, source)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            print(f"FAIL {name}: {e}")
            bad += 1
            continue
        path = args.dir / name
        if args.action == "write":
            path.write_text(ptx)
            entries = ptx.count(".entry ")
            print(f"wrote {name}: {entries} kernels, {len(ptx)} bytes")
            continue
        if not path.is_file():
            print(f"MISSING {name}: nothing recorded")
            bad += 1
        elif path.read_text() == ptx:
            print(f"identical {name}")
        else:
            print(f"DIFFERENT {name}\n"
                  f"{first_difference(path.read_text(), ptx)}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
