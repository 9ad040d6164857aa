"""Structured seeds for tile-fuzz: what mutating bytes does not reach.

- Hostile bindings: every parameter of every parametric kernel of the
  given sources is bound to every value of the hostile lists below (types
  that are not scalars, sizes that are zero, negative, huge or not powers
  of two, values of the wrong kind), once through a `tile.instance` and
  once through the pipeline's `bind` (a `// tile-fuzz: bind` line, the
  entry point of tile-opt's `bind=` and Python's `params=`), each with the
  parameter's candidate list and without it.
- Nested regions: element-wise bodies (`tile.parallel`) holding `scf.if`
  and `scf.for` regions that use values defined outside the parallel
  (kernel-level constants, flags, loop bounds), alone and inside other
  regions.
- Element types: plain copies of every float and integer type the parser
  takes, lowered down to PTX.
- Hostile classes: fills at and past the edges of each element type, loops
  over tiles whose step is zero, negative, known only at run time or
  different per thread, and scalar atomics of values or at offsets that
  differ per thread.

tile-fuzz reads the `// tile-fuzz:` lines of an input as its compile
options (tools/tile-fuzz/tile-fuzz.cpp); the parser skips them as comments.
"""

import itertools
import random
import re

# Hostile values by kind. Each is written as it appears in an instance's
# dictionary and in a NAME=VALUE binding.
TYPES = ["index", "vector<4xf16>", "complex<f32>", "none", "tuple<>",
         "memref<2xf32>", "tensor<2xf32>", "!llvm.ptr", "f80", "f128", "i1",
         "i64", "f64", "i8", "f8E4M3FN", "f4E2M1FN", "!tile.param<\"T\">"]
SIZES = ["0", "1", "3", "7", "255", "65536", "2147483648",
         "9223372036854775807", "-1", "-9223372036854775808"]
FLAGS = ["true", "false"]
# Only an instance's dictionary can hold these; a binding refuses them.
ATTRIBUTES = ["\"f16\"", "1.5", "unit", "[1, 2]", "9223372036854775808"]

HOSTILE = TYPES + SIZES + FLAGS


