"""Kernel resources read from a compiled cubin by the runtime, without a GPU
(resources.test).

Usage: resources_test.py KERNEL.mlir
"""
import sys

import tile_mlir

cubin = tile_mlir.compile(sys.argv[1])
r = cubin.resources("gemm_f16")
print("sm", r.sm, "registers", "nonzero" if r.registers else "zero",
      "param bytes", "nonzero" if r.param_bytes else "zero",
      "max threads", r.max_threads == cubin.kernel("gemm_f16").block)
try:
    cubin.resources("gemm")
except tile_mlir.NotFoundError as e:
    print("NotFoundError:", e.message)
try:
    tile_mlir.Compiled(b"not a cubin", "").resources("k")
except tile_mlir.ParseError as e:
    print("ParseError:", e.message)
try:
    tile_mlir.compile(sys.argv[1], fmt="ptx").resources("gemm_f16")
except ValueError as e:
    print("ValueError:", e)
