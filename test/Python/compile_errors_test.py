"""Modules that do not parse or lower raise CompileError with the
diagnostics, captured rather than printed (compile-errors.test).

Usage: compile_errors_test.py INPUTS_DIR KERNEL.mlir
"""
import sys
from pathlib import Path

import tile_mlir

inputs, kernel = Path(sys.argv[1]), Path(sys.argv[2])


def attempt(label, source, **kw):
    print(f"--- {label}")
    try:
        c = tile_mlir.compile(source, fmt="ptx", **kw)
        print("compiled?!", c.kernel_info)
    except tile_mlir.CompileError as e:
        print(f"CompileError ({len(e.diagnostics)} diagnostics)")
        print(e)
    except FileNotFoundError as e:
        print("FileNotFoundError:", e)


attempt("syntax", "module {\n  tile.kernel @k(%A: memref<?xf16>\n}\n")
attempt("file syntax", inputs / "bad-syntax.mlir")
attempt("does not verify", inputs / "bad-gemm-shapes.mlir")
attempt("no kernels", "module {\n  func.func @f() {\n    return\n  }\n}\n")
attempt("missing file", inputs / "missing.mlir")
try:
    tile_mlir.compile(42)
except TypeError as e:
    print("TypeError:", e)
attempt("does not lower: unsupported chip", kernel, chip="sm_80")
# A PTX ISA the chip cannot use: LLVM would end the process; it is refused
# before LLVM sees it.
attempt("features too old for the chip", kernel, features="+ptx60")
print("still running")
