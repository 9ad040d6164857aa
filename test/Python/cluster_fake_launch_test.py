"""A kernel launched in thread-block clusters, compiled for real (ptxas
takes its .reqnctapercluster) and launched against the fake CUDA driver
(cluster-fake-launch.test): the kernel info's cluster reaches KernelDesc,
and the launch goes through cuLaunchKernelEx with the cluster dimensions
and a grid rounded up to whole clusters.

Usage: TILE_RT_LIBCUDA=.../libtile_rt_fake_cuda.so
       cluster_fake_launch_test.py
"""
import os
import sys

import tile_mlir as tm

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from fake_driver import lib as fake  # noqa: E402

SOURCE = """
tile.kernel @pairs(%X: memref<?x?xf16>, %Y: memref<?x?xf16>)
    grid [%X[1] / 64, %X[0] / 64] threads 128 cluster [2, 2] {
  %c64 = arith.constant 64 : index
  %bx = tile.block_id x
  %by = tile.block_id y
  %m = arith.muli %by, %c64 : index
  %n = arith.muli %bx, %c64 : index
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %X[%m, %n] -> %x : memref<?x?xf16> -> !tile.fragment<64x64xf32>
  tile.copy %x -> %Y[%m, %n] : !tile.fragment<64x64xf32> -> memref<?x?xf16>
}
"""

real = tm.compile(SOURCE)
info = tm.kernel_info(real.kernel_info)[0]
print(f"desc {info.name}: block {info.block} cluster {info.cluster}")
with tm.Runtime(0) as rt:
    mod = rt.load(tm.Compiled(b"FAKECUBIN pairs", real.kernel_info))
    for rows, cols in ((128, 128), (130, 200), (64, 64)):
        x = tm.MemRef(1 << 30, "f16", (rows, cols))
        y = tm.MemRef(2 << 30, "f16", (rows, cols))
        mod.kernel("pairs").launch(x, y)
        last = fake.fake_cuda_last_launch().contents
        print(f"launch {rows}x{cols}: grid {list(last.grid)} cluster "
              f"{list(last.cluster)}")
