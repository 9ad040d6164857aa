// What ptxas says of one kernel is reported at that kernel's source: the
// binary's location fuses a name per kernel (convert-tile-to-nvgpu), and
// the line that names a function takes its location.
// RUN: rm -rf %t && mkdir -p %t/tmp %t/bin

// A refusal naming the second kernel: the error is at its source.
// RUN: printf '#!/bin/sh\necho "ptxas fatal   : (C7602) Insufficient registers (80) to compile instruction at line 9 in function second. Try to compile with register target of 90 or higher." >&2\nexit 255\n' > %t/bin/ptxas && chmod +x %t/bin/ptxas
// RUN: not env PATH=%t/bin:%PATH% TMPDIR=%t/tmp %tile_tools_dir/tile-opt %s --tile-assemble-cubin 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: kernels.mlir:40:1: error: {{.*}}ptxas failed (exit 255): ptxas fatal   : (C7602) Insufficient registers (80) to compile instruction at line 9 in function second.

// Advice naming the first kernel: the warning is at its source; a kernel
// whose name only starts another's ("first_b") is not taken for it.
// RUN: printf '#!/bin/sh\necho "ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async instructions are serialized due to ... in the function '"'"'first'"'"'"\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && printf CUBIN > "$2"; shift; done\n' > %t/bin/ptxas
// RUN: env PATH=%t/bin:%PATH% TMPDIR=%t/tmp %tile_tools_dir/tile-opt %s --tile-assemble-cubin 2>&1 >/dev/null | FileCheck %s --check-prefix=ADVICE
// ADVICE: kernels.mlir:3:1: warning: ptxas: ptxas info    : (C7514) Potential Performance Loss: {{.*}} in the function 'first'

#first_b = loc("kernels.mlir":2:1)
#first = loc("kernels.mlir":3:1)
#second = loc("kernels.mlir":40:1)
#named_first_b = loc("first_b"(#first_b))
#named_first = loc("first"(#first))
#named_second = loc("second"(#second))
#kernels = loc(fused[#named_first_b, #named_first, #named_second])
module attributes {gpu.container_module} {
  gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90a">,
    assembly = ".version 8.0\0A.target sm_90a\0A.address_size 64\0A\0A.visible .entry first()\0A{\0A\09ret;\0A}\0A">] loc(#kernels)
}
