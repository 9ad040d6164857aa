"""Makes any compilation in this process fail, for the tests that expect a
cache hit to compile nothing (tile_mlir.compile and the C API's
mlirTileCompile and mlirTileCompileCached all raise).

Tests import it with test/Python/Inputs on sys.path.
"""
import tile_mlir


def forbid_compiling() -> None:
    def refuse(*_, **__):
        raise AssertionError("compiled on a cache hit")
    tile_mlir.compiler.compile = refuse
    lib = tile_mlir._ffi.capi()
    lib.mlirTileCompile = lib.mlirTileCompileCached = refuse
