"""Checks that every C and C++ source of the project is formatted as its
.clang-format says (clang-format.test); prints the files that are not, and
the command that formats them.

Usage: check_format.py SOURCE_ROOT CLANG_FORMAT
"""
import subprocess
import sys
from pathlib import Path

root, clang_format = Path(sys.argv[1]), sys.argv[2]
SUFFIXES = {".c", ".h", ".cpp", ".hpp"}
files = sorted(
    p for top in ("include", "lib", "tools", "test")
    for p in (root / top).rglob("*")
    if p.suffix in SUFFIXES and p.is_file() and "Inputs" not in p.parts)
unformatted = [
    p for p in files
    if subprocess.run([clang_format, "--dry-run", "-Werror", str(p)],
                      capture_output=True).returncode != 0]
print(f"checked {len(files)} files, {len(unformatted)} unformatted")
for p in unformatted:
    print(f"  {p.relative_to(root)}")
if unformatted:
    print(f"format them: {clang_format} -i " +
          " ".join(str(p.relative_to(root)) for p in unformatted))
sys.exit(1 if unformatted else 0)
