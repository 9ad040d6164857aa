// RUN: tile-opt %s --split-input-file --tile-finalize-kernel-abi --verify-diagnostics | FileCheck %s

// CHECK-LABEL: llvm.func @k
// CHECK-SAME: (%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-NOT: tile.tensormap_args
gpu.module @m {
  llvm.func @k(%p: !llvm.ptr<1>, %t: !llvm.ptr) attributes {nvvm.kernel, tile.tensormap_args = array<i64: 1>} {
    llvm.return
  }
}

// -----

// Kernels without TMA descriptors are unchanged.
// CHECK-LABEL: llvm.func @plain
// CHECK-SAME: (%{{.*}}: !llvm.ptr)
// CHECK-NOT: byval
gpu.module @m {
  llvm.func @plain(%t: !llvm.ptr) attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{tensormap parameter #0 must be an !llvm.ptr parameter of the kernel}}
  llvm.func @bad(%i: i64) attributes {nvvm.kernel, tile.tensormap_args = array<i64: 0>} {
    llvm.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{tensormap parameter #3 must be an !llvm.ptr parameter of the kernel}}
  llvm.func @out_of_range(%t: !llvm.ptr) attributes {nvvm.kernel, tile.tensormap_args = array<i64: 3>} {
    llvm.return
  }
}

// -----

// Only kernels take TMA descriptors as grid constants.
gpu.module @m {
  // expected-error @+1 {{has tensormap parameters but is not a kernel (nvvm.kernel): TMA descriptors are parameters of kernels}}
  llvm.func @not_kernel(%p: !llvm.ptr<1>, %t: !llvm.ptr) attributes {tile.tensormap_args = array<i64: 1>} {
    llvm.return
  }
}
