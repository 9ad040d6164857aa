"""Every ```mlir block of docs/Tutorial.md is a run of consecutive lines of
a kernel file (indentation aside), so the tutorial shows the code that the
GPU tests run. Prints one line per block, and the blocks found nowhere.

Usage: check_tutorial.py SOURCE_ROOT
"""
import glob
import os
import re
import sys

root = sys.argv[1]
doc = open(os.path.join(root, "docs", "Tutorial.md")).read()
blocks = re.findall(r"```mlir\n(.*?)```", doc, re.S)
files = sorted(glob.glob(os.path.join(root, "kernels", "*.mlir")) +
               glob.glob(os.path.join(root, "kernels", "examples", "*.mlir")))
sources = {os.path.relpath(f, root): [l.strip() for l in open(f)]
           for f in files}
bad = 0
for i, block in enumerate(blocks):
    want = [l.strip() for l in block.rstrip("\n").split("\n")]
    where = [name for name, lines in sources.items()
             if any(lines[k:k + len(want)] == want
                    for k in range(len(lines) - len(want) + 1))]
    if where:
        print(f"block {i}: {len(want)} lines from {where[0]}")
    else:
        bad += 1
        print(f"block {i}: NOT FOUND in any kernel file: {want[0]}")
print(f"{len(blocks)} blocks, {bad} not found")
sys.exit(1 if bad else 0)
