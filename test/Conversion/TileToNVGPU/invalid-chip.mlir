// RUN: tile-opt %s --tile-plan-waits --convert-tile-to-nvgpu=chip=sm_80 --verify-diagnostics

// expected-error @+1 {{convert-tile-to-nvgpu: chip 'sm_80' is not supported (no target is registered for it)}}
tile.kernel @k(%A: memref<?x?xf16>) grid [1] threads 128 {
}
