"""What tile_mlir.ops launches for each layout, on the host (ops-host.test):
with a stand-in torch whose tensors are only sizes, strides and offsets
(Inputs/fake_torch) and the kernels replaced by recorders, each call prints
the kernels it launched, the layout bindings they were chosen with, the
layouts of their arguments (sizes/strides@offset in elements), and every
copy ops made. The GPU runs the same
calls on data in ops.test."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs",
                                "fake_torch"))
import torch  # noqa: E402  (the stand-in)

import tile_mlir.ops as ops  # noqa: E402

ops.use_tuning_cache = False
LAYOUT = ("TRANS_B", "GROUP", "CAUSAL", "ERF", "TC", "SPLIT", "CX")


class Recorder:
    def __init__(self, op, kernel, bindings):
        self.op = op
        self.bindings = {k: v for k, v in bindings.items() if k in LAYOUT}

    def launch(self, *args):
        def arg(a):
            if not isinstance(a, torch.Tensor):
                return repr(a)
            at = f"@{a._offset}" if a._offset else ""
            return f"{list(a.shape)}/{list(a.stride())}{at}"
        bound = " ".join(f"{k}={v}" for k, v in sorted(self.bindings.items()))
        print(f"  {self.op} [{bound}]: {', '.join(map(arg, args))}")


ops._kernel = lambda op, kernel, bindings, device: Recorder(op, kernel,
                                                            bindings)


def call(label, fn):
    print(label)
    torch.copies.clear()
    try:
        out = fn()
        print(f"  -> {list(out.shape)}")
    except (TypeError, ValueError) as e:
        print(f"  {type(e).__name__}: {e}")
    for what, shape in torch.copies:
        print(f"  copy: {what} {list(shape)}")


f16, bf16 = torch.float16, torch.bfloat16
r = torch.randn
a, b, w = r(256, 128), r(128, 512), r(512, 128)
call("gemm aligned", lambda: ops.gemm(a, b))
call("gemm x @ W.T", lambda: ops.gemm(a, w.t()))
call("gemm+bias+gelu x @ W.T", lambda: ops.gemm(a, w.t(), bias=r(512),
                                                activation="gelu"))
call("gemm odd strides", lambda: ops.gemm(r(777, 1234), r(1234, 3001)))
call("gemm x @ W.T, W rows unaligned",
     lambda: ops.gemm(r(16, 1234), r(3001, 1234).t()))
call("gemm one row, x @ W.T", lambda: ops.gemm(r(1, 4096),
                                                r(4096, 4096).t()))
call("gemm one row, x @ W, 8192 columns",
     lambda: ops.gemm(r(1, 1001), r(1001, 8192)))
call("gemm one row, x @ W, 512 columns", lambda: ops.gemm(r(1, 128), b))
call("gemm one row, x unaligned",
     lambda: ops.gemm(r(2, 1, 1001)[1], r(1001, 8192)))
call("gemm+bias+gelu one row", lambda: ops.gemm(r(1, 128), w.t(),
                                                bias=r(512),
                                                activation="gelu"))
call("gemm [B, 1, K] @ [K, N]", lambda: ops.gemm(r(1, 1, 4096),
                                                 r(4096, 4096).t()))
call("gemm column-major a", lambda: ops.gemm(r(136, 200).t(), r(136, 72)))
call("gemm [B, M, K] @ [K, N]", lambda: ops.gemm(r(4, 64, 128), b))
call("gemm [B, M, K] @ [K, N], not viewable as rows",
     lambda: ops.gemm(r(6, 50, 136).transpose(0, 1), r(136, 264)))
call("gemm [B, M, K] @ [B, K, N]", lambda: ops.gemm(r(3, 64, 128),
                                                   r(3, 128, 256)))
call("gemm [B, M, K] @ [B, K, N], rows unaligned",
     lambda: ops.gemm(r(2, 33, 70), r(2, 70, 129)))
call("gemm [B, M, K] @ [B, N, K].transpose(1, 2)",
     lambda: ops.gemm(r(2, 31, 64), r(2, 96, 64).transpose(1, 2)))
call("gemm [M, K] @ [B, K, N]", lambda: ops.gemm(r(64, 128),
                                                r(2, 128, 256)))
call("gemm [B, M, K] @ [1, K, N]", lambda: ops.gemm(r(3, 64, 128),
                                                   r(1, 128, 256)))
call("gemm empty", lambda: ops.gemm(r(0, 128), b))
q, kv = r(2, 8, 128, 64), r(2, 2, 128, 64)
call("attention", lambda: ops.attention(q, q, q))
call("attention gqa 8/2 causal", lambda: ops.attention(q, kv, kv,
                                                        causal=True))
call("softmax 3-d", lambda: ops.softmax(r(2, 3, 300)))
call("softmax, rows strided", lambda: ops.softmax(r(300, 8).t()))

# Refusals, before anything is launched.
call("gemm 4-d", lambda: ops.gemm(r(1, 2, 8, 8), r(8, 8)))
call("gemm batches 2/3", lambda: ops.gemm(r(2, 8, 8), r(3, 8, 8)))
call("gemm K mismatch", lambda: ops.gemm(r(8, 16), r(8, 8)))
call("gemm dtypes", lambda: ops.gemm(r(8, 8), r(8, 8, dtype=bf16)))
call("gemm float32", lambda: ops.gemm(r(8, 8, dtype=torch.float32),
                                      r(8, 8, dtype=torch.float32)))
call("gemm cpu", lambda: ops.gemm(r(8, 8, device="cpu"), r(8, 8)))
call("gemm bias alone", lambda: ops.gemm(a, b, bias=r(512)))
call("gemm activation", lambda: ops.gemm(a, b, bias=r(512),
                                         activation="relu"))
call("attention heads 8/3", lambda: ops.attention(q, r(2, 3, 128, 64),
                                                  r(2, 3, 128, 64)))
call("attention 3-d", lambda: ops.attention(r(8, 128, 64), r(8, 128, 64),
                                            r(8, 128, 64)))
call("softmax dim 0", lambda: ops.softmax(r(4, 4), dim=0))

# The softmax of few long rows in thread-block clusters
# (kernels/softmax_cluster.mlir), and the split-K GEMM
# (kernels/gemm_splitk_reduce.mlir), under rules given here (the package's
# rules take them where they were measured faster). The GEMM's fp32
# workspace is a [SPLIT, M, N] view of one buffer per stream and its
# counters one i32 per output tile, both kept between calls and grown.
from tile_mlir import dispatch  # noqa: E402

rules = dispatch.load_rules()
dispatch._rules_cache[str(dispatch.RULES_FILE)] = {**rules, "splitk": [
    {"trans_b": True, "max_m": 64, "min_k": 2048,
     "params": {"SPLIT": 3, "BM": 64, "BN": 128, "BK": 128, "STAGES": 4,
                "THREADS": 128}},
    {"trans_b": False, "max_m": 32, "max_n": 4096,
     "params": {"SPLIT": 2, "BM": 64, "BN": 64, "BK": 128, "STAGES": 6,
                "THREADS": 128}}]}
ops.clear()
dispatch._rules_cache[str(dispatch.RULES_FILE)]["softmax_cluster"] = [
    {"max_m": 64, "min_n": 65537,
     "params": {"W": 32768, "CX": 8, "THREADS": 512}}]
call("softmax of few long rows, in clusters",
     lambda: ops.softmax(r(8, 262144)))
call("softmax, a row past the cluster's", lambda: ops.softmax(r(8, 262145)))
call("softmax, rows past the rule's", lambda: ops.softmax(r(65, 131072)))
call("split-K x @ W.T", lambda: ops.gemm(r(16, 4096), r(4096, 4096).t()))
call("split-K x @ W.T again, fewer rows",
     lambda: ops.gemm(r(8, 4096), r(4096, 4096).t()))
call("split-K x @ W, rows unaligned", lambda: ops.gemm(r(30, 3001),
                                                       r(3001, 2042)))
call("x @ W.T, K below the rule's", lambda: ops.gemm(r(16, 1024),
                                                      r(4096, 1024).t()))
call("x @ W, N past the rule's", lambda: ops.gemm(r(16, 1024),
                                                   r(1024, 8192)))
call("x @ W.T, M past the rule's", lambda: ops.gemm(r(128, 4096),
                                                     r(4096, 4096).t()))
call("x @ W.T with a bias: the fused GEMM", lambda: ops.gemm(r(16, 4096),
                                               r(4096, 4096).t(),
                                               bias=r(4096),
                                               activation="gelu"))

# A single row through gemv_splitk where the gemv rule binds SPLIT: its
# fp32 workspace is a [SPLIT, N] view of the same per-stream buffer (rows
# padded to 16 bytes) and its counters one i32 per BN outputs.
dispatch._rules_cache[str(dispatch.RULES_FILE)]["gemv"] = [
    {"trans_b": False, "max_n": 8191,
     "params": {"SPLIT": 2, "BN": 64, "BK": 128, "STAGES": 4,
                "THREADS": 256}},
    *rules["gemv"]]
ops.clear()
call("one row x @ W, K split", lambda: ops.gemm(r(1, 4096), r(4096, 4104)))
call("one row x @ W, past the split rule's N",
     lambda: ops.gemm(r(1, 4096), r(4096, 8192)))
call("one row x @ W.T, not split", lambda: ops.gemm(r(1, 4096),
                                                     r(4096, 4096).t()))
