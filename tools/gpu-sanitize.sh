#!/usr/bin/env bash
# Runs the four operators under compute-sanitizer's memcheck, racecheck and
# synccheck, on small shapes that include partial edge tiles, and prints one
# summary line per case and tool. Each case is compiled once (tile-run
# --emit-dir) and then run, checked against the host reference, under each
# tool from the cubin (--no-compile), so that the sanitizer sees only the
# GPU work. Exits non-zero when a tool reports anything or a check fails.
# Usage: tools/gpu-sanitize.sh [OUT_DIR]   (needs a GPU and compute-sanitizer;
# TILE_SANITIZE_ONLY=NAME runs one case)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="${TILE_BUILD_DIR:-$root/build}/bin"
out="${1:-$root/build/gpu-sanitize}"
sanitizer=$(command -v compute-sanitizer ||
  echo "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer")
[ -x "$sanitizer" ] || { echo "no compute-sanitizer found" >&2; exit 2; }
mkdir -p "$out"

# name | kernel source | tile-run arguments
cases=(
  "gemm-f16|gemm.mlir|--op gemm --kernel gemm_f16 --M 200 --N 136 --K 72"
  "gemm-bf16-long-k|gemm.mlir|--op gemm --kernel gemm_bf16 --M 130 --N 264 --K 1000"
  "gemm-f32-out-64x128|gemm.mlir|--op gemm --kernel gemm_f16_f32 --param BM=64 --param BN=128 --param THREADS=128 --M 100 --N 200 --K 136"
  "gbg-tanh|gemm_bias_gelu.mlir|--op gemm_bias_gelu --kernel gemm_bias_gelu_f16 --M 200 --N 136 --K 72"
  "gbg-erf|gemm_bias_gelu.mlir|--op gemm_bias_gelu --kernel gemm_bias_gelu_erf_f16 --gelu erf --M 130 --N 264 --K 80"
  "softmax-one-pass|softmax.mlir|--op softmax --kernel softmax_n1024_f16 --M 9 --N 1000"
  "softmax-one-pass-bf16|softmax.mlir|--op softmax --kernel softmax_n4096_bf16 --M 5 --N 3001"
  "softmax-two-pass|softmax.mlir|--op softmax --kernel softmax_f16 --M 3 --N 20001"
  "attention-d64|flash_attention.mlir|--op attention --kernel attention_d64_f16 --B 1 --H 2 --S 100 --D 64"
  "attention-causal-d128|flash_attention.mlir|--op attention --kernel attention_causal_d128_bf16 --causal --B 1 --H 1 --S 200 --D 128"
)
tools=(memcheck racecheck synccheck)

status=0
only="${TILE_SANITIZE_ONLY:-}" # a case name: run only that one
for c in "${cases[@]}"; do
  IFS='|' read -r name source args <<<"$c"
  [ -z "$only" ] || [ "$only" = "$name" ] || continue
  dir="$out/$name"
  mkdir -p "$dir"
  # shellcheck disable=SC2086
  if ! "$bin/tile-run" "$root/kernels/$source" $args --emit-dir "$dir" \
      >"$dir/compile.log" 2>&1; then
    echo "$name: FAILED to compile or check without a sanitizer ($dir/compile.log)"
    status=1
    continue
  fi
  stem=${source%.mlir}
  # The cubin holds what the bindings chose; a run from it takes no --param.
  run_args=$(sed -E 's/--param [^ ]+//g' <<<"$args")
  for tool in "${tools[@]}"; do
    log="$dir/$tool.log"
    # shellcheck disable=SC2086
    "$sanitizer" --tool "$tool" --error-exitcode 3 \
      "$bin/tile-run" --no-compile --image "$dir/$stem.cubin" \
      --kinfo "$dir/$stem.kinfo" $run_args --timeout 600 >"$log" 2>&1
    rc=$?
    summary=$(grep -E "(ERROR|RACECHECK) SUMMARY" "$log" | tail -1 |
      sed 's/^=* *//')
    check=$(grep -Eo "rel_err=[^ ]+ [A-Z]+" "$log" | head -1)
    echo "$name $tool: rc=$rc; ${summary:-no summary}; ${check:-no check line}"
    [ "$rc" = 0 ] && [[ $check == *PASS ]] || status=1
  done
done
exit $status
