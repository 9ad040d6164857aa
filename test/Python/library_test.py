"""Library lookup (library.test): $TILE_MLIR_LIB_DIR naming a directory
without the libraries gives a clear error on first use, not at import."""
import tile_mlir

print("imported")
for label, call in [("compile", lambda: tile_mlir.compile("module {\n}\n")),
                    ("kernel_info", lambda: tile_mlir.kernel_info("")),
                    ("Runtime", tile_mlir.Runtime)]:
    try:
        call()
    except tile_mlir.LibraryNotFoundError as e:
        print(f"{label}: LibraryNotFoundError: {e}")
