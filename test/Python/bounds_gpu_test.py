"""kernels/examples/ragged.mlir on the GPU (bounds-gpu.test): Y = 2 X on
the rows before END, a run-time scalar, with the rows at or past END left
as they were, for ends inside a block, on a block boundary, 0 and the
whole tensor, on shapes that are and are not multiples of the tiles.

Usage: bounds_gpu_test.py KERNELS_DIR
"""
import sys

import torch

import tile_mlir as tm

kernels_dir = sys.argv[1]
torch.manual_seed(0)
rt = tm.Runtime(0)
kernel = rt.load(tm.compile(f"{kernels_dir}/examples/ragged.mlir")).kernel(
    "scale_rows_until_f16")
failed = 0
for m, n, ends in ((64, 256, (0, 5, 8, 64)), (77, 1000, (1, 37, 76, 77)),
                   (3, 4097, (2, 3))):
    for end in ends:
        x = torch.randn(m, n, device="cuda", dtype=torch.float16)
        y = torch.full((m, n), 7.0, device="cuda", dtype=torch.float16)
        kernel.launch(x, y, end)
        want = torch.full_like(y, 7.0)
        want[:end] = x[:end] * 2
        bad = (y != want).sum().item()
        failed += bad != 0
        print(f"bounds {m}x{n} end {end}: "
              f"{'ok' if bad == 0 else f'FAILED {bad} differ'}")
print(f"bounds: {failed} failed")
sys.exit(1 if failed else 0)
