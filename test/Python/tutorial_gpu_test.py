"""The kernels that docs/Tutorial.md builds (tutorial-gpu.test), run from
torch on shapes that are and are not multiples of their tiles, against
float32 references: scale_add (element-wise), linear_relu (a GEMM with
a bias and ReLU epilogue) and layernorm (a row reduction whose padding is
masked). The tutorial's other steps run in
rmsnorm, gqa-gpu and atomics-gpu.

Usage: tutorial_gpu_test.py KERNELS_DIR
"""
import sys

import torch

import tile_mlir as tm

kernels_dir = sys.argv[1]
torch.manual_seed(0)
dev = torch.device("cuda")
failed = 0
rt = tm.Runtime(0)
modules = {}


def kernel(path, name):
    if path not in modules:
        modules[path] = rt.load(tm.compile(f"{kernels_dir}/examples/{path}"))
    return modules[path].kernel(name)


def report(label, out, ref, tol):
    global failed
    err = ((out.float() - ref).norm() / ref.norm()).item()
    ok = err < tol
    failed += not ok
    print(f"{label}: {'ok' if ok else f'FAILED rel {err:.3g}'}")


dtypes = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
for name, t, (m, n) in [("scale_add_f16", "f16", (8, 256)),
                        ("scale_add_f16", "f16", (5, 1000)),
                        ("scale_add_f16", "f16", (33, 257)),
                        ("scale_add_f32", "f32", (1, 1))]:
    x = torch.randn(m, n, device=dev).to(dtypes[t])
    y = torch.randn(m, n, device=dev).to(dtypes[t])
    out = torch.full_like(x, float("nan"))
    kernel("scale_add.mlir", name).launch(x, y, out, 0.75)
    report(f"{name} {m}x{n}", out, 0.75 * x.float() + y.float(), 1e-3)

for name, t, (m, n, k) in [("linear_relu_f16", "f16", (128, 256, 64)),
                           ("linear_relu_f16", "f16", (333, 264, 136)),
                           ("linear_relu_f16", "f16", (1000, 512, 1024)),
                           ("linear_relu_bf16", "bf16", (200, 136, 72))]:
    a = torch.randn(m, k, device=dev).to(dtypes[t])
    b = torch.randn(k, n, device=dev).to(dtypes[t])
    bias = torch.randn(n, device=dev).to(dtypes[t])
    c = torch.full((m, n), float("nan"), device=dev, dtype=dtypes[t])
    kernel("linear.mlir", name).launch(a, b, bias, c)
    ref = torch.relu(a.float() @ b.float() + bias.float())
    report(f"{name} {m}x{n}x{k}", c, ref, 1e-2)

import torch.nn.functional as F  # noqa: E402

for name, t, (m, n) in [("layernorm_f16", "f16", (4, 1024)),
                        ("layernorm_f16", "f16", (37, 1000)),
                        ("layernorm_bf16", "bf16", (5, 77)),
                        ("layernorm_4096_f16", "f16", (3, 4000)),
                        ("layernorm_4096_f16", "f16", (2, 1))]:
    x = (torch.randn(m, n, device=dev) * 2 + 0.5).to(dtypes[t])
    w = torch.randn(n, device=dev).to(dtypes[t])
    bias = torch.randn(n, device=dev).to(dtypes[t])
    y = torch.full_like(x, float("nan"))
    kernel("layernorm.mlir", name).launch(x, w, bias, y, 1e-5)
    ref = F.layer_norm(x.float(), (n,), w.float(), bias.float(), 1e-5)
    report(f"{name} {m}x{n}", y, ref, 1e-2)

print("failed:", failed)
