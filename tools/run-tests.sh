#!/usr/bin/env bash
# Sets up the machine, builds, and runs every test (lit + FileCheck, C API,
# runtime). GPU tests run where a GPU is found and are reported unsupported
# elsewhere. Then the host suite again from a build under AddressSanitizer
# (leak checks on) and UndefinedBehaviorSanitizer, in build-sanitize/, with
# a minute of the fuzzer, tile-fuzz, built there (TILE_SANITIZE=0 skips it). Usage: tools/run-tests.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/setup.sh"
"$root/tools/build.sh" check-tile
if [ "${TILE_SANITIZE:-1}" != 0 ]; then
  TILE_BUILD_DIR="$root/build-sanitize" \
    TILE_CMAKE_ARGS="-DLLVM_USE_SANITIZER=Address;Undefined -DTILE_ENABLE_FUZZER=ON" \
    "$root/tools/build.sh" check-tile
fi
