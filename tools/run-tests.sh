#!/usr/bin/env bash
# Sets up the machine, builds, and runs every test (lit + FileCheck, C API,
# runtime). GPU tests run where a GPU is found and are reported unsupported
# elsewhere. Usage: tools/run-tests.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/setup.sh"
"$root/tools/build.sh" check-tile
