"""Writes tile-fuzz's seed corpus: every kernel in kernels/, every
`// -----` chunk of the .mlir tests, one file each, and the fuzzer's own
past findings (test/Fuzz/regressions, each fixed).

The invalid-IR tests hold the inputs that once crashed or hung the
compiler (sub-byte shared tiles, hostile kernel names, PTX features the
target lacks, runaway stage counts and fragments, zero loop steps, deep
nesting), so the fuzzer starts from them and mutates around them.

Usage: make_corpus.py OUT_DIR SOURCE_ROOT
"""

import hashlib
import pathlib
import sys


def chunks(path: pathlib.Path):
    text = path.read_text(errors="replace")
    for chunk in text.split("// -----"):
        # RUN/CHECK lines are lit's, not the compiler's input.
        lines = [l for l in chunk.splitlines()
                 if not l.lstrip().startswith(("// RUN", "// CHECK"))]
        body = "\n".join(lines).strip()
        if body:
            yield body + "\n"


def main() -> int:
    out, root = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    sources = sorted((root / "kernels").glob("*.mlir"))
    sources += sorted((root / "test").rglob("*.mlir"))
    count = 0
    for finding in sorted((root / "test" / "Fuzz" / "regressions").iterdir()):
        (out / finding.name).write_bytes(finding.read_bytes())
        count += 1
    for source in sources:
        for body in chunks(source):
            name = hashlib.sha1(body.encode()).hexdigest()
            (out / name).write_text(body)
            count += 1
    print(f"{count} seeds from {len(sources)} files")
    return 0 if count else 1


if __name__ == "__main__":
    sys.exit(main())
