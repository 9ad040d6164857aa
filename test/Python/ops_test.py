"""tile_mlir.ops on the GPU (ops.test): softmax over row lengths across
the dispatch classes (lengths that are not multiples of the tiles, f16 and
bf16, a 3-D input), gemm with and without the fused bias + GELU (against
gelu(addmm(bias, a, b))), x @ W.T, operands of odd strides and unaligned
views, batched inputs (as torch.matmul's), attention causal and not, grouped-query attention, and the
refusals; each
checked by relative norm against an fp32 torch reference."""
import math

import torch
import torch.nn.functional as F

import tile_mlir.ops as ops

torch.manual_seed(0)
failed = 0


def check(label, out, ref, tol=1e-2):
    global failed
    err = ((out.float() - ref).norm() / ref.norm()).item()
    ok = err < tol and out.shape == ref.shape
    failed += not ok
    print(f"{label}: {'ok' if ok else f'FAILED rel {err:.3g}'}")


for dtype in (torch.float16, torch.bfloat16):
    for m, n in ((3, 32), (70, 64), (77, 100), (64, 129), (33, 2000), (9, 4097),
                 (5, 8192), (4, 9000), (3, 50257), (2, 70001),
                 (133, 65537), (140, 130001)):
        x = torch.randn(m, n, dtype=dtype, device="cuda")
        check(f"softmax {dtype} {m}x{n}", ops.softmax(x),
              torch.softmax(x.float(), -1))
x = torch.randn(2, 3, 300, dtype=torch.float16, device="cuda")
check("softmax 2x3x300", ops.softmax(x), torch.softmax(x.float(), -1))
print("softmax empty:", tuple(ops.softmax(x[:0]).shape))

for m, n, k in ((64, 64, 64), (333, 264, 136), (1000, 3000, 2000),
                (256, 8192, 1024), (4096, 4096, 512)):
    a = torch.randn(m, k, dtype=torch.float16, device="cuda")
    b = torch.randn(k, n, dtype=torch.float16, device="cuda")
    bias = torch.randn(n, dtype=torch.float16, device="cuda")
    ref = a.float() @ b.float()
    check(f"gemm {m}x{n}x{k}", ops.gemm(a, b), ref)
    for act, approx in (("gelu_tanh", "tanh"), ("gelu", "none")):
        check(f"gemm+bias+{act} {m}x{n}x{k}",
              ops.gemm(a, b, bias=bias, activation=act),
              F.gelu(torch.addmm(bias.float(), a.float(), b.float()),
                     approximate=approx))
a = torch.randn(100, 64, dtype=torch.bfloat16, device="cuda")
b = torch.randn(64, 72, dtype=torch.bfloat16, device="cuda")
check("gemm bf16 100x72x64", ops.gemm(a, b), a.float() @ b.float())

# nn.Linear's form, x @ W.T with W [N, K] read in place, and operands whose
# rows TMA cannot read as they are (odd K and N, a column slice, a
# column-major a), each against the fp32 product.
for m, n, k in ((64, 64, 64), (333, 264, 136), (1000, 3000, 2000),
                (128, 50264, 512)):
    x = torch.randn(m, k, dtype=torch.float16, device="cuda")
    w = torch.randn(n, k, dtype=torch.float16, device="cuda")
    bias = torch.randn(n, dtype=torch.float16, device="cuda")
    ref = x.float() @ w.float().t()
    check(f"gemm x@W.T {m}x{n}x{k}", ops.gemm(x, w.t()), ref)
    check(f"gemm+bias+gelu x@W.T {m}x{n}x{k}",
          ops.gemm(x, w.t(), bias=bias, activation="gelu_tanh"),
          F.gelu(ref + bias.float(), approximate="tanh"))
for m, n, k in ((777, 3001, 1234), (5, 50257, 99), (130, 7, 3)):
    a = torch.randn(m, k, dtype=torch.bfloat16, device="cuda")
    b = torch.randn(k, n, dtype=torch.bfloat16, device="cuda")
    bias = torch.randn(n, dtype=torch.bfloat16, device="cuda")
    ref = a.float() @ b.float()
    check(f"gemm odd strides {m}x{n}x{k}", ops.gemm(a, b), ref)
    check(f"gemm odd strides x@W.T {m}x{n}x{k}",
          ops.gemm(a, b.t().contiguous().t()), ref)
    check(f"gemm+bias+gelu odd strides {m}x{n}x{k}",
          ops.gemm(a, b, bias=bias, activation="gelu"),
          F.gelu(ref + bias.float()))
