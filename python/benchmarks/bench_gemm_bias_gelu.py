#!/usr/bin/env python3
"""GEMM + bias + GELU, fp16: kernels/gemm_bias_gelu.mlir's fused kernel
against our plain GEMM (kernels/gemm.mlir), cuBLASLt's fused epilogue
(torch._addmm_activation(bias, a, b, use_gelu=True), whose GELU is the tanh
approximation) and the unfused gelu(a @ b + bias, approximate='tanh').

C[M,N] = gelu(A[M,K] @ B[K,N] + bias[N]), row-major, fp32 accumulation.
Our fused kernel takes A, B, bias, C; gemm_f16 takes A, B, C. TFLOP/s =
2*M*N*K / time. The fused kernel should cost at most 1.1x the plain GEMM.
Both of ours are checked first against an fp32 reference.
"""

from __future__ import annotations

import sys

import _common as c

FUSED_TARGET = 1.1


def main(argv=None) -> int:
    p = c.parser(__doc__, "kernels/gemm_bias_gelu.mlir")
    p.add_argument("--sizes", default="4096,8192",
                   help="comma-separated M=N=K, or MxNxK "
                        "(default: %(default)s)")
    p.add_argument("--kernel", default="gemm_bias_gelu_f16",
                   help="our fused kernel (default: %(default)s)")
    p.add_argument("--gemm-file", default=str(c.REPO / "kernels/gemm.mlir"),
                   help="the file of our plain GEMM (default: %(default)s)")
    p.add_argument("--gemm-kernel", default="gemm_f16",
                   help="our plain GEMM kernel (default: %(default)s)")
    p.add_argument("--gelu", choices=["tanh", "erf"], default="tanh",
                   help="the GELU of the reference our fused kernel is "
                        "checked against: the tanh approximation (as "
                        "cuBLASLt's) or the exact erf form (default: "
                        "%(default)s)")
    args = p.parse_args(argv)
    c.maybe_profile(args, __file__, "regex:^gemm_bias_gelu", argv)
    tol = args.tol if args.tol is not None else 1e-2
    sizes = []
    for item in args.sizes.split(","):
        dims = [int(v) for v in item.lower().split("x")]
        sizes.append(tuple(dims * 3) if len(dims) == 1 else tuple(dims))

    b = c.Bench(args)
    t = c.torch()
    F = t.nn.functional
    b.banner("C = gelu(A @ B + bias) fp16; TFLOP/s = 2*M*N*K / time")
    table = c.Table(["M", "N", "K", "fused err", "gemm err", "fused ms",
                     "fused TF/s", "gemm ms", "gemm TF/s", "fused/gemm",
                     "cuBLASLt ms", "vs cuBLASLt", "cuBLASLt err",
                     "unfused ms", "cuBLAS ms"])

    for (M, N, K) in sizes:
        s = K ** -0.25  # keeps A @ B near unit variance
        a = t.randn(M, K, device="cuda", dtype=t.float16) * s
        bm = t.randn(K, N, device="cuda", dtype=t.float16) * s
        bias = t.randn(N, device="cuda", dtype=t.float16)
        out = t.empty(M, N, device="cuda", dtype=t.float16)
        mm = a.float() @ bm.float()
        ref_gemm = mm.half().float()  # what an fp16 GEMM output holds
        ref_fused = F.gelu(mm + bias.float(),
                           approximate="tanh" if args.gelu == "tanh"
                           else "none")
        del mm
        tfs = lambda ms: 2 * M * N * K / (ms * 1e-3) / 1e12  # noqa: E731

        def ours(path, name, run_args, ref):
            kernel = b.kernel(path, name)
            if isinstance(kernel, str):
                table.note(f"ours n/a: {kernel}")
                return None, None
            run = kernel.prepare(*run_args)
            out.fill_(float("nan"))
            run()
            err = c.verdict(c.rel_fro(out, ref), tol)
            return err, b.time_ms(run)

        fused_err, fused_ms = ours(args.kernel_file, args.kernel,
                                   (a, bm, bias, out), ref_fused)
        gemm_err, gemm_ms = ours(args.gemm_file, args.gemm_kernel,
                                 (a, bm, out), ref_gemm)
        # cuBLASLt's GELU epilogue is the tanh form: its error against the
        # reference shows which one the reference is.
        lt_err = "%.1e" % c.rel_fro(
            t._addmm_activation(bias, a, bm, use_gelu=True), ref_fused)
        del ref_gemm, ref_fused
        lt_ms = b.time_ms(
            lambda: t._addmm_activation(bias, a, bm, use_gelu=True))
        unfused_ms = b.time_ms(
            lambda: F.gelu(a @ bm + bias, approximate="tanh"))
        cublas_ms = b.time_ms(lambda: t.matmul(a, bm, out=out))
        fused_ratio = c.ratio(fused_ms, gemm_ms)
        table.add(M, N, K, fused_err, gemm_err, fused_ms,
                  tfs(fused_ms) if fused_ms else None, gemm_ms,
                  tfs(gemm_ms) if gemm_ms else None,
                  None if fused_ratio is None else
                  f"{fused_ratio:.3f}" + ("" if fused_ratio <= FUSED_TARGET
                                          else " >1.1"),
                  lt_ms, c.ratio(lt_ms, fused_ms), lt_err, unfused_ms,
                  cublas_ms)
        del a, bm, bias, out
    table.note(f"fused/gemm: our fused time over our plain GEMM's "
               f"(target <= {FUSED_TARGET}); vs cuBLASLt = its time / our "
               f"fused (>1: ours faster); cuBLAS = torch.matmul, no epilogue")
    table.print(args.csv)
    b.close()
    return c.exit_code(table)


if __name__ == "__main__":
    sys.exit(main())
