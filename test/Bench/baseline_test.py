"""The speed baseline's cases, host only (baseline.test): every case names
an instance that its kernel file declares (a renamed instance would make
the baseline time nothing), and the margin a regression must pass is the
larger of 5% and the recorded and measured spreads together."""

import re
import sys
from pathlib import Path

root = Path(sys.argv[1])
sys.path.insert(0, str(root / "python" / "benchmarks"))
import baseline  # noqa: E402

files = {"gemm": "gemm.mlir", "gemm_bias_gelu": "gemm_bias_gelu.mlir",
         "softmax": "softmax.mlir", "attention": "flash_attention.mlir"}
for dtype in ("f16", "bf16"):
    for op, shape, flags in baseline.CASES:
        name = baseline.instance_name(op, shape, flags, dtype)
        text = (root / "kernels" / files[op]).read_text()
        found = re.search(r"tile\.instance @" + name + r" =", text)
        print(f"{baseline.case_name(op, shape, flags)} {dtype}: {name} "
              f"{'declared' if found else 'MISSING'}")
print("margin, no record:", baseline.margin(None, {"spread": 0.01}))
print("margin, spreads 4% + 3%:",
      round(baseline.margin({"spread": 0.04}, {"spread": 0.03}), 3))
