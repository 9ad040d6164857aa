"""Kernel info through the runtime's parser, without a GPU
(kernel-info.test): records, lookups, and the parser's own messages."""
import tile_mlir

TEXT = """tile-kernel-info 1
kernel gemm
block 384 1 1
smem 197632
grid 0 2 1 256
grid 1 2 0 128
param memref 0 f16 2
param memref 1 f16 2
param memref 2 f32 2
param scalar 3 f32
param tensormap 0 f16 2 box 64 128 swizzle 128
param tensormap 1 f16 2 box 64 256 swizzle 128
end
kernel scale
block 128 2 1
smem 0
grid 0 -1 0 132
param memref 0 bf16 3
param scalar 1 i64
param scalar 2 i32
end
"""

# The same GEMM with access lines (C read and written: an accumulating
# GEMM), and a kernel whose outputs are its first and last arguments.
ACCESS = """tile-kernel-info 1
kernel gemm
block 384 1 1
smem 197632
grid 0 2 1 256
param memref 0 f16 2
param memref 1 f16 2
param memref 2 f32 2
param scalar 3 f32
param tensormap 0 f16 2 box 64 128 swizzle 128
param tensormap 1 f16 2 box 64 256 swizzle 128
access 0 read
access 1 read
access 2 readwrite
end
kernel copy
block 128 1 1
smem 0
param memref 0 bf16 1
param scalar 1 i64
param memref 2 bf16 1
param memref 3 bf16 1
access 0 write
access 2 read
access 3 readwrite
end
"""

for text in (TEXT, ACCESS):
    for k in tile_mlir.kernel_info(text):
        print(k)
        print("  nargs", k.nargs, "args", [p.kind for p in k.args])
        for p in k.params:
            print("  ", p.kind, p.arg, p.dtype, p.rank, p.box, p.swizzle,
                  p.access)
        print("  grid", k.grid)
        print("  outputs", k.outputs)

with tile_mlir.KernelInfo(TEXT.encode()) as info:
    print("find:", info.find("scale").name)
    try:
        info.find("softmax")
    except tile_mlir.NotFoundError as e:
        print("NotFoundError:", e)
print("empty module:", tile_mlir.kernel_info("tile-kernel-info 1\n"))
print("default access:", tile_mlir.ParamDesc("memref", 0, "f16", 2).access)
print("dtype sizes:", [tile_mlir.dtype_size(d) for d in ("f16", "f32", "i64")])

for bad in [
    "",
    "tile-kernel-info 2\n",
    "tile-kernel-info 1\nkernel k\nblock 0 1 1\n",
    "tile-kernel-info 1\nkernel k\nblock 1 1 1\nsmem 0\n"
    "param memref 0 f8 2\nend\n",
    "tile-kernel-info 1\nkernel k\nblock 1 1 1\nsmem 0\n",
    "tile-kernel-info 1\nkernel k\nblock 1 1 1\nsmem 0\n"
    "param scalar 0 f32\naccess 0 read\nend\n",
    "tile-kernel-info 1\nkernel k\nblock 1 1 1\nsmem 0\n"
    "param memref 0 f32 1\naccess 0 written\nend\n",
]:
    try:
        tile_mlir.kernel_info(bad)
        print("parsed?!")
    except tile_mlir.ParseError as e:
        print(f"ParseError status={e.status} {e.status_name}: {e.message}")
        assert isinstance(e, ValueError) and isinstance(e, tile_mlir.TileError)
