#!/usr/bin/env bash
# The main job: sets up the machine, builds, compiles kernels/gemm.mlir and,
# where a GPU is present, runs it on random inputs, checks it and times it.
# Usage: tools/run-main.sh [M N K]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${TILE_BUILD_DIR:-$root/build}"
"$root/tools/setup.sh"
"$root/tools/build.sh" tile-run
export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
M=${1:-4096} N=${2:-4096} K=${3:-4096}
"$build/bin/tile-run" "$root/kernels/gemm.mlir" --op gemm --kernel gemm_f16 \
  --M "$M" --N "$N" --K "$K" --check --iters 50
