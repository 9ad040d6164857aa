// Every failure of tile-assemble-cubin is an error at the gpu.binary and a
// pass failure, and its temporary files are removed.
// RUN: rm -rf %t && mkdir -p %t/tmp %t/bin %t/nopath

// No ptxas on PATH or in the toolkit: where it looked.
// RUN: not env -u CUDA_ROOT -u CUDA_PATH CUDA_HOME=%t/nocuda PATH=%t/nopath TMPDIR=%t/tmp %tile_tools_dir/tile-opt %s --tile-assemble-cubin 2>&1 | FileCheck %s --check-prefix=NOPTXAS --implicit-check-not='LLVM ERROR'
// NOPTXAS: errors.mlir:{{[0-9]+}}:3: error: cannot find ptxas to assemble the cubin: none on PATH or in {{.*}}/nocuda/bin; add the CUDA toolkit's bin/ to PATH or set CUDA_HOME

// ptxas refuses the PTX: its exit status and its log.
// RUN: printf '#!/bin/sh\necho "ptxas fatal: bad PTX" >&2\nexit 3\n' > %t/bin/ptxas && chmod +x %t/bin/ptxas
// RUN: not env PATH=%t/bin:%PATH% TMPDIR=%t/tmp %tile_tools_dir/tile-opt %s --tile-assemble-cubin 2>&1 | FileCheck %s --check-prefix=REFUSED --implicit-check-not='LLVM ERROR'
// REFUSED: error: {{.*}}/bin/ptxas failed (exit 3): ptxas fatal: bad PTX

// ptxas succeeds without writing the cubin.
// RUN: printf '#!/bin/sh\nexit 0\n' > %t/bin/ptxas
// RUN: not env PATH=%t/bin:%PATH% TMPDIR=%t/tmp %tile_tools_dir/tile-opt %s --tile-assemble-cubin 2>&1 | FileCheck %s --check-prefix=EMPTY --implicit-check-not='LLVM ERROR'
// EMPTY: error: ptxas wrote no cubin to '{{.*}}.cubin'

// The arguments of the NVVM target's serialiser: the chip, the optimisation
// level, then the target's ptxas-cmd-options.
// RUN: printf '#!/bin/sh\necho "$@" > %t/args\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && printf CUBIN > "$2"; shift; done\n' > %t/bin/ptxas
// RUN: env PATH=%t/bin:%PATH% TMPDIR=%t/tmp %tile_tools_dir/tile-opt %s --tile-assemble-cubin | FileCheck %s --check-prefix=ASSEMBLED
// RUN: FileCheck %s --check-prefix=ARGS < %t/args
// ASSEMBLED: properties = {ISAToBinaryTimeInMs = {{[0-9]+}} : i64}, bin = "CUBIN"
// ARGS: {{^}}-arch sm_90a {{.*}}/tmp/tile-k-sm_90a-{{.*}}.ptx -o {{.*}}/tmp/tile-k-sm_90a-{{.*}}.cubin --opt-level 3 -v --maxrregcount=64{{$}}

// ptxas's warnings and performance advice on a successful run become
// warnings at the binary; its other output does not.
// RUN: printf '#!/bin/sh\necho "ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async instructions are serialized"\necho "ptxas info    : Used 90 registers"\necho "ptxas warning : Unresolved extern"\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && printf CUBIN > "$2"; shift; done\n' > %t/bin/ptxas
// RUN: env PATH=%t/bin:%PATH% TMPDIR=%t/tmp %tile_tools_dir/tile-opt %s --tile-assemble-cubin 2>&1 >/dev/null | FileCheck %s --check-prefix=ADVICE --implicit-check-not=registers
// ADVICE: warning: ptxas: ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async instructions are serialized
// ADVICE: warning: ptxas: ptxas warning : Unresolved extern

// RUN: ls -A %t/tmp | count 0

module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", flags = {"ptxas-cmd-options" = ["-v", "--maxrregcount=64"]}>,
    properties = {O = 3 : i32},
    assembly = ".version 8.0\0A.target sm_90a\0A.address_size 64\0A\0A.visible .entry k()\0A{\0A\09ret;\0A}\0A">]
}
