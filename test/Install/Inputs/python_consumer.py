"""The pip-installed tile_mlir (python-package.test): where it was imported
from, where it loaded the libraries from, and a kernel compiled to PTX."""
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
