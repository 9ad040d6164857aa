"""Builds tile_mlir (pyproject.toml holds the metadata) and records in
tile_mlir/_installed.py the directory of the installed libraries
(libTileCAPI.so, libtile_rt.so, libtile_tune.so), so that the installed
package finds them without environment variables. The first of:

1. $TILE_MLIR_LIB_DIR, when set while installing;
2. the libdir of pkg-config's tile-rt (cmake --install writes
   PREFIX/lib/pkgconfig/tile-rt.pc; PKG_CONFIG_PATH names PREFIX/lib/pkgconfig
   for a prefix pkg-config does not search by default);
3. PREFIX/lib for each PREFIX of $CMAKE_PREFIX_PATH;

that holds libTileCAPI.so. Without one, the package looks in /usr/local/lib
and /usr/lib, then asks the system loader (tile_mlir._ffi.library_dirs).
"""

import os
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

CAPI_LIBRARY = "libTileCAPI.so"


def _pkg_config_libdir():
    try:
        r = subprocess.run(["pkg-config", "--variable=libdir", "tile-rt"],
                           capture_output=True, text=True, check=False)
    except OSError:
        return None
    return r.stdout.strip() if r.returncode == 0 else None


def _candidates():
    explicit = os.environ.get("TILE_MLIR_LIB_DIR")
    if explicit:
        yield from explicit.split(os.pathsep)
    libdir = _pkg_config_libdir()
    if libdir:
        yield libdir
    for prefix in os.environ.get("CMAKE_PREFIX_PATH", "").split(os.pathsep):
        if prefix:
            yield os.path.join(prefix, "lib")


def installed_library_dir():
    """The directory holding the installed libraries, or None."""
    for d in _candidates():
        d = os.path.normpath(os.path.abspath(d))
        if os.path.isfile(os.path.join(d, CAPI_LIBRARY)):
            return d
    return None


class BuildPy(build_py):
    def run(self):
        super().run()
        libdir = installed_library_dir()
        print(f"tile_mlir: libraries in {libdir or '(not found)'}",
              file=sys.stderr)
        target = Path(self.build_lib) / "tile_mlir" / "_installed.py"
        target.write_text(
            '"""Written by python/setup.py: where the installed libraries '
            'are (None: not found while installing)."""\n'
            f"LIBRARY_DIR = {libdir!r}\n")


setup(packages=["tile_mlir"], cmdclass={"build_py": BuildPy})
