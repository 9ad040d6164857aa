// RUN: tile-opt %s --tile-infer-layouts -verify-diagnostics
// RUN: not tile-opt %s --tile-plan-waits --convert-tile-to-nvgpu 2>&1 | FileCheck %s

// Passes that need static sizes refuse a parametric kernel.
// CHECK: error: 'tile.kernel' op is parametric: run tile-specialize before convert-tile-to-nvgpu
// expected-error @+1 {{is parametric: run tile-specialize before tile-infer-layouts}}
tile.kernel @k(%X: memref<?xf32>) params {BM = 64} grid [1] threads 128 {
}
