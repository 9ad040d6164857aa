#!/usr/bin/env python3
"""Flash attention forward, fp16 or bf16: kernels/flash_attention.mlir
against torch's scaled_dot_product_attention on its FlashAttention and cuDNN
backends.

Our kernels are attention[_causal]_d<D>_<dtype> with arguments Q, K, V, O
(each [B, H, S, D], contiguous) and the f32 softmax scale (1/sqrt(D)).
TFLOP/s = 4*B*H*S^2*D / time, halved when causal. Ours is checked first
against an fp32 reference (the math backend) on the first batch entry and
--check-heads heads.
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
    args = p.parse_args(argv)
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
    table = c.Table(["B", "H", "S", "D", "causal", "err", "ours ms",
                     "ours TF/s", "flash TF/s", "cudnn TF/s", "vs flash",
                     "vs cudnn"])

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

    for (B, H, S, D) in configs:
        shape = (B, H, S, D)
        q, k, v = (t.randn(shape, device="cuda", dtype=dtype)
                   for _ in range(3))
        o = t.empty_like(q)
        scale = 1.0 / math.sqrt(D)
        for causal in masks:
            flops = 4 * B * H * S * S * D / (2 if causal else 1)
            tfs = lambda ms: flops / (ms * 1e-3) / 1e12  # noqa: E731
            name = args.kernel or \
                f"attention{'_causal' if causal else ''}_d{D}_{args.dtype}"
            kernel = b.kernel(args.kernel_file, name)
            ours_ms = err = None
            if isinstance(kernel, str):
                table.note(f"ours n/a: {kernel}")
            else:
                run = kernel.prepare(q, k, v, o, scale)
                o.fill_(float("nan"))
                run()
                hs = slice(0, min(args.check_heads, H))
                with sdpa_kernel(SDPBackend.MATH):
                    ref = F.scaled_dot_product_attention(
                        q[:1, hs].float(), k[:1, hs].float(),
                        v[:1, hs].float(), is_causal=causal, scale=scale)
                err = c.verdict(c.rel_fro(o[:1, hs], ref), tol)
                del ref
                ours_ms = b.time_ms(run)
            flash_ms = peer(SDPBackend.FLASH_ATTENTION, q, k, v, causal,
                            scale)
            cudnn_ms = peer(SDPBackend.CUDNN_ATTENTION, q, k, v, causal,
                            scale)
            table.add(B, H, S, D, "yes" if causal else "no", err, ours_ms,
                      tfs(ours_ms) if ours_ms else None,
                      tfs(flash_ms) if flash_ms else None,
                      tfs(cudnn_ms) if cudnn_ms else None,
                      c.ratio(flash_ms, ours_ms), c.ratio(cudnn_ms, ours_ms))
        del q, k, v, o
    table.note("vs X = X's time / ours (>1: ours faster)")
    table.print(args.csv)
    b.close()
    return c.exit_code(table)


if __name__ == "__main__":
    sys.exit(main())
