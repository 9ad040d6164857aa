#!/usr/bin/env bash
# The main job: sets up the machine, builds, and compiles the four operators
# of kernels/ (GEMM, GEMM+bias+GELU, softmax, attention); where a GPU is
# present, runs each on random inputs, checks it against a host reference
# and times it.
# Usage: tools/run-main.sh [OP...]   OP: gemm gemm_bias_gelu softmax attention
#                                    (default: all four)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${TILE_BUILD_DIR:-$root/build}"
"$root/tools/setup.sh"
"$root/tools/build.sh" tile-run
export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"

run() { "$build/bin/tile-run" "$@" --check --iters 50; }
ops=("$@")
[ ${#ops[@]} -gt 0 ] || ops=(gemm gemm_bias_gelu softmax attention)
for op in "${ops[@]}"; do
  echo "== $op"
  case "$op" in
  gemm)
    run "$root/kernels/gemm.mlir" --op gemm --kernel gemm_f16 \
      --M 4096 --N 4096 --K 4096 ;;
  gemm_bias_gelu)
    run "$root/kernels/gemm_bias_gelu.mlir" --op gemm_bias_gelu \
      --kernel gemm_bias_gelu_f16 --M 4096 --N 4096 --K 4096 ;;
  softmax)
    run "$root/kernels/softmax.mlir" --op softmax --kernel softmax_n4096_f16 \
      --M 16384 --N 4096 ;;
  attention)
    run "$root/kernels/flash_attention.mlir" --op attention \
      --kernel attention_causal_d128_f16 --causal --B 8 --H 16 --S 4096 \
      --D 128 ;;
  *)
    echo "run-main.sh: unknown operator '$op'" >&2
    exit 2 ;;
  esac
done
