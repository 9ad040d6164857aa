"""The runtime without a CUDA driver ($TILE_RT_LIBCUDA naming no library):
clean exceptions, and host-only parts still work (no-driver.test)."""
import tile_mlir

for label, call in [("device_count", tile_mlir.device_count),
                    ("Runtime()", tile_mlir.Runtime),
                    ("Runtime(1)", lambda: tile_mlir.Runtime(1))]:
    try:
        call()
        print(label, "succeeded?!")
    except tile_mlir.NoDriverError as e:
        print(f"{label}: {type(e).__name__} [{e.status_name}] {e.message}")
    except Exception as e:
        print(f"{label}: unexpected {type(e).__name__}: {e}")

print("kernel info still parses:",
      [k.name for k in tile_mlir.kernel_info(
          "tile-kernel-info 1\nkernel k\nblock 32 1 1\nsmem 0\nend\n")])
