#!/usr/bin/env bash
# Sets up a Debian 12 machine to build and test tile-mlir: installs what is
# missing from Debian's packages and checks for the CUDA toolkit (ptxas).
# Safe to run again. Usage: tools/setup.sh
set -euo pipefail

packages=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools # MLIR, FileCheck, lit
  clang-22                                               # libMLIR.so's compiler
  clang-format-22                                        # the formatting check
  libclang-rt-22-dev                                     # ASan/UBSan runtimes
  libgtest-dev                                           # C++ unit tests
  cmake ninja-build python3
  python3-dev                                            # the fast launch extension
  pkgconf python3-venv python3-pip                       # test/Install: pkg-config,
  python3-setuptools python3-wheel                       # pip install offline
  python3-matplotlib                                     # benchmark report charts
)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cuda="${CUDA_HOME:-/usr/local/cuda}"
if [ ! -x "$cuda/bin/ptxas" ]; then
  echo "setup: no CUDA toolkit at $cuda (ptxas is needed to assemble cubins);" \
       "install CUDA 12.0 or newer there or set CUDA_HOME" >&2
  exit 1
fi
echo "setup: ready (MLIR $(/usr/lib/llvm-22/bin/mlir-opt --version | sed -n 's/.*LLVM version //p'), $("$cuda/bin/ptxas" --version | tail -1))"
