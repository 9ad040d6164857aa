// RUN: tile-opt %s --split-input-file --tile-assemble-cubin | FileCheck %s

// A PTX object for an NVVM target becomes a cubin object: the same target,
// the properties less O, plus the ptxas time.
// CHECK-LABEL: gpu.binary @ptx
// CHECK-SAME: [#gpu.object<#nvvm.target<chip = "sm_90a", features = "+ptx80">,
// CHECK-SAME: properties = {ISAToBinaryTimeInMs = {{[0-9]+}} : i64, LLVMIRToISATimeInMs = 7 : i64},
// CHECK-SAME: bin = "\7FELF
// CHECK-NOT: assembly =
module attributes {gpu.container_module} {
  gpu.binary @ptx [#gpu.object<#nvvm.target<chip = "sm_90a", features = "+ptx80">,
    properties = {LLVMIRToISATimeInMs = 7 : i64, O = 2 : i32},
    assembly = ".version 8.0\0A.target sm_90a\0A.address_size 64\0A\0A.visible .entry k()\0A{\0A\09ret;\0A}\0A">]
}

// -----

// Cubins, LLVM IR and objects of other targets are left as they are.
// CHECK-LABEL: gpu.binary @others
// CHECK-SAME: [#gpu.object<#nvvm.target<chip = "sm_90a">, bin = "\7FELF">,
// CHECK-SAME: #gpu.object<#nvvm.target<chip = "sm_90a">, offload = "BC">,
// CHECK-SAME: #gpu.object<#rocdl.target<chip = "gfx942">, assembly = "amdgcn">]
module attributes {gpu.container_module} {
  gpu.binary @others [#gpu.object<#nvvm.target<chip = "sm_90a">, bin = "\7FELF">,
                      #gpu.object<#nvvm.target<chip = "sm_90a">, offload = "BC">,
                      #gpu.object<#rocdl.target<chip = "gfx942">, assembly = "amdgcn">]
}
