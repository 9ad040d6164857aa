"""Hostile bindings through params= (hostile-params.test): each raises
CompileError; the process goes on."""
import tile_mlir

SOURCE = """
tile.kernel @k(%X: memref<?x?x!tile.param<"T">>, %Y: memref<?x?x!tile.param<"T">>)
    params {BM = 64, T = f32} grid [%X[0] / BM] threads 128 {
  %c0 = arith.constant 0 : index
  %bm = tile.param "BM" : index
  %x = tile.alloc_fragment [%bm, %bm] : !tile.fragment<?x?x!tile.param<"T">>
  tile.copy %X[%c0, %c0] -> %x : memref<?x?x!tile.param<"T">> -> !tile.fragment<?x?x!tile.param<"T">>
  tile.copy %x -> %Y[%c0, %c0] : !tile.fragment<?x?x!tile.param<"T">> -> memref<?x?x!tile.param<"T">>
}
"""

for name, value in [("T", "index"), ("T", "vector<4xf16>"), ("T", "!llvm.ptr"),
                    ("T", "f80"), ("BM", 65536), ("BM", 2**31), ("BM", 128)]:
    print(f"--- {name} = {value}")
    try:
        tile_mlir.compile(SOURCE, fmt="ptx", params={name: value})
        print("compiled")
    except tile_mlir.CompileError as e:
        print("CompileError:", " | ".join(str(e).splitlines()))
print("still running")
