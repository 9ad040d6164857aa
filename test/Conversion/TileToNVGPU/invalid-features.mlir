// RUN: tile-opt %s --tile-plan-waits --convert-tile-to-nvgpu=features=+ptx60 --verify-diagnostics
// RUN: not tile-opt %s --tile-to-ptx=features=+sm90 2>&1 | FileCheck %s --check-prefix=FORM

// A PTX ISA older than the chip is refused here: LLVM would end the
// process (a C API caller with it) instead of reporting it.
// expected-error @+1 {{convert-tile-to-nvgpu: features '+ptx60': sm_90a needs PTX ISA 8.0 or later (+ptx80)}}
tile.kernel @k(%A: memref<?x?xf16>) grid [1] threads 128 {
}

// FORM: error: 'tile.kernel' op convert-tile-to-nvgpu: features '+sm90': expected +ptxNN (a PTX ISA version), got '+sm90'
