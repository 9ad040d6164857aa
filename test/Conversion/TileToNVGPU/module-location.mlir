// RUN: tile-opt %S/turns.mlir --tile-infer-layouts --tile-fold-accumulator-fills --tile-plan-waits --convert-tile-to-nvgpu --mlir-print-debuginfo | FileCheck %s

// The kernel module's location fuses a name per kernel around its source
// (here the three kernels of turns.mlir), so that what the assembler says of
// a function points there (PTXToCubin/kernel-locations.mlir).
// CHECK: #[[PINGPONG:loc[0-9]+]] = loc("pingpong"(#loc{{[0-9]+}}))
// CHECK: #[[OFF:loc[0-9]+]] = loc("turns_off"(#loc{{[0-9]+}}))
// CHECK: = loc(fused[#[[PINGPONG]], #[[OFF]]{{(, #loc[0-9]+)*}}])
