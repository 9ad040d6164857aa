#!/usr/bin/env bash
# Configures and builds tile-mlir into build/ (or $TILE_BUILD_DIR), with the
# space-separated CMake arguments of $TILE_CMAKE_ARGS when set (the first
# time only).
# Usage: tools/build.sh [ninja targets...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${TILE_BUILD_DIR:-$root/build}"
read -ra extra <<<"${TILE_CMAKE_ARGS:-}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "${extra[@]}"
fi
ninja -C "$build" "$@"
