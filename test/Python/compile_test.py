"""Compiles a module of tile kernels through the tile_mlir package and
prints what came back: kernel records, PTX excerpts, the cubin's header
(compile.test).

Usage: compile_test.py FILE.mlir OUTDIR
"""
import sys
from pathlib import Path

import tile_mlir

path, outdir = Path(sys.argv[1]), Path(sys.argv[2])

ptx = tile_mlir.compile(path, fmt="ptx")
print("format:", ptx.fmt, "bytes:", "nonzero" if ptx.binary else "zero")
print("--- kernels")
for k in ptx.kernels():
    print(k.signature())
    print("  block", *k.block, "smem", "nonzero" if k.smem else "zero",
          "tensormaps", len(k.tensormaps))
print("--- lookup")
print(ptx.kernel("gemm_f16").signature())
try:
    ptx.kernel("gemm")
except tile_mlir.NotFoundError as e:
    print("NotFoundError:", e.message)
print("--- ptx")
for line in ptx.ptx.splitlines():
    line = line.strip()
    if line.startswith((".target", ".visible .entry")):
        print(line.split("(")[0].rstrip())
    elif line.startswith("wgmma.mma_async"):
        print(line.split()[0])  # the first one, without its operands
        break

# The same text as a string compiles to the same kernel info.
text = tile_mlir.compile(path.read_text(), fmt="ptx")
print("--- from text: same kernel info:", text.kernel_info == ptx.kernel_info)

cubin = tile_mlir.compile(str(path))
print("--- cubin:", "ELF" if cubin.binary[:4] == b"\x7fELF" else "not ELF")
outdir.mkdir(parents=True, exist_ok=True)
image, kinfo = cubin.save(outdir / "gemm")
print("saved:", image.name, kinfo.name)
back = tile_mlir.Compiled.load(image, kinfo)
print("reloaded:", back.fmt, back == cubin)

for bad in [dict(fmt="elf"), dict(opt_level=4)]:
    try:
        tile_mlir.compile(path, **bad)
    except ValueError as e:
        print("ValueError:", e)

# Parameters and a selection of kernels; a refused binding names the
# parameter.
bound = tile_mlir.compile(path, fmt="ptx", kernels=["gemm_bf16"],
                          params={"BM": 64, "THREADS": 128})
print("--- bound:", [(k.name, k.block[0]) for k in bound.kernels()])
try:
    tile_mlir.compile(path, fmt="ptx", params={"BM": 96})
except tile_mlir.CompileError as e:
    print("CompileError:", [d for d in e.diagnostics if "BM" in d][0])

# The resource estimate: planned without lowering; a binding over the
# shared memory limit is refused with the bindings in a note.
for r in tile_mlir.estimate(path, kernels=["gemm_f16", "gemm_f16_f32"],
                            params={"STAGES": 3}):
    print("planned:", r.name, r.shared_bytes, r.stages, r.stage_bytes,
          r.threads, r.grid)
try:
    tile_mlir.estimate(path, kernels=["gemm_f16"], params={"BK": 128})
except tile_mlir.CompileError as e:
    print("CompileError:", [d.strip() for d in e.diagnostics
                            if "specialised with" in d][0])