def _balanced(text: str, start: int) -> int:
    """The index just past the bracket group opening at text[start]."""
    pairs = {"{": "}", "[": "]", "(": ")", "<": ">"}
    stack = []
    for i in range(start, len(text)):
        c = text[i]
        if c in pairs:
            stack.append(pairs[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return i + 1
    return len(text)


def _clause(header: str, name: str):
    """The span of the `name {...}` clause of a kernel header, or None."""
    m = re.search(r"\b" + name + r"\s*\{", header)
    if not m:
        return None
    return m.start(), _balanced(header, m.end() - 1)


def _top_level_entries(body: str):
    """`NAME = VALUE` entries of a dictionary body, split at top-level
    commas."""
    entries, depth, cur = [], 0, ""
    for c in body:
        if c in "[<({":
            depth += 1
        elif c in "]>)}":
            depth -= 1
        if c == "," and depth == 0:
            entries.append(cur)
            cur = ""
        else:
            cur += c
    entries.append(cur)
    return [e.strip() for e in entries if e.strip()]


class Kernel:
    """A parametric `tile.kernel` of a source: its name, the span of its
    header (up to the body's brace) and its parameters."""

    def __init__(self, source: str, name: str, header):
        self.source, self.name, self.header = source, name, header
        span = _clause(self.text_header(), "params")
        inner = self.text_header()[span[0]:span[1]]
        inner = inner[inner.index("{") + 1:-1]
        self.params = {}
        for entry in _top_level_entries(inner):
            key, _, value = entry.partition("=")
            self.params[key.strip()] = value.strip()

    def text_header(self) -> str:
        return self.source[self.header[0]:self.header[1]]

    def without_candidates(self, param: str) -> str:
        """The source with `param` dropped from the kernel's space (the
        whole clause when it was the only one)."""
        header = self.text_header()
        span = _clause(header, "space")
        if not span:
            return self.source
        clause = header[span[0]:span[1]]
        inner = clause[clause.index("{") + 1:-1]
        kept = [e for e in _top_level_entries(inner)
                if e.partition("=")[0].strip() != param]
        new = "space {" + ", ".join(kept) + "}" if kept else ""
        header = header[:span[0]] + new + header[span[1]:]
        return (self.source[:self.header[0]] + header +
                self.source[self.header[1]:])


def _body_start(source: str, pos: int) -> int:
    """The index of a kernel's body brace, scanning its header from `pos`
    (past the arguments) over the braced and bracketed clauses."""
    while pos < len(source):
        c = source[pos]
        if c == "[":
            pos = _balanced(source, pos)
        elif c == "{":
            word = re.search(r"(\w+)\s*$", source[:pos])
            if not word or word.group(1) not in ("params", "space",
                                                   "attributes"):
                return pos
            pos = _balanced(source, pos)
        else:
            pos += 1
    return pos


def parametric_kernels(source: str):
    for m in re.finditer(r"tile\.kernel\s+@([A-Za-z_][\w$]*)\s*\(", source):
        body = _body_start(source, _balanced(source, m.end() - 1))
        if _clause(source[m.start():body], "params"):
            yield Kernel(source, m.group(1), (m.start(), body))


def _with_instance(source: str, text: str) -> str:
    """`text` (a top-level op) added at the end of the module."""
    stripped = source.rstrip()
    if stripped.lstrip().startswith("module") or re.search(
            r"^module\b", stripped, re.M):
        return stripped[:-1].rstrip() + "\n  " + text + "\n}\n"
    return stripped + "\n" + text + "\n"


def binding_seeds(source: str, label: str):
    """(name, text) pairs: every parameter of every parametric kernel of
    `source` bound to every hostile value, with its candidate list (as an
    instance: the candidates refuse it before the form matters) and
    without (as an instance and as a binding, which parse it apart)."""
    for kernel in parametric_kernels(source):
        for param in kernel.params:
            free = kernel.without_candidates(param)
            for value in HOSTILE + ATTRIBUTES:
                base = f"{label}-{kernel.name}-{param}-{_slug(value)}"
                instance = f"tile.instance @fuzz_bind = @{kernel.name} " \
                           f"{{{param} = {value}}}"
                yield (base + "-space",
                       "// tile-fuzz: kernels fuzz_bind\n" +
                       _with_instance(source, instance))
                if free == source:
                    continue
                yield (base + "-instance",
                       "// tile-fuzz: kernels fuzz_bind\n" +
                       _with_instance(free, instance))
                if value in ATTRIBUTES:
                    continue
                yield (base + "-bind",
                       f"// tile-fuzz: kernels {kernel.name}\n"
                       f"// tile-fuzz: bind {param}={value}\n" + free)


def _slug(value: str) -> str:
    value = value.replace("-", "minus")
    return re.sub(r"[^A-Za-z0-9]+", "_", value).strip("_") or "empty"


# Nested regions in element-wise bodies.

_KERNEL = """\
tile.kernel @nested(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %s: f32)
    grid [%A[0] / {rows}] threads {threads} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %flag = arith.constant {flag}
  %bx = tile.block_id x
  %a = tile.alloc_fragment : !tile.fragment<{rows}x{cols}xf32>
  tile.copy %A[%bx, %c0] -> %a : memref<?x?xf32> -> !tile.fragment<{rows}x{cols}xf32>
{reduce}{parallel}
  tile.copy %a -> %B[%bx, %c0] : !tile.fragment<{rows}x{cols}xf32> -> memref<?x?xf32>
}}
"""

_REDUCE = ("  %m = tile.alloc_fragment : !tile.fragment<{rows}xf32>\n"
           "  tile.reduce max %a -> %m {{dim = 1 : i64, clear}} : "
           "!tile.fragment<{rows}x{cols}xf32> -> !tile.fragment<{rows}xf32>\n")

_PARALLEL_OUT = """\
tile.parallel outs(%a : !tile.fragment<{rows}x{cols}xf32>) attributes {{
    indexing_maps = [affine_map<(i, j) -> (i, j)>]}} {{
^bb0(%x: f32):
{body}}}
"""

_PARALLEL_IN = """\
tile.parallel ins(%m : !tile.fragment<{rows}xf32>) outs(%a : !tile.fragment<{rows}x{cols}xf32>)
    attributes {{indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>]}} {{
^bb0(%mx: f32, %x: f32):
{body}}}
"""

# Outer values a body may read, by type.
_OUTER_F32 = ["%zero", "%one", "%s"]
_OUTER_INDEX = ["%c0", "%c1", "%c4"]


class _Body:
    """Writes an element-wise body whose nested regions read values from
    outside the parallel; `f32` holds the names usable at this point."""

    def __init__(self, rng: random.Random, with_input: bool):
        self.rng, self.lines, self.count = rng, [], 0
        self.f32 = ["%x"] + (["%mx"] if with_input else [])

    def fresh(self) -> str:
        self.count += 1
        return f"%v{self.count}"

    def value(self, scope) -> str:
        return self.rng.choice(scope + _OUTER_F32)

    def emit(self, depth: int, scope, indent: str) -> str:
        """Emits ops at `indent`; returns the f32 name they end in."""
        result = self.value(scope)
        for _ in range(self.rng.randint(1, 3)):
            # tile.index belongs to the parallel itself, not a region in it.
            kinds = ["arith", "select"] + (["if", "for"] if depth < 3 else [])
            kind = self.rng.choice(kinds + (["index"] if depth == 0 else []))
            result = getattr(self, "_" + kind)(depth, scope, indent)
            scope = scope + [result]
        return result

    def _line(self, indent, text):
        self.lines.append(indent + text)

    def _arith(self, depth, scope, indent):
        v = self.fresh()
        op = self.rng.choice(["addf", "mulf", "subf", "maximumf"])
        self._line(indent, f"{v} = arith.{op} {self.value(scope)}, "
                   f"{self.value(scope)} : f32")
        return v

    def _select(self, depth, scope, indent):
        p, v = self.fresh(), self.fresh()
        self._line(indent, f"{p} = arith.cmpf ogt, {self.value(scope)}, "
                   f"{self.value(scope)} : f32")
        self._line(indent, f"{v} = arith.select {p}, {self.value(scope)}, "
                   f"{self.value(scope)} : f32")
        return v

    def _index(self, depth, scope, indent):
        j, p, v = self.fresh(), self.fresh(), self.fresh()
        self._line(indent, f"{j} = tile.index {self.rng.randint(0, 1)}")
        self._line(indent, f"{p} = arith.cmpi ult, {j}, "
                   f"{self.rng.choice(_OUTER_INDEX)} : index")
        self._line(indent, f"{v} = arith.select {p}, {self.value(scope)}, "
                   f"{self.value(scope)} : f32")
        return v

    def _if(self, depth, scope, indent):
        if self.rng.random() < 0.3:
            cond = "%flag"
        else:
            cond = self.fresh()
            self._line(indent, f"{cond} = arith.cmpf ogt, {self.value(scope)}, "
                       f"{self.value(scope)} : f32")
        v = self.fresh()
        self._line(indent, f"{v} = scf.if {cond} -> f32 {{")
        then = self.emit(depth + 1, scope, indent + "  ")
        self._line(indent + "  ", f"scf.yield {then} : f32")
        self._line(indent, "} else {")
        other = self.emit(depth + 1, scope, indent + "  ")
        self._line(indent + "  ", f"scf.yield {other} : f32")
        self._line(indent, "}")
        return v

    def _for(self, depth, scope, indent):
        v, i, acc = self.fresh(), self.fresh(), self.fresh()
        lo, hi = "%c0", self.rng.choice(["%c1", "%c4"])
        self._line(indent, f"{v} = scf.for {i} = {lo} to {hi} step %c1 "
                   f"iter_args({acc} = {self.value(scope)}) -> (f32) {{")
        inner = self.emit(depth + 1, scope + [acc], indent + "  ")
        self._line(indent + "  ", f"scf.yield {inner} : f32")
        self._line(indent, "}")
        return v


def _wrap(rng: random.Random, parallel: str) -> str:
    """The parallel alone, or inside an scf.if or a tile.pipelined of the
    kernel (the regions that may hold tile ops), so that its body reads
    values two regions up."""
    inner = "\n".join("    " + l for l in parallel.splitlines())
    choice = rng.choice(["none", "if", "pipelined"])
    if choice == "if":
        return "  scf.if %flag {\n" + inner + "\n  }\n"
    if choice == "pipelined":
        return ("  tile.pipelined %it = %c0 to %c4 step %c1 num_stages 1 {\n"
                + inner + "\n  }\n")
    return "\n".join("  " + l for l in parallel.splitlines()) + "\n"


def nested_region_seeds(count: int, seed: int = 1):
    """(name, text) pairs: the issue's case first, then `count` bodies of
    random nesting."""
    yield "nested-if-outer-constants", _ISSUE_CASE
    rng = random.Random(seed)
    for n in range(count):
        with_input = rng.random() < 0.3
        body = _Body(rng, with_input)
        result = body.emit(0, list(body.f32), "  ")
        body.lines.append(f"  tile.yield {result} : f32")
        shape = {"rows": 16, "cols": rng.choice([128, 256])}
        template = _PARALLEL_IN if with_input else _PARALLEL_OUT
        parallel = template.format(body="\n".join(body.lines) + "\n", **shape)
        text = _KERNEL.format(
            threads=128, flag=rng.choice(FLAGS),
            reduce=_REDUCE.format(**shape) if with_input else "",
            parallel=_wrap(rng, parallel), **shape)
        yield f"nested-{n:03d}", text


# The issue's case: scf.if in a parallel body reading kernel constants.
_ISSUE_CASE = """\
tile.kernel @nested_if(%A: memref<?x?xf32>, %B: memref<?x?xf32>)
    grid [%A[0] / 16] threads 128 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %bx = tile.block_id x
  %a = tile.alloc_fragment : !tile.fragment<16x128xf32>
  tile.copy %A[%bx, %c0] -> %a : memref<?x?xf32> -> !tile.fragment<16x128xf32>
  tile.parallel outs(%a : !tile.fragment<16x128xf32>) attributes {
      indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32):
    %p = arith.cmpf ogt, %x, %zero : f32
    %r = scf.if %p -> f32 {
      %y = arith.addf %x, %one : f32
      scf.yield %y : f32
    } else {
      scf.yield %x : f32
    }
    tile.yield %r : f32
  }
  tile.copy %a -> %B[%bx, %c0] : !tile.fragment<16x128xf32> -> memref<?x?xf32>
}
"""

# Element types of plain copies.

ELEMENT_TYPES = ["f16", "bf16", "f32", "f64", "f80", "f128", "tf32",
                 "f8E4M3FN", "f8E5M2", "f6E2M3FN", "f4E2M1FN", "i1", "i4",
                 "i8", "i16", "i32", "i64", "i128", "index"]

_COPY = """\
// tile-fuzz: format ptx
tile.kernel @copy_{slug}(%A: memref<?x?x{t}>, %B: memref<?x?x{t}>)
    grid [%A[0] / 16] threads 128 {{
  %c0 = arith.constant 0 : index
  %bx = tile.block_id x
  %a = tile.alloc_fragment : !tile.fragment<16x128x{f}>
  tile.copy %A[%bx, %c0] -> %a : memref<?x?x{t}> -> !tile.fragment<16x128x{f}>
  tile.copy %a -> %B[%bx, %c0] : !tile.fragment<16x128x{f}> -> memref<?x?x{t}>
}}
"""


def element_type_seeds():
    """A copy through a fragment of the same type, and one through an f32
    fragment (a conversion each way)."""
    for t in ELEMENT_TYPES:
        yield f"copy-{t}", _COPY.format(t=t, f=t, slug=_slug(t))
        yield f"copy-{t}-f32", _COPY.format(t=t, f="f32", slug=_slug(t))


# Literals at and past the edges of each element type a fill takes.
EDGE_LITERALS = {
    "f16": ["65504.0", "65505.0", "65519.0", "65520.0", "65536.0",
            "-65536.0", "1.0e300", "5.0e-8", "inf", "-inf", "nan"],
    "bf16": ["3.38e38", "3.4e38", "3.5e38", "1.0e39", "-1.0e39", "inf"],
    "f32": ["3.4028234e38", "3.4028236e38", "1.0e39", "-1.0e300", "1.0e-46",
            "nan"],
    "i8": ["127", "128", "-128", "-129", "255", "256"],
    "i16": ["32767", "32768", "-32769", "65535"],
    "i32": ["2147483647", "2147483648", "-2147483648", "-2147483649",
            "4294967295"],
    "i64": ["9223372036854775807", "-9223372036854775808",
            "9223372036854775808"],
}

_FILL = """// tile-fuzz: format ptx
module {{
  tile.kernel @fill_{slug}(%A: memref<?x{t}>) grid [1] threads 128 {{
    %c0 = arith.constant 0 : index
    %x = tile.alloc_fragment : !tile.fragment<128x{t}>
    tile.fill %x, {value} : !tile.fragment<128x{t}>
    tile.copy %x -> %A[%c0] : !tile.fragment<128x{t}> -> memref<?x{t}>
  }}
}}
"""

# A loop over tiles with a constant, a runtime and a thread-dependent step,
# and a scalar atomic of a uniform, a thread-dependent and a lane-dependent
# value or offset.
STEPS = ["%c0", "%cm1", "%c1", "%rt", "%tid"]
ATOMIC_OPERANDS = [("%u", "%c0"), ("%t", "%c0"), ("%u", "%tid"),
                   ("%l", "%c0")]

_LOOP_ATOMIC = """// tile-fuzz: format ptx
module {{
  tile.kernel @hostile(%X: memref<?xf32>, %S: memref<?xf32>, %n: i32)
      grid [1] threads 128 {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cm1 = arith.constant -1 : index
    %c512 = arith.constant 512 : index
    %rt = arith.index_cast %n : i32 to index
    %tid = gpu.thread_id x
    %lane = gpu.lane_id
    %u = arith.constant 1.5 : f32
    %ti = arith.index_cast %tid : index to i32
    %t = arith.sitofp %ti : i32 to f32
    %li = arith.index_cast %lane : index to i32
    %l = arith.sitofp %li : i32 to f32
    %x = tile.alloc_fragment : !tile.fragment<128xf32>
    scf.for %j = %c0 to %c512 step {step} {{
      tile.copy %X[%j] -> %x : memref<?xf32> -> !tile.fragment<128xf32>
    }}
    tile.atomic add {value} -> %S[{offset}] : f32 -> memref<?xf32>
  }}
}}
"""


# A block's arrival at a counter: a count that is constant, zero, negative,
# known only at run time or different per thread, at an offset that is
# uniform, per thread or out of range, then a branch on the answer.
ARRIVE_OPERANDS = [("%c2", "%c0"), ("%c0", "%c0"), ("%cm1", "%c0"),
                   ("%rt", "%c0"), ("%tid", "%c0"), ("%c2", "%tid"),
                   ("%c2", "%rt")]

_ARRIVE = """// tile-fuzz: format ptx
module {{
  tile.kernel @hostile(%X: memref<?xf32>, %W: memref<?x?xf32>,
                       %N: memref<?xi32>, %n: i32)
      grid [1, 1, 2] threads 128 {{
    %c0 = arith.constant 0 : index
    %cm1 = arith.constant -1 : index
    %c2 = arith.constant 2 : index
    %rt = arith.index_cast %n : i32 to index
    %tid = gpu.thread_id x
    %bz = tile.block_id z
    %x = tile.alloc_fragment : !tile.fragment<128xf32>
    tile.copy %X[%c0] -> %x : memref<?xf32> -> !tile.fragment<128xf32>
    tile.copy %x -> %W[%bz, %c0] : !tile.fragment<128xf32> -> memref<?x?xf32>
    %last = tile.arrive %N[{offset}] count {count} : memref<?xi32>
    scf.if %last {{
      tile.copy %W[%c0, %c0] -> %x : memref<?x?xf32> -> !tile.fragment<128xf32>
      tile.copy %x -> %X[%c0] : !tile.fragment<128xf32> -> memref<?xf32>
    }}
  }}
}}
"""

def hostile_class_seeds():
    """Fills at the edges of every element type; loops over tiles with
    steps that are zero, negative, known only at run time or different per
    thread; scalar atomics of values and at offsets that differ per
    thread; arrivals with counts and offsets of every such kind."""
    for t, values in EDGE_LITERALS.items():
        for value in values:
            yield (f"fill-{t}-{_slug(value)}",
                   _FILL.format(t=t, value=value, slug=_slug(t)))
    for step in STEPS:
        for value, offset in ATOMIC_OPERANDS:
            yield (f"loop-{_slug(step)}-atomic-{_slug(value)}-{_slug(offset)}",
                   _LOOP_ATOMIC.format(step=step, value=value,
                                       offset=offset))
    for count, offset in ARRIVE_OPERANDS:
        yield (f"arrive-{_slug(count)}-at-{_slug(offset)}",
               _ARRIVE.format(count=count, offset=offset))
