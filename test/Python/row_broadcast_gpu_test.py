"""A row of a shared tile read into a 1-d fragment (copy_c11) on the GPU
(row-broadcast-gpu.test): Y = X * V (V one row, broadcast over X's rows)
through test/Python/Inputs/row_broadcast.mlir, pipelined and with one
stage, on shapes that are and are not multiples of the tiles, against
float64.

Usage: row_broadcast_gpu_test.py INPUTS_DIR
"""
import sys

import torch

import tile_mlir as tm

torch.manual_seed(0)
failed = 0
module = tm.Runtime(0).load(tm.compile(f"{sys.argv[1]}/row_broadcast.mlir"))
for name in ("row_broadcast_f16", "row_broadcast_once_f16"):
    kernel = module.kernel(name)
    for m, n in ((32, 256), (100, 1000), (7, 4104), (64, 8)):
        x = torch.randn(m, n, device="cuda", dtype=torch.float16)
        v = torch.randn(1, n, device="cuda", dtype=torch.float16)
        y = torch.full_like(x, float("nan"))
        kernel.launch(x, v, y)
        ref = x.double() * v.double()
        err = ((y.double() - ref).norm() / ref.norm()).item()
        ok = err < 1e-3
        failed += not ok
        print(f"{name} {m}x{n}: {'ok' if ok else f'FAILED rel {err:.3g}'}")
print(f"row broadcast: {failed} failed")
sys.exit(1 if failed else 0)