big = torch.randn(300, 520, dtype=torch.float16, device="cuda")
a, b = big[:, 1:257], big[:256, 3:203]
check("gemm unaligned views", ops.gemm(a, b), a.float() @ b.float())
a = torch.randn(136, 200, dtype=torch.float16, device="cuda").t()
b = torch.randn(136, 72, dtype=torch.float16, device="cuda")
check("gemm column-major a", ops.gemm(a, b), a.float() @ b.float())

# A single row (a decode step: the matrix-vector kernel where the dispatch
# has a rule), against fp64: x @ W.T over N and K that are and are not
# multiples of the tile (N odd; K a multiple of 8, as W's rows must be for
# TMA), bf16, x @ W with an odd K, and a [B, 1, K] input.
for dtype, n, k in ((torch.float16, 4096, 4096), (torch.float16, 4099, 4104),
                    (torch.bfloat16, 11008, 4096),
                    (torch.float16, 100, 24)):
    x = torch.randn(1, k, dtype=dtype, device="cuda")
    w = torch.randn(n, k, dtype=dtype, device="cuda")
    check(f"gemm one row x@W.T {dtype} 1x{n}x{k}", ops.gemm(x, w.t()),
          (x.double() @ w.double().t()).float())
for n, k in ((8200, 1001), (4096, 4096), (4104, 1000)):
    x = torch.randn(1, k, dtype=torch.float16, device="cuda")
    b = torch.randn(k, n, dtype=torch.float16, device="cuda")
    check(f"gemm one row 1x{n}x{k}", ops.gemm(x, b),
          (x.double() @ b.double()).float())
x = torch.randn(1, 1, 4096, dtype=torch.float16, device="cuda")
w = torch.randn(4096, 4096, dtype=torch.float16, device="cuda")
check("gemm one row [1, 1, K] @ W.T", ops.gemm(x, w.t()),
      (x.double() @ w.double().t()).float())

# Batched, against torch.matmul in fp32: [B, M, K] @ [K, N] (one GEMM of B * M
# rows; also from a view torch must copy), [B, M, K] @ [B, K, N] (one
# batched launch where TMA reads the operands in place, sizes that are not
# multiples of the tiles included; else a GEMM per batch, on views whose
# bases are and are not 16-byte aligned), broadcast
# batches of 1 and a missing one, x @ W.T per batch, the fused epilogue,
# and an empty batch.
for (ba, bb), m, n, k in (((3, 0), 77, 264, 136), ((4, 4), 64, 72, 64),
                          ((5, 5), 33, 129, 70), ((1, 3), 100, 64, 200),
                          ((0, 3), 9, 40, 24), ((2, 1), 130, 7, 3),
                          ((8, 8), 200, 264, 136), ((3, 3), 1000, 520, 96)):
    p = torch.randn(*((ba,) if ba else ()), m, k, dtype=torch.float16,
                    device="cuda")
    q = torch.randn(*((bb,) if bb else ()), k, n, dtype=torch.float16,
                    device="cuda")
    check(f"gemm batched {tuple(p.shape)} @ {tuple(q.shape)}",
          ops.gemm(p, q), p.float() @ q.float())
xs = torch.randn(6, 50, 2, 136, dtype=torch.bfloat16, device="cuda")
xs = xs[:, :, 1].transpose(0, 1)  # [50, 6, 136], no [300, 136] view of it
ws = torch.randn(264, 136, dtype=torch.bfloat16, device="cuda")
bs = torch.randn(264, dtype=torch.bfloat16, device="cuda")
check("gemm batched strided x @ W.T", ops.gemm(xs, ws.t()),
      xs.float() @ ws.float().t())
