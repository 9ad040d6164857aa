#!/usr/bin/env python3
"""Flash attention forward, fp16 or bf16: kernels/flash_attention.mlir
against torch's scaled_dot_product_attention on its FlashAttention and cuDNN
backends.

Our kernels are attention[_causal]_d<D>_<dtype> with arguments Q, K, V, O
(each [B, H, S, D], contiguous) and the f32 softmax scale (1/sqrt(D)).
TFLOP/s = 4*B*H*S^2*D / time, halved when causal. Ours is checked first
against an fp32 reference (the math backend) on the first batch entry and
--check-heads heads.

--tuned DIR also runs, per shape and mask, the configuration tile-tune
chose and wrote with --emit-dir DIR (NAME_BxHxSxD.cubin, .kinfo and
.config, NAME_BxHxSxD_causal.* for --causal; NAME is --tuned-kernel,
default attention), checked the same way and timed beside the default
kernel in the same run (def/tuned from the two timed again in turns),
e.g. after
  tile-tune kernels/flash_attention.mlir --kernel attention --param T=f16 \
      --op attention --sizes 8x16x4096x128 --emit-dir DIR [--causal]
"vs flash" and "vs cudnn" then compare the tuned kernel.
"""

from __future__ import annotations

import math
import sys

import _common as c

CONFIGS = "8x16x4096x128"


def parse_configs(text: str) -> list[tuple[int, int, int, int]]:
    out = []
    for item in text.split(","):
        b, h, s, d = (int(v) for v in item.lower().split("x"))
        out.append((b, h, s, d))
    return out


def main(argv=None) -> int:
    p = c.parser(__doc__, "kernels/flash_attention.mlir")
    p.add_argument("--configs", default=CONFIGS,
                   help="comma-separated BxHxSxD (default: %(default)s)")
    p.add_argument("--d64", action="store_true",
                   help="also run B=8, H=32, S=4096, D=64")
    p.add_argument("--causal", choices=["both", "yes", "no"],
                   default="both", help="which masks (default: both)")
    c.add_dtype_option(p, "Q, K, V and O")
    p.add_argument("--kernel", metavar="NAME",
                   help="our kernel for every row (default: "
                        "attention[_causal]_d<D>_<dtype>)")
    p.add_argument("--check-heads", type=int, default=4,
                   help="heads of batch 0 checked against the fp32 "
                        "reference (default: %(default)s)")
    p.add_argument("--tuned", metavar="DIR",
                   help="per shape and mask, also the tuned kernel "
                        "tile-tune --emit-dir wrote in DIR")
    p.add_argument("--tuned-kernel", metavar="NAME", default="attention",
                   help="the kernel tile-tune tuned (default: %(default)s)")
    args = p.parse_args(argv)
    c.maybe_profile(args, __file__, "regex:^attention", argv)
    tol = args.tol if args.tol is not None else 1e-2
    configs = parse_configs(args.configs)
    if args.d64:
        configs.append((8, 32, 4096, 64))
    masks = {"both": [False, True], "yes": [True], "no": [False]}[args.causal]

    b = c.Bench(args)
    t = c.torch()
    F = t.nn.functional
    from torch.nn.attention import SDPBackend, sdpa_kernel
    dtype = c.torch_dtype(args.dtype)
    b.banner(f"attention forward {args.dtype}: O = softmax(Q K^T * scale) V; "
             "TFLOP/s = 4*B*H*S^2*D / time (/2 causal)")
    tuned_columns = ["tuned", "tuned err", "tuned ms", "tuned TF/s",
                     "def/tuned"] if args.tuned else []
    table = c.Table(["B", "H", "S", "D", "causal", "err", "ours ms",
                     "ours TF/s", *tuned_columns, "flash TF/s", "cudnn TF/s",
                     "vs flash", "vs cudnn"])

    def peer(backend, q, k, v, causal, scale):
        """Median ms of SDPA on one backend; None (with a note) when that
        backend cannot run it."""
        def run():
            return F.scaled_dot_product_attention(
                q, k, v, is_causal=causal, scale=scale)
        with sdpa_kernel(backend):
            try:
                run()
            except RuntimeError as e:
                table.note(f"{backend.name} n/a: {str(e).splitlines()[0]}")
                return None
            return b.time_ms(run)

    def ours(kernel, what, q, k, v, o, scale, ref, hs):
        """(err, median ms, run) of one of our kernels, its output checked
        against `ref` on heads `hs` of batch 0 first; (None, None, None)
        with a note when it is not available or refuses the arguments."""
        if isinstance(kernel, str):
            table.note(f"{what} n/a: {kernel}")
            return None, None, None
        try:
            run = kernel.prepare(q, k, v, o, scale)
        except b.tm.TileError as e:
            table.note(f"{what} n/a: {e}")
            return None, None, None
        o.fill_(float("nan"))
        run()
        err = c.verdict(c.rel_fro(o[:1, hs], ref), tol)
        return err, b.time_ms(run), run

    for (B, H, S, D) in configs:
        shape = (B, H, S, D)
        q, k, v = (t.randn(shape, device="cuda", dtype=dtype)
                   for _ in range(3))
        o = t.empty_like(q)
        scale = 1.0 / math.sqrt(D)
        hs = slice(0, min(args.check_heads, H))
        for causal in masks:
            flops = 4 * B * H * S * S * D / (2 if causal else 1)
            tfs = lambda ms: flops / (ms * 1e-3) / 1e12  # noqa: E731
            with sdpa_kernel(SDPBackend.MATH):
                ref = F.scaled_dot_product_attention(
                    q[:1, hs].float(), k[:1, hs].float(), v[:1, hs].float(),
                    is_causal=causal, scale=scale)
            name = args.kernel or \
                f"attention{'_causal' if causal else ''}_d{D}_{args.dtype}"
            inputs = (q, k, v, o, scale, ref, hs)
            err, ours_ms, run = ours(b.kernel(args.kernel_file, name),
                                     "ours", *inputs)
            tuned, best_ms = [], ours_ms
            if args.tuned:
                config, kernel = b.tuned_kernel(
                    args.tuned, args.tuned_kernel,
                    f"{B}x{H}x{S}x{D}" + ("_causal" if causal else ""))
                tuned_err, tuned_ms, tuned_run = ours(kernel, "tuned",
                                                      *inputs)
                tuned = [config, tuned_err, tuned_ms,
                         tfs(tuned_ms) if tuned_ms else None,
                         b.def_over_tuned(run, tuned_run)]
                best_ms = tuned_ms
            del ref, inputs
            flash_ms = peer(SDPBackend.FLASH_ATTENTION, q, k, v, causal,
                            scale)
            cudnn_ms = peer(SDPBackend.CUDNN_ATTENTION, q, k, v, causal,
                            scale)
            table.add(B, H, S, D, "yes" if causal else "no", err, ours_ms,
                      tfs(ours_ms) if ours_ms else None, *tuned,
                      tfs(flash_ms) if flash_ms else None,
                      tfs(cudnn_ms) if cudnn_ms else None,
                      c.ratio(flash_ms, best_ms), c.ratio(cudnn_ms, best_ms))
        del q, k, v, o
    if args.tuned:
        table.note("def/tuned = the default's time / the tuned one's (>1: "
                   "tuning won); vs X uses the tuned kernel")
    table.note("vs X = X's time / ours (>1: ours faster)")
    table.print(args.csv)
    b.close()
    return c.exit_code(table)


if __name__ == "__main__":
    sys.exit(main())
