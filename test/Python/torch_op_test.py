"""Kernels registered as torch.library custom ops (torch-op.test): eager
results against torch references on shapes that are not multiples of the
tiles, torch.library.opcheck (schema, fake implementation, dispatch),
torch.compile(fullgraph=True) of a module calling two of them, the same
under mode="reduce-overhead" (CUDA graphs), and what autograd and a CPU
tensor give.

Usage: torch_op_test.py KERNELS_DIR
"""
import math
import sys

import torch
import torch.nn.functional as F

import tile_mlir as tm

kernels_dir = sys.argv[1]
torch.manual_seed(0)
dev = torch.device("cuda")
failed = 0


def report(label, out, ref, tol=1e-2):
    global failed
    err = ((out.float() - ref.float()).norm() / ref.float().norm()).item()
    ok = err < tol
    failed += not ok
    print(f"{label}: {'ok' if ok else f'FAILED rel {err:.3g}'}")


rt = tm.Runtime(0)


def kernel(path, name):
    return rt.load(tm.compile(f"{kernels_dir}/{path}",
                              kernels=[name])).kernel(name)


softmax = tm.torch_op(kernel("softmax.mlir", "softmax_n4096_f16"),
                      name="softmax")
linear_gelu = tm.torch_op(kernel("gemm_bias_gelu.mlir", "gemm_bias_gelu_f16"),
                          name="linear_gelu")
attention = tm.torch_op(kernel("flash_attention.mlir",
                               "attention_causal_d64_f16"),
                        name="attention_causal_d64")
for op in (softmax, linear_gelu, attention):
    print("schema:", op._schema)

x = torch.randn(77, 3000, dtype=torch.float16, device=dev)
report("eager softmax", softmax(x), torch.softmax(x.float(), -1))
M, N, K = 333, 264, 136
a = torch.randn(M, K, dtype=torch.float16, device=dev)
b = torch.randn(K, N, dtype=torch.float16, device=dev)
bias = torch.randn(N, dtype=torch.float16, device=dev)


def gelu_addmm(a, b, bias):
    return F.gelu(torch.addmm(bias.float(), a.float(), b.float()),
                  approximate="tanh")


report("eager linear_gelu", linear_gelu(a, b, bias), gelu_addmm(a, b, bias))
q, k, v = (torch.randn(2, 3, 300, 64, dtype=torch.float16, device=dev)
           for _ in range(3))
scale = 1 / math.sqrt(64)
report("eager attention", attention(q, k, v, scale),
       F.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                      is_causal=True, scale=scale))

for label, op, args in (("softmax", softmax, (x,)),
                        ("linear_gelu", linear_gelu, (a, b, bias)),
                        ("attention", attention, (q, k, v, scale))):
    try:
        torch.library.opcheck(op, args)
        print(f"opcheck {label}: ok")
    except Exception as e:
        failed += 1
        print(f"opcheck {label}: FAILED {type(e).__name__}: {e}")


class Block(torch.nn.Module):
    """A Linear + bias + GELU, then a row softmax: two of our ops."""

    def __init__(self, b, bias):
        super().__init__()
        self.b, self.bias = b, bias

    def forward(self, a):
        return softmax(linear_gelu(a, self.b, self.bias) * 0.5)


block = Block(b, bias)
want = torch.softmax(gelu_addmm(a, b, bias).half().float() * 0.5, -1)
report("eager module", block(a), want)
compiled = torch.compile(block, fullgraph=True)
report("torch.compile fullgraph", compiled(a), block(a), tol=1e-3)
graphed = torch.compile(block, mode="reduce-overhead", fullgraph=True)
for i in range(3):  # the later calls replay a CUDA graph
    a2 = torch.randn_like(a)
    report(f"reduce-overhead call {i}", graphed(a2), block(a2), tol=1e-3)

x.requires_grad_(True)
try:
    softmax(x).float().sum().backward()
    print("backward: FAILED, no error")
    failed += 1
except RuntimeError as e:
    print("backward: RuntimeError:", str(e)[:200])
try:
    softmax(torch.randn(4, 64, dtype=torch.float16))
    print("cpu tensor: FAILED, no error")
    failed += 1
except NotImplementedError as e:
    print("cpu tensor: NotImplementedError",
          "(no CPU kernel)" if "CPU" in str(e) else str(e)[:200])
try:
    tm.torch_op(kernel("softmax.mlir", "softmax_n4096_f16"), name="softmax")
except ValueError as e:
    print("registered twice:", e)
print(f"torch ops: {failed} failed")
