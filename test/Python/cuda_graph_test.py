"""The four operators captured in CUDA graphs and replayed with new inputs,
and launches on two torch streams that overlap (cuda-graph.test).

Each operator is launched once (warm-up), captured with
torch.cuda.graph, then replayed twice after new random inputs were copied
into the captured tensors; each replay is checked by relative norm against
a float32 torch reference. Shapes are not multiples of the tiles.

Usage: cuda_graph_test.py KERNELS_DIR
"""
import math
import statistics
import sys
import time

import torch
import torch.nn.functional as F

import tile_mlir as tm

kernels_dir = sys.argv[1]
torch.manual_seed(0)
dev = torch.device("cuda")
failed = 0


def rel(out, ref):
    return ((out.float() - ref).norm() / ref.norm()).item()


def report(label, err, tol):
    global failed
    ok = err < tol
    failed += not ok
    print(f"{label}: {'ok' if ok else f'FAILED rel {err:.3g}'}")


rt = tm.Runtime(0)


def load(name, path):
    return rt.load(tm.compile(f"{kernels_dir}/{path}")).kernel(name)


def graph_case(label, kernel, inputs, outputs, scalars, reference, tol,
               prepared=False):
    """Captures kernel(inputs..., outputs..., scalars...) and replays it with
    new inputs twice."""
    args = (*inputs, *outputs, *scalars)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up, as torch asks before capture
        kernel.launch(*args)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        stream = rt.wrap_stream(torch.cuda.current_stream())
        capturing = stream.is_capturing
        try:
            stream.synchronize()
            refused = "not refused"
        except tm.InvalidArgumentError:
            refused = "refused"
        if prepared:
            kernel.prepare(*args)()
        else:
            kernel.launch(*args)
        stream.close()
    print(f"{label}: capturing {capturing}, synchronize {refused}")
    for trial in range(2):
        for t in inputs:
            t.copy_(torch.randn_like(t.float()).to(t.dtype))
        for t in outputs:
            t.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        report(f"graph {label} replay {trial}",
               rel(outputs[0], reference(*inputs)), tol)


# GEMM, and the prepared form of the same launch.
gemm = load("gemm_f16", "gemm.mlir")
M, N, K = 333, 264, 136
A = torch.randn(M, K, dtype=torch.float16, device=dev)
B = torch.randn(K, N, dtype=torch.float16, device=dev)
C = torch.empty(M, N, dtype=torch.float16, device=dev)
graph_case("gemm_f16", gemm, [A, B], [C], [],
           lambda a, b: a.float() @ b.float(), 1e-2)
graph_case("gemm_f16 prepared", gemm, [A, B], [C], [],
           lambda a, b: a.float() @ b.float(), 1e-2, prepared=True)

# GEMM + bias + GELU (tanh form), against gelu(addmm(bias, a, b)).
fused = load("gemm_bias_gelu_f16", "gemm_bias_gelu.mlir")
bias = torch.randn(N, dtype=torch.float16, device=dev)
graph_case("gemm_bias_gelu_f16", fused, [A, B, bias], [C], [],
           lambda a, b, c: F.gelu(torch.addmm(c.float(), a.float(), b.float()),
                                  approximate="tanh"), 1e-2)

# Softmax: a row-per-block instance and the any-length two-pass one.
for name, rows, cols in (("softmax_n4096_f16", 77, 3000),
                         ("softmax_f16", 5, 20011)):
    sm = load(name, "softmax.mlir")
    X = torch.randn(rows, cols, dtype=torch.float16, device=dev)
    Y = torch.empty_like(X)
    graph_case(name, sm, [X], [Y], [],
               lambda x: torch.softmax(x.float(), dim=-1), 1e-2)

# FlashAttention forward, causal and not, scores never in memory.
for name, causal, d in (("attention_d64_f16", False, 64),
                        ("attention_causal_d128_f16", True, 128)):
    att = load(name, "flash_attention.mlir")
    shape = (2, 3, 300, d)
    Q, Kt, V = (torch.randn(shape, dtype=torch.float16, device=dev)
                for _ in range(3))
    O = torch.empty_like(Q)
    scale = 1 / math.sqrt(d)
    graph_case(name, att, [Q, Kt, V], [O], [scale],
               lambda q, k, v, c=causal, s=scale:
               F.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                              is_causal=c, scale=s), 1e-2)

# Two streams: a launch on each overlaps, so two take about as long as one,
# where a join through the default stream would serialise them.
# softmax_bf16 runs one block per row: 16 long rows occupy 16 of the GPU's
# SMs. (bf16: the probabilities of rows this long, about 2^-22, are
# subnormal in f16.)
sm = load("softmax_bf16", "softmax.mlir")
rows, cols = 16, 1 << 22
X1 = torch.randn(rows, cols, dtype=torch.bfloat16, device=dev)
X2, Y1, Y2 = torch.randn_like(X1), torch.empty_like(X1), torch.empty_like(X1)
s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()


def timed(fn):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    return time.perf_counter() - t0


def one():
    with torch.cuda.stream(s1):
        sm.launch(X1, Y1)


def serial():
    with torch.cuda.stream(s1):
        sm.launch(X1, Y1)
        sm.launch(X2, Y2)


def both():
    with torch.cuda.stream(s1):
        sm.launch(X1, Y1)
    with torch.cuda.stream(s2):
        sm.launch(X2, Y2)


for fn in (one, serial, both):
    timed(fn)  # warm
t_one, t_serial, t_both = (
    statistics.median(timed(fn) for _ in range(7))
    for fn in (one, serial, both))
ratio = t_both / t_serial
print(f"two streams: one {t_one * 1e3:.3f} ms, serial {t_serial * 1e3:.3f} ms,"
      f" two streams {t_both * 1e3:.3f} ms ({ratio:.2f} of serial)")
overlap = ratio < 0.75
failed += not overlap
print("two streams overlap:", "ok" if overlap else "FAILED")
report("two streams result",
       max(rel(Y1, torch.softmax(X1.float(), -1)),
           rel(Y2, torch.softmax(X2.float(), -1))), 1e-2)
print(f"cuda graphs: {failed} failed")
