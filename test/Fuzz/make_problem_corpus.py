"""Writes tile-fuzz-problem's seed corpus: problem descriptions for the
fuzzer's kernel record (X: f16 2-d, B: i8, I: i32, L: i64, Out: f32 2-d
output, k: i32, n: i64, s: f32; tools/tile-fuzz/tile-fuzz-problem.cpp),
one that binds and the hostile classes around it:

- nesting: arrays and objects nested past the reader's limit, in every
  place a value goes;
- huge, fractional, negative and non-finite numbers in every numeric
  field (shapes, ranges, row shifts, scalars, rtol, flops, bytes);
- names and references holding NUL, the key's separators, or too many
  characters;
- the problem files of the tests and kernels/examples.

Usage: make_problem_corpus.py OUT_DIR SOURCE_ROOT
"""

import copy
import hashlib
import json
import pathlib
import sys

BASE = {
    "args": [
        {"name": "X", "shape": [8, 256], "range": [-1, 1]},
        {"name": "B", "shape": [16], "range": [0, 100]},
        {"name": "I", "shape": [128], "range": [-5, 5], "row_shift": [1]},
        {"name": "L", "shape": [3]},
        {"name": "Out", "shape": [8, 256], "output": True},
        {"name": "k", "value": 3},
        {"name": "n", "value": 5},
        {"name": "s", "value": 0.5},
    ],
    "rtol": 1e-2,
}

# Numbers at and past the edges of every type a field can hold; written
# as JSON text, so that 2^64 and 1e400 stay what a user would write.
NUMBERS = ["0", "-1", "0.5", "-0.0", "127", "128", "-129", "255", "32768",
           "2147483647", "2147483648", "-2147483649", "4294967296",
           "9007199254740993", "9223372036854775807", "9223372036854775808",
           "18446744073709551616", "-9223372036854775809", "1e10", "1e30",
           "1e39", "-1e39", "1e308", "1e400", "-1e400", "65504", "65520",
           "3.4028235e38", "5e-324"]

NAMES = ["X\u0000Y", "A: 4 [-1, 1); B", "x = 1; y", "", "n" * 31, "n" * 32,
         "\u00e9\u00e9", "|", "%s%n"]


def dump(doc) -> str:
    return json.dumps(doc)


def seeds():
    yield "base", dump(BASE)
    # Every numeric field in turn takes every hostile number.
    marker = 7.25e-7  # a number no seed holds, replaced by the text
    fields = []
    for i, arg in enumerate(BASE["args"]):
        for key in ("shape", "range", "row_shift"):
            for j in range(len(arg.get(key, []))):
                fields.append((i, key, j))
        if "value" in arg:
            fields.append((i, "value", None))
    for top in ("rtol", "rtol_bf16", "flops", "bytes"):
        fields.append((None, top, None))
    for field in fields:
        for number in NUMBERS:
            doc = copy.deepcopy(BASE)
            i, key, j = field
            if i is None:
                doc[key] = marker
            elif j is None:
                doc["args"][i][key] = marker
            else:
                doc["args"][i][key][j] = marker
            yield f"num-{field}-{number}", dump(doc).replace(repr(marker),
                                                             number)
    for name in NAMES:
        doc = copy.deepcopy(BASE)
        doc["args"][0]["name"] = name
        yield f"name-{name!r}", dump(doc)
        doc = copy.deepcopy(BASE)
        doc["reference"] = name
        yield f"reference-{name!r}", dump(doc)
    # Nesting past the limit, in a value's place and as the document.
    for depth in (31, 32, 33, 200, 5000):
        deep = "[" * depth + "]" * depth
        yield f"deep-doc-{depth}", deep
        yield f"deep-args-{depth}", '{"args": ' + deep + "}"
        yield f"deep-shape-{depth}", dump(BASE).replace(
            '"shape": [16]', '"shape": ' + deep, 1)
        yield f"deep-object-{depth}", '{"a": ' * depth + "1" + "}" * depth
    # Brackets inside strings do not count as nesting.
    doc = copy.deepcopy(BASE)
    doc["args"][0]["name"] = "[[[[[[[[[["
    yield "brackets-in-name", dump(doc)


def main() -> int:
    out, root = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for _, text in seeds():
        data = text.encode("utf-8", "surrogatepass")
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
        count += 1
    for path in sorted(root.glob("test/Runtime/Inputs/problems/*.json")) + \
            sorted(root.glob("kernels/examples/*.json")):
        data = path.read_bytes()
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
        count += 1
    print(f"{count} problem seeds")
    return 0 if count else 1


if __name__ == "__main__":
    sys.exit(main())