check("gemm+bias+gelu batched",
      ops.gemm(xs, ws.t(), bias=bs, activation="gelu"),
      F.gelu(xs.float() @ ws.float().t() + bs.float()))
w3 = torch.randn(4, 96, 64, dtype=torch.float16, device="cuda")
x3 = torch.randn(4, 31, 64, dtype=torch.float16, device="cuda")
check("gemm batched x @ W.T per batch", ops.gemm(x3, w3.transpose(1, 2)),
      x3.float() @ w3.float().transpose(1, 2))
print("gemm empty batch:", tuple(ops.gemm(
    torch.empty(0, 5, 8, dtype=torch.float16, device="cuda"),
    torch.empty(1, 8, 16, dtype=torch.float16, device="cuda")).shape))


def check_attention(label, hq, hkv, sq, skv, d, causal):
    """ops.attention of q [2, hq, sq, d] over k, v [2, hkv, skv, d] against
    SDPA (enable_gqa) in fp32."""
    q = torch.randn(2, hq, sq, d, dtype=torch.float16, device="cuda")
    k, v = (torch.randn(2, hkv, skv, d, dtype=torch.float16, device="cuda")
            for _ in range(2))
    check(label, ops.attention(q, k, v, causal=causal),
          F.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                         is_causal=causal, enable_gqa=True))


# Grouped-query and multi-query attention: key/value heads dividing the
# query heads. Keys of another length than the queries (cross-attention, a
# cache): the causal mask is SDPA's, aligned at the top left.
for causal in (False, True):
    for hq, hkv, s, d in ((8, 2, 300, 128), (4, 1, 129, 64), (6, 3, 64, 64)):
        check_attention(f"attention gqa {hq}/{hkv} s={s} d={d} "
                        f"causal={causal}", hq, hkv, s, s, d, causal)
    for sq, skv, d in ((77, 300, 64), (300, 77, 128), (1, 513, 128)):
        check_attention(f"attention sq={sq} skv={skv} d={d} causal={causal}",
                        4, 2, sq, skv, d, causal)

for causal in (False, True):
    for d in (64, 128):
        q, k, v = (torch.randn(2, 3, 200, d, dtype=torch.float16,
                               device="cuda") for _ in range(3))
        check(f"attention causal={causal} d={d}",
              ops.attention(q, k, v, causal=causal),
              F.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                             is_causal=causal))
q = torch.randn(1, 2, 77, 64, dtype=torch.float16, device="cuda")
check("attention scale 0.3", ops.attention(q, q, q, scale=0.3),
      F.scaled_dot_product_attention(q.float(), q.float(), q.float(),
                                     scale=0.3))

for label, fn in (
        ("softmax float32", lambda: ops.softmax(torch.randn(4, 4,
                                                            device="cuda"))),
        ("softmax cpu", lambda: ops.softmax(torch.randn(4, 4).half())),
        ("softmax dim 0", lambda: ops.softmax(x, dim=0)),
        ("gemm bias alone", lambda: ops.gemm(a, b, bias=b[0])),
        ("gemm mismatch", lambda: ops.gemm(a, a)),
        ("gemm batches 2/3", lambda: ops.gemm(
            torch.randn(2, 8, 8, dtype=torch.float16, device="cuda"),
            torch.randn(3, 8, 8, dtype=torch.float16, device="cuda"))),
        ("gemm 4-d", lambda: ops.gemm(
            torch.randn(1, 2, 8, 8, dtype=torch.float16, device="cuda"),
            torch.randn(8, 8, dtype=torch.float16, device="cuda"))),
        ("attention heads 8/3", lambda: ops.attention(
            torch.randn(1, 8, 16, 64, dtype=torch.float16, device="cuda"),
            *(torch.randn(1, 3, 16, 64, dtype=torch.float16,
                          device="cuda"),) * 2)),
        ("attention d=96", lambda: ops.attention(
            *(torch.randn(1, 1, 8, 96, dtype=torch.float16, device="cuda"),)
            * 3))):
    try:
        fn()
        print(f"{label}: FAILED, accepted")
        failed += 1
    except (TypeError, ValueError) as e:
        print(f"{label}: {type(e).__name__}")
print(f"ops: {failed} failed")
