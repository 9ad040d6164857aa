// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %s --tile-specialize | FileCheck %s --check-prefix=BOUND
// RUN: tile-opt %s --tile-specialize --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s --check-prefix=INFO

// Contracts compare integer expressions over argument dimensions,
// parameters and integers (+ - * floordiv ceildiv mod, == <= >= < >).
// Each dimension or parameter is one operand of the contract, however often
// it appears.

// CHECK-LABEL: tile.kernel @gqa
// CHECK-SAME: requires [%[[Q:.*]][1] mod %[[K:.*]][1] == 0, %[[Q]][3] <= BN * 2,
// CHECK-SAME: %[[Q]][2] - 1 < %[[K]][2] * (BN + 1), %[[K]][1] > 0,
// CHECK-SAME: %[[Q]][2] ceildiv 64 >= %[[K]][2] floordiv BN, %[[Q]][0] == %[[K]][0]]

// Once the parameters are bound, their values fold into the sides.
// BOUND-LABEL: tile.kernel @gqa_64
// BOUND-SAME: requires [%[[Q:.*]][1] mod %[[K:.*]][1] == 0, %[[Q]][3] <= 128,
// BOUND-SAME: %[[Q]][2] - 1 < %[[K]][2] * 65, %[[K]][1] > 0,
// BOUND-SAME: %[[Q]][2] ceildiv 64 >= %[[K]][2] floordiv 64, %[[Q]][0] == %[[K]][0]]
// BOUND-SAME: tile.bindings = {BN = 64 : i64}

// The kernel info writes each side in postfix: `arg:dim:name` for a
// dimension, integers, operators (a subtraction as `-`).
// INFO: tile.kernel_info = "tile-kernel-info 1\0Akernel gqa_64\0A
// INFO-SAME: \0Arequire eq 0:1:Q,1:1:K,mod 0
// INFO-SAME: \0Arequire le 0:3:Q 128
// INFO-SAME: \0Arequire lt 0:2:Q,1,- 1:2:K,65,*
// INFO-SAME: \0Arequire gt 1:1:K 0
// INFO-SAME: \0Arequire ge 0:2:Q,64,ceildiv 1:2:K,64,floordiv
// INFO-SAME: \0Arequire eq 0:0:Q 1:0:K\0Aend\0A
// A kernel may state any number of contracts: all twenty reach the info.
// INFO-SAME: kernel many_20\0A
// INFO-SAME: \0Arequire ge 0:0:X 1\0A
// INFO-SAME: \0Arequire ge 0:0:X 20\0Aend\0A"
module {
  tile.kernel @gqa(%Q: memref<?x?x?x?xf16>, %K: memref<?x?x?x?xf16>)
      params {BN = 64} grid [%Q[2] / 64, %Q[1] / 1] threads 128
      requires [%Q[1] mod %K[1] == 0, %Q[3] <= 2 * BN,
                %Q[2] - 1 < %K[2] * (BN + 1), %K[1] > 0,
                %Q[2] ceildiv 64 >= %K[2] floordiv BN, %Q[0] == %K[0]] {
  }
  tile.instance @gqa_64 = @gqa {}
  tile.kernel @many(%X: memref<?xf16>) params {N = 20} grid [1] threads 128
      requires [%X[0] >= 1, %X[0] >= 2, %X[0] >= 3, %X[0] >= 4, %X[0] >= 5, %X[0] >= 6, %X[0] >= 7, %X[0] >= 8, %X[0] >= 9, %X[0] >= 10, %X[0] >= 11, %X[0] >= 12, %X[0] >= 13, %X[0] >= 14, %X[0] >= 15, %X[0] >= 16, %X[0] >= 17, %X[0] >= 18, %X[0] >= 19, %X[0] >= N] {
  }
  tile.instance @many_20 = @many {}
}
