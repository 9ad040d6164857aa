"""The pip-installed tile_mlir (python-package.test): where it was imported
from, where it loaded the libraries from, and a kernel compiled to PTX;
where tile_mlir.ops finds its kernels and rules, and whether the fast
launch extension loads (beside the installed runtime)."""
import sys
from pathlib import Path

import tile_mlir

print("package:", Path(tile_mlir.__file__).parent)
compiled = tile_mlir.compile(sys.argv[1], kernels=[sys.argv[2]], fmt="ptx")
for kernel in compiled.kernels():
    print("kernel:", kernel.name)
entries = [line for line in compiled.binary.decode().splitlines()
           if line.startswith(".visible .entry")]
print("ptx:", entries[0] if entries else "(no entry)")
for name, path in sorted(tile_mlir.loaded_libraries().items()):
    print(f"loaded {name}: {path}")
import tile_mlir.dispatch  # noqa: E402
import tile_mlir.ops  # noqa: E402
from tile_mlir import _ffi  # noqa: E402

print("ops kernels:", tile_mlir.ops.kernels_dir())
print("dispatch rules:", len(tile_mlir.dispatch.load_rules()["softmax"]),
      "softmax classes")
print("fast launch module:", _ffi.launcher() is not None,
      tile_mlir.loaded_libraries().get(_ffi.LAUNCH_MODULE))
