"""An element-wise body whose nested regions read kernel-level values
(nested-region-gpu.test): an scf.if with an scf.for inside, over shapes that
are not multiples of the tile, checked against a host reference.

Usage: nested_region_gpu_test.py
"""
import math
import random
import struct

import tile_mlir as tm

SOURCE = """
tile.kernel @nested(%A: memref<?x?xf32>, %B: memref<?x?xf32>)
    grid [%A[0] / 16] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %low = arith.constant -0.5 : f32
  %half = arith.constant 0.5 : f32
  %bx = tile.block_id x
  %c16 = arith.constant 16 : index
  %m0 = arith.muli %bx, %c16 : index
  %a = tile.alloc_fragment : !tile.fragment<16x128xf32>
  tile.copy %A[%m0, %c0] -> %a : memref<?x?xf32> -> !tile.fragment<16x128xf32>
  tile.parallel outs(%a : !tile.fragment<16x128xf32>) attributes {indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32):
    %p = arith.cmpf ogt, %x, %zero : f32
    %r = scf.if %p -> f32 {
      %y = arith.addf %x, %one : f32
      scf.yield %y : f32
    } else {
      %q = arith.cmpf olt, %x, %low : f32
      %z = scf.if %q -> f32 {
        %s = scf.for %i = %c0 to %c3 step %c1 iter_args(%v = %x) -> f32 {
          %h = arith.mulf %v, %half : f32
          scf.yield %h : f32
        }
        scf.yield %s : f32
      } else {
        scf.yield %x : f32
      }
      scf.yield %z : f32
    }
    tile.yield %r : f32
  }
  tile.copy %a -> %B[%m0, %c0] : !tile.fragment<16x128xf32> -> memref<?x?xf32>
}
"""


def reference(x):
    if x > 0:
        return x + 1
    return x / 8 if x < -0.5 else x


kernel_binary = tm.compile(SOURCE)
rng = random.Random(7)
with tm.Runtime(0) as rt:
    k = rt.load(kernel_binary).kernel("nested")
    for m, n in [(16, 128), (40, 100), (3, 4)]:
        a = [rng.uniform(-2, 2) for _ in range(m * n)]
        with rt.alloc(m * n * 4) as da, rt.alloc(m * n * 4) as db:
            da.copy_from_host(struct.pack(f"<{m * n}f", *a))
            db.fill(0x7FC00000, width=4)  # NaN: an element not written fails
            k.launch(da.memref("f32", (m, n)), db.memref("f32", (m, n)))
            rt.synchronize(timeout_s=30)
            out = struct.unpack(f"<{m * n}f", db.copy_to_host())
        ref = [reference(struct.unpack("<f", struct.pack("<f", x))[0])
               for x in a]
        err = math.sqrt(sum((o - r) ** 2 for o, r in zip(out, ref)) /
                        sum(r * r for r in ref))
        print(f"{m}x{n}:", "ok" if err < 1e-6 else f"FAILED rel_err={err}")
