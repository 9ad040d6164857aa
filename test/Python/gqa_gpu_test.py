"""Grouped-query attention as a binding of the attention kernel
(gqa-gpu.test): attention_gqa4_* (32 query heads over 8 key/value heads)
against a float32 reference of SDPA with enable_gqa, causal and not, on
sequences that are and are not multiples of the blocks; the contract
refusing key/value heads that do not divide the query heads by 4. With
--time, against torch's SDPA with enable_gqa in alternating rounds.

Usage: gqa_gpu_test.py KERNELS_DIR [--time]
"""
import math
import statistics
import sys

import torch
import torch.nn.functional as F

import tile_mlir as tm

kernels_dir = sys.argv[1]
timing = "--time" in sys.argv
torch.manual_seed(0)
dev = torch.device("cuda")
failed = 0

rt = tm.Runtime(0)
module = rt.load(tm.compile(f"{kernels_dir}/flash_attention.mlir",
                            kernels=["attention_gqa4_d128_f16",
                                     "attention_gqa4_causal_d128_f16"]))
kernels = {False: module.kernel("attention_gqa4_d128_f16"),
           True: module.kernel("attention_gqa4_causal_d128_f16")}


def inputs(b, hq, hkv, s, d=128):
    q = torch.randn(b, hq, s, d, device=dev, dtype=torch.float16)
    k = torch.randn(b, hkv, s, d, device=dev, dtype=torch.float16)
    v = torch.randn(b, hkv, s, d, device=dev, dtype=torch.float16)
    return q, k, v


for causal in (False, True):
    for b, s in [(2, 1024), (1, 333), (3, 64)]:
        q, k, v = inputs(b, 32, 8, s)
        scale = 1 / math.sqrt(q.shape[-1])
        o = torch.empty_like(q)
        kernels[causal].launch(q, k, v, o, scale)
        ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                             is_causal=causal, scale=scale,
                                             enable_gqa=True)
        err = ((o.float() - ref).norm() / ref.norm()).item()
        ok = err < 1e-2
        failed += not ok
        print(f"gqa causal={causal} {b}x32/8x{s}x128: "
              f"{'ok' if ok else f'FAILED rel {err:.3g}'}")

# 32 query heads over 6 key/value heads is no grouping of 4.
q, k, v = inputs(1, 32, 6, 128)
try:
    kernels[False].launch(q, k, v, torch.empty_like(q), 0.1)
    print("FAILED: 6 key/value heads were accepted")
    failed += 1
except tm.InvalidArgumentError as e:
    print("refused:", str(e).split(": ", 1)[1])

if timing:
    def elapsed(fn, iters=20):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        fn()
        start.record()
        for _ in range(iters):
            fn()
        stop.record()
        torch.cuda.synchronize()
        return start.elapsed_time(stop) / iters

    for causal in (False, True):
        for b, s in [(4, 4096), (16, 1024)]:
            q, k, v = inputs(b, 32, 8, s)
            o = torch.empty_like(q)
            scale = 1 / math.sqrt(128)
            flops = 4 * b * 32 * s * s * 128 / (2 if causal else 1)
            ours, theirs = [], []
            for _ in range(7):
                ours.append(elapsed(
                    lambda: kernels[causal].launch(q, k, v, o, scale)))
                theirs.append(elapsed(
                    lambda: F.scaled_dot_product_attention(
                        q, k, v, is_causal=causal, scale=scale,
                        enable_gqa=True)))
            o_ms, t_ms = statistics.median(ours), statistics.median(theirs)
            print(f"time gqa causal={causal} {b}x32/8x{s}x128: ours "
                  f"{o_ms:.3f} ms ({flops / o_ms / 1e9:.0f} TFLOP/s), SDPA "
                  f"{t_ms:.3f} ms: {t_ms / o_ms:.2f}x")

print("failed:", failed)
