"""Writes tile-fuzz's seed corpus: every kernel in kernels/, every
`// -----` chunk of the .mlir tests, one file each, the fuzzer's own
past findings (test/Fuzz/regressions, each fixed), and the structured
seeds of structured_seeds.py: hostile bindings of every parameter of the
kernels and of test/Fuzz/Inputs, nested regions in element-wise bodies,
plain copies of every element type, fills at the edges of each type, and
loops and atomics whose step, value or offset is zero, negative or
different per thread.

The invalid-IR tests hold the inputs that once crashed or hung the
compiler (sub-byte shared tiles, hostile kernel names, PTX features the
target lacks, runaway stage counts and fragments, zero loop steps, deep
nesting), so the fuzzer starts from them and mutates around them.

Usage: make_corpus.py OUT_DIR SOURCE_ROOT [--smoke]

--smoke keeps what CI runs in its minute: the bindings of the small
kernels only, one in SMOKE_STRIDE of them, and fewer nested regions.
"""

import hashlib
import itertools
import pathlib
import sys

import structured_seeds

# In --smoke, one binding seed in this many, and this many nested regions.
SMOKE_STRIDE = 7
SMOKE_NESTED = 20
NESTED = 300


def chunks(path: pathlib.Path):
    text = path.read_text(errors="replace")
    for chunk in text.split("// -----"):
        # RUN/CHECK lines are lit's, not the compiler's input.
        lines = [l for l in chunk.splitlines()
                 if not l.lstrip().startswith(("// RUN", "// CHECK"))]
        body = "\n".join(lines).strip()
        if body:
            yield body + "\n"


def structured(root: pathlib.Path, smoke: bool):
    """The structured seeds, as (name, text) pairs."""
    inputs = sorted((root / "test" / "Fuzz" / "Inputs").glob("*.mlir"))
    kernels = [] if smoke else sorted((root / "kernels").glob("*.mlir"))
    bindings = itertools.chain.from_iterable(
        structured_seeds.binding_seeds(path.read_text(), path.stem)
        for path in inputs + kernels)
    if smoke:
        bindings = itertools.islice(bindings, 0, None, SMOKE_STRIDE)
    yield from bindings
    yield from structured_seeds.nested_region_seeds(
        SMOKE_NESTED if smoke else NESTED)
    yield from structured_seeds.element_type_seeds()
    yield from structured_seeds.hostile_class_seeds()


def main() -> int:
    out, root = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    smoke = "--smoke" in sys.argv[3:]
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
    generated = 0
    for name, text in structured(root, smoke):
        (out / name).write_text(text)
        generated += 1
    print(f"{count} seeds from {len(sources)} files, {generated} structured")
    count += generated
    return 0 if count else 1


if __name__ == "__main__":
    sys.exit(main())
