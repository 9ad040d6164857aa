#!/usr/bin/env python3
"""Row softmax, fp16 or bf16: kernels/softmax.mlir against torch.softmax.

For each shape [M, N]: Y = softmax(X, -1) with X random fp16. Bandwidth is
2*M*N*2 bytes (read X, write Y) over the median time; the ceiling is a
device-to-device copy of the same size (torch copy_), timed the same way.
Our output is checked against an fp32 torch reference first.

The kernel file holds size-specialised kernels: --kernel sets the default
(softmax_long_<dtype>, any N), --kernel-map picks per shape, e.g.
  --kernel-map 'N<=8192:softmax_n8192_f16'       (any M, N up to 8192)
  --kernel-map '4096x32768:softmax_f16'          (that shape only)
Exact shapes win over N<= rules; among those the smallest limit wins. The
default map picks the one-pass kernels
softmax_n{128,512,1024,4096,8192}_<dtype> and, up to 57337 columns, the
staged softmax_n57337_<dtype>; longer rows take the default, partly
staged.
--tuned DIR also runs, per shape, the configuration tile-tune chose and
wrote with --emit-dir DIR (NAME_MxNx0.cubin, .kinfo and .config; NAME is
--tuned-kernel, default softmax), checked the same way and timed beside the
default kernel in the same run (def/tuned from the two timed again in
turns); "vs torch" and "of copy" then compare the tuned kernel.
"""

from __future__ import annotations

import sys

import _common as c

SHAPES = "16384x1024,16384x4096,8192x8192,4096x32768"


def parse_shapes(text: str) -> list[tuple[int, int]]:
    out = []
    for item in text.split(","):
        m, n = item.lower().split("x")
        out.append((int(m), int(n)))
    return out


def parse_kernel_map(text: str | None):
    exact, limits = {}, []
    for item in filter(None, (text or "").split(",")):
        key, _, name = item.partition(":")
        if not name:
            raise SystemExit(f"--kernel-map entry '{item}' is not KEY:NAME")
        key = key.strip().replace(" ", "")
        if key.upper().startswith("N<="):
            limits.append((int(key[3:]), name.strip()))
        else:
            m, n = key.lower().split("x")
            exact[(int(m), int(n))] = name.strip()
    limits.sort()

    def pick(shape, default):
        if shape in exact:
            return exact[shape]
        for limit, name in limits:
            if shape[1] <= limit:
                return name
        return default
    return pick


def main(argv=None) -> int:
    p = c.parser(__doc__, "kernels/softmax.mlir")
    p.add_argument("--shapes", default=SHAPES,
                   help="comma-separated MxN (default: %(default)s)")
    c.add_dtype_option(p, "X and Y")
    p.add_argument("--kernel", metavar="NAME",
                   help="our kernel (args X [M,N], Y [M,N]) for shapes "
                        "--kernel-map does not name (default: "
                        "softmax_long_<dtype>)")
    p.add_argument("--kernel-map", metavar="SPEC",
                   help="per-shape kernels: comma-separated MxN:NAME or "
                        "N<=LIMIT:NAME (default: the one-pass kernels)")
    p.add_argument("--tuned", metavar="DIR",
                   help="per shape, also the tuned kernel tile-tune "
                        "--emit-dir wrote in DIR")
    p.add_argument("--tuned-kernel", metavar="NAME", default="softmax",
                   help="the kernel tile-tune tuned (default: %(default)s)")
    args = p.parse_args(argv)
    c.maybe_profile(args, __file__, "regex:^softmax", argv)
    tol = args.tol if args.tol is not None else \
        (5e-3 if args.dtype == "f16" else 1e-2)
    if args.kernel is None:
        args.kernel = f"softmax_long_{args.dtype}"
    if args.kernel_map is None:
        args.kernel_map = ",".join(
            f"N<={n}:softmax_n{n}_{args.dtype}"
            for n in (128, 512, 1024, 4096, 8192, 57337))
    pick = parse_kernel_map(args.kernel_map)

    b = c.Bench(args)
    t = c.torch()
    dtype = c.torch_dtype(args.dtype)
    b.banner(f"softmax {args.dtype}: Y = softmax(X, dim=-1); "
             "TB/s = 2*M*N*2 B / time")
    tuned_columns = ["tuned", "tuned err", "tuned ms", "tuned TB/s",
                     "def/tuned"] if args.tuned else []
    table = c.Table(["M", "N", "kernel", "err", "ours ms", "ours TB/s",
                     *tuned_columns, "torch ms", "torch TB/s", "copy ms",
                     "copy TB/s", "vs torch", "of copy"])

    def ours(kernel, what, x, y):
        """(err, median ms, run) of one of our kernels, checked first;
        (None, None, None) with a note when it is not available or refuses
        X."""
        if isinstance(kernel, str):
            table.note(f"{what} n/a: {kernel}")
            return None, None, None
        try:
            run = kernel.prepare(x, y)
        except b.tm.TileError as e:
            table.note(f"{what} n/a: {e}")
            return None, None, None
        y.fill_(float("nan"))
        run()
        err = c.verdict(c.rel_fro(y, t.softmax(x.float(), -1)), tol)
        return err, b.time_ms(run), run

    for m, n in parse_shapes(args.shapes):
        x = t.randn(m, n, device="cuda", dtype=dtype) * 4
        y = t.empty_like(x)
        nbytes = 2 * m * n * 2
        tbs = lambda ms: nbytes / (ms * 1e-3) / 1e12  # noqa: E731
        name = pick((m, n), args.kernel)
        err, ours_ms, run = ours(b.kernel(args.kernel_file, name), "ours",
                                 x, y)
        tuned, best_ms = [], ours_ms
        if args.tuned:
            config, kernel = b.tuned_kernel(args.tuned, args.tuned_kernel,
                                            f"{m}x{n}x0")
            tuned_err, tuned_ms, tuned_run = ours(kernel, "tuned", x, y)
            tuned = [config, tuned_err, tuned_ms,
                     tbs(tuned_ms) if tuned_ms else None,
                     b.def_over_tuned(run, tuned_run)]
            best_ms = tuned_ms
        torch_ms = b.time_ms(lambda: t.softmax(x, -1))
        copy_ms = b.time_ms(lambda: y.copy_(x))
        table.add(m, n, name, err, ours_ms,
                  tbs(ours_ms) if ours_ms else None, *tuned, torch_ms,
                  tbs(torch_ms), copy_ms, tbs(copy_ms),
                  c.ratio(torch_ms, best_ms), c.ratio(copy_ms, best_ms))
        del x, y
    if args.tuned:
        table.note("def/tuned = the default's time / the tuned one's (>1: "
                   "tuning won); vs torch and of copy use the tuned kernel")
    table.note("vs torch = torch time / ours (>1: ours faster); "
               "of copy = copy time / ours (1 = at the copy ceiling)")
    table.print(args.csv)
    b.close()
    return c.exit_code(table)


if __name__ == "__main__":
    sys.exit(main())
