//===- tile-fuzz-problem.cpp - libFuzzer target: problems as JSON ---------===//
//
// Every input is a problem description (docs/Problems.md), as tile-run,
// tile-tune and tile_mlir.tune read it: parsed, then bound to a kernel
// whose record has every element type a problem fills (f16, i8, i32, i64
// tensors, an f32 output, i32, i64 and f32 scalars) and shape contracts
// with arithmetic, then its arguments built for the launch and the
// contracts checked, as before a launch. Refusals are the expected outcome
// and are captured, not printed; a crash, a hang, a sanitizer report (an
// out-of-range cast of a scalar or a drawn value among them) or a leak is
// a finding. test/Fuzz runs it briefly in CI.
//
//===----------------------------------------------------------------------===//

extern "C" {
#include "host_util.h"
#include "problem_json.h"
}

#include <cstddef>
#include <cstdint>
#include <cstdlib>

/// The record of a compiled kernel (kernels' `tile.kernel_info`).
static const char kKernelInfo[] = "tile-kernel-info 1\n"
                                  "kernel hostile\n"
                                  "block 128 1 1\n"
                                  "smem 0\n"
                                  "grid 0 0 1 256\n"
                                  "grid 1 0 0 8\n"
                                  "param memref 0 f16 2\n"
                                  "param memref 1 i8 1\n"
                                  "param memref 2 i32 1\n"
                                  "param memref 3 i64 1\n"
                                  "param memref 4 f32 2\n"
                                  "param scalar 5 i32\n"
                                  "param scalar 6 i64\n"
                                  "param scalar 7 f32\n"
                                  "access 0 read\n"
                                  "access 1 read\n"
                                  "access 2 read\n"
                                  "access 3 read\n"
                                  "access 4 write\n"
                                  "require eq 4:0:Out 0:0:X\n"
                                  "require eq 4:1:Out 0:1:X\n"
                                  "require eq 0:1:X,8,mod 0\n"
                                  "require le 1:0:B,4,* 2:0:I,100,+\n"
                                  "require ge 3:0:L,3,ceildiv 1\n"
                                  "end\n";

static const tile_rt_kernel_desc *kernel() {
  // Parsed once and kept for the process, as a tool keeps its module.
  static tile_rt_kernel_info *info = nullptr;
  static const tile_rt_kernel_desc *desc = [] {
    const tile_rt_kernel_desc *k = nullptr;
    if (tile_rt_kernel_info_parse(&info, kKernelInfo, sizeof kKernelInfo - 1) !=
            TILE_RT_SUCCESS ||
        tile_rt_kernel_info_get(&k, info, 0) != TILE_RT_SUCCESS)
      abort(); // the record above is the fuzzer's own: it must parse
    return k;
  }();
  return desc;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  (void)kernel();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tool_capture_errors(1);
  tool_clear_error();
  static tool_problem_desc d;
  if (tool_problem_from_json(&d, reinterpret_cast<const char *>(data), size,
                             "problem") == 0 &&
      tool_problem_bind(&d, kernel()) == 0)
    (void)tool_problem_check_contracts(&d, kernel());
  return 0;
}
