"""Runs kernels/gemm.mlir's gemm_f16 on the GPU through the package
(gpu.test): once on runtime-allocated memory against a host reference, and,
where torch is installed, on torch tensors on torch's current stream and on
a side stream.

Usage: gpu_test.py KERNEL.mlir
"""
import math
import random
import struct
import sys

import tile_mlir as tm


def rel_err(out, ref):
    num = sum((o - r) ** 2 for o, r in zip(out, ref))
    return math.sqrt(num / sum(r * r for r in ref))


compiled = tm.compile(sys.argv[1])
M, N, K = 136, 200, 72  # not multiples of the tiles; rows 16-byte aligned
rng = random.Random(1)


def f16(values):
    return struct.pack(f"<{len(values)}e", *values)


a = [rng.uniform(-1, 1) for _ in range(M * K)]
b = [rng.uniform(-1, 1) for _ in range(K * N)]
a = list(struct.unpack(f"<{M * K}e", f16(a)))  # rounded to f16
b = list(struct.unpack(f"<{K * N}e", f16(b)))
ref = [0.0] * (M * N)
for i in range(M):
    row = a[i * K:(i + 1) * K]
    for j in range(N):
        ref[i * N + j] = sum(row[k] * b[k * N + j] for k in range(K))

with tm.Runtime(0) as rt:
    print("device:", rt.info.name)
    gemm = rt.load(compiled).kernel("gemm_f16")
    with rt.alloc(M * K * 2) as da, rt.alloc(K * N * 2) as db, \
            rt.alloc(M * N * 2) as dc:
        da.copy_from_host(f16(a))
        db.copy_from_host(f16(b))
        dc.fill(0x7E00, width=2)  # NaN: an element not written fails
        gemm.launch(da.memref("f16", (M, K)), db.memref("f16", (K, N)),
                    dc.memref("f16", (M, N)))
        rt.synchronize(timeout_s=30)
        out = struct.unpack(f"<{M * N}e", dc.copy_to_host())
        err = rel_err(out, ref)
        print("memref gemm_f16:", "ok" if err < 1e-2 else f"FAILED {err}")

    try:
        import torch
    except ImportError:
        print("torch: skipped (not installed)")
        sys.exit(0)
    A = torch.randn(M, K, dtype=torch.float16, device="cuda")
    B = torch.randn(K, N, dtype=torch.float16, device="cuda")
    want = A.float() @ B.float()

    def check(label, C):
        err = ((C.float() - want).norm() / want.norm()).item()
        print(f"torch {label}:", "ok" if err < 1e-2 else f"FAILED {err}")

    C = torch.full((M, N), float("nan"), dtype=torch.float16, device="cuda")
    gemm.launch(A, B, C)  # torch's current (default) stream
    check("current stream", C)
    side = torch.cuda.Stream()
    C2 = torch.full((M, N), float("nan"), dtype=torch.float16, device="cuda")
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        gemm.launch(A, B, C2)
        C3 = C2 * 1  # ordered after the kernel on the side stream
    torch.cuda.synchronize()
    check("side stream", C3)
    for label, args in [("float32 output", (A, B, C.float())),
                        ("transposed A", (A.t().contiguous().t(), B, C)),
                        ("host tensor", (A.cpu(), B, C))]:
        try:
            gemm.launch(*args)
            print(f"{label}: launched?!")
        except (tm.TileError, TypeError) as e:
            print(f"{label}: {type(e).__name__}: {e}")
