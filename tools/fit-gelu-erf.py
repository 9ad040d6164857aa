#!/usr/bin/env python3
"""The polynomial of the erf-form GELU in kernels/gemm_bias_gelu.mlir.

GELU(y) = y * Phi(y), Phi the normal CDF: 1 - q for y >= 0, q below, with
    q = 0.5 erfc(|y| / sqrt 2) = 2^L(t),  t = |y|,
    L(t) = P(t / T) - t^2 / (2 ln 2)   for t <= T, q = 0 beyond.
P is fitted to log2 q + t^2 / (2 ln 2) on [0, T] by least squares on
Chebyshev nodes, reweighted (Lawson) toward the minimax error.

    fit-gelu-erf.py [--degree 8] [--range 6]    fit and print P's constants
    fit-gelu-erf.py --check KERNEL.mlir          the kernel's constants
                                                 (%p0 ... %pN) evaluated in
                                                 f32: their error bounds

Only the standard library is needed (math.erfc is the double-precision
reference; f32 arithmetic is emulated by rounding each step).
"""

import argparse
import math
import re
import struct
import sys

HALF_LOG2E = 0.5 / math.log(2)


def f32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


def target(t: float) -> float:
    return math.log2(0.5 * math.erfc(t / math.sqrt(2))) + t * t * HALF_LOG2E


def lstsq(a: list[list[float]], b: list[float]) -> list[float]:
    """Least squares by Householder QR."""
    m, n = len(a), len(a[0])
    a = [row[:] for row in a]
    b = b[:]
    for k in range(n):
        norm = math.sqrt(sum(a[i][k] ** 2 for i in range(k, m)))
        if a[k][k] > 0:
            norm = -norm
        v = [0.0] * m
        for i in range(k, m):
            v[i] = a[i][k]
        v[k] -= norm
        vv = sum(v[i] ** 2 for i in range(k, m))
        if vv == 0:
            continue
        for j in range(k, n):
            d = sum(v[i] * a[i][j] for i in range(k, m)) * 2 / vv
            for i in range(k, m):
                a[i][j] -= d * v[i]
        d = sum(v[i] * b[i] for i in range(k, m)) * 2 / vv
        for i in range(k, m):
            b[i] -= d * v[i]
    x = [0.0] * n
    for k in reversed(range(n)):
        x[k] = (b[k] - sum(a[k][j] * x[j] for j in range(k + 1, n))) / a[k][k]
    return x


def fit(degree: int, span: float, nodes: int = 1500,
        rounds: int = 30) -> list[float]:
    pts = [span * (0.5 - 0.5 * math.cos(math.pi * (i + 0.5) / nodes))
           for i in range(nodes)]
    w = [1.0] * nodes
    for _ in range(rounds):
        a = [[w[i] * (pts[i] / span) ** j for j in range(degree + 1)]
             for i in range(nodes)]
        c = lstsq(a, [w[i] * target(pts[i]) for i in range(nodes)])
        err = [abs(sum(c[j] * (p / span) ** j for j in range(degree + 1))
                   - target(p)) for p in pts]
        worst = max(err)
        w = [w[i] * math.sqrt(max(err[i] / worst, 1e-3))
             for i in range(nodes)]
        total = sum(w)
        w = [x * nodes / total for x in w]
    return [f32(x) for x in c]


def q32(t: float, c: list[float], span: float) -> float:
    """q as the kernel computes it in f32 (Horner with fma, one exp2)."""
    if t > span:
        return 0.0
    s = f32(t * f32(1 / span))
    p = c[-1]
    for cj in reversed(c[:-1]):
        p = f32(p * s + cj)
    return f32(2.0 ** f32(f32(t * t) * f32(-HALF_LOG2E) + p))


def errors(c: list[float], span: float) -> tuple[float, float, float]:
    """Max relative and absolute error of q on [0, span], and max absolute
    error of GELU on [-20, 20]."""
    rel = absq = 0.0
    for i in range(20001):
        t = f32(span * i / 20000)
        q = 0.5 * math.erfc(t / math.sqrt(2))
        got = q32(t, c, span)
        rel = max(rel, abs(got - q) / q)
        absq = max(absq, abs(got - q))
    absg = 0.0
    for i in range(-100000, 100001):
        y = f32(i * 2e-4)
        q = q32(abs(y), c, span)
        phi = f32(1.0 - q) if y >= 0 else q
        exact = 0.5 * y * math.erfc(-y / math.sqrt(2))
        absg = max(absg, abs(f32(y * phi) - exact))
    return rel, absq, absg


def kernel_constants(path: str) -> tuple[list[float], float]:
    """The polynomial's constants and the span, from the kernel's
    `%p0, ..., %p8 = tile.let ...` and `%kt, ... = tile.let 6.0, ...`."""
    text = open(path).read()
    bound = {}
    for names, values in re.findall(
            r"((?:%\w+, )*%\w+) = tile\.let ([^:]*?)\s*:", text, re.S):
        for name, value in zip(names.split(", "),
                               re.split(r",\s*", values.strip())):
            bound[name[1:]] = value
    count = len([n for n in bound if re.fullmatch(r"p\d+", n)])
    return ([f32(float(bound[f"p{j}"])) for j in range(count)],
            float(bound["kt"]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--degree", type=int, default=8)
    ap.add_argument("--range", type=float, default=6.0, dest="span")
    ap.add_argument("--check", metavar="KERNEL.mlir")
    args = ap.parse_args()
    if args.check:
        c, span = kernel_constants(args.check)
        refit = fit(len(c) - 1, span)
        drift = max(abs(a - b) / max(abs(b), 1e-30) for a, b in zip(c, refit))
        print(f"degree {len(c) - 1} on [0, {span:g}]; refit drift "
              f"{'below' if drift < 1e-5 else 'ABOVE'} 1e-5")
    else:
        span = args.span
        c = fit(args.degree, span)
        names = ", ".join(f"%p{j}" for j in range(len(c)))
        values = ", ".join(f"{cj:.9e}" for cj in c)
        types = ", ".join("f32" for _ in c)
        print(f"  {names} = tile.let {values} : {types}")
    rel, absq, absg = errors(c, span)
    print(f"q: max relative error {rel:.1e}, absolute {absq:.1e}; "
          f"GELU on [-20, 20]: max absolute error {absg:.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
