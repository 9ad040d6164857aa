// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// tile.atomic of a fragment: each element one red.global under its mask, as
// a store would be; an add into f16 memory takes two elements at a time
// where the layout gives a thread both (f16x2), and one at the edges; a
// float max is an integer max (sign clear) or an unsigned min (negative)
// on the bits. The memref is read and written: `access 1 readwrite`.

// CHECK: tile.kernel_info = "{{.*}}access 1 readwrite\0Aaccess 2 readwrite\0Aaccess 3 readwrite\0A
// CHECK-LABEL: gpu.func @partials
// CHECK-NOT: st.global
// CHECK: "@$0 red.global.add.f32 [$1], $2;", "b,l,f"
// CHECK: "@$0 red.global.add.f32 [$1+4], $2;", "b,l,f"
// CHECK: "@$0 red.global.add.noftz.f16x2 [$1], $2;", "b,l,r"
// CHECK: "@$0 red.global.add.noftz.f16 [$1], $2;", "b,l,h"
// CHECK: setp.ge.s32 pos, $2, 0;
// CHECK-SAME: and.pred neg, $0, !pos;
// CHECK-SAME: and.pred pos, $0, pos;
// CHECK-SAME: @pos red.global.max.s32 [$1], $2;
// CHECK-SAME: @neg red.global.min.u32 [$1], $2;
// CHECK: @pos red.global.min.s32 [$1], $2;
// CHECK-SAME: @neg red.global.max.u32 [$1], $2;
// CHECK: "@$0 red.global.max.s32 [$1], $2;", "b,l,r"
tile.kernel @partials(%X: memref<?x?xf32>, %C: memref<?x?xf32>,
                      %H: memref<?x?xf16>, %I: memref<?x?xi32>)
    grid [%C[1] / 64, %C[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %bx = tile.block_id x
  %by = tile.block_id y
  %m = arith.muli %by, %c64 : index
  %n = arith.muli %bx, %c64 : index
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %i = tile.alloc_fragment : !tile.fragment<64x64xi32>
  tile.copy %X[%m, %n] -> %x : memref<?x?xf32> -> !tile.fragment<64x64xf32>
  tile.atomic add %x -> %C[%m, %n] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
  tile.atomic add %x -> %H[%m, %n] : !tile.fragment<64x64xf32> -> memref<?x?xf16>
  tile.atomic max %x -> %C[%m, %n] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
  tile.atomic min %x -> %C[%m, %n] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
  %seven = arith.constant 7 : i32
  tile.fill %i, %seven : !tile.fragment<64x64xi32>, i32
  tile.atomic max %i -> %I[%m, %n] : !tile.fragment<64x64xi32> -> memref<?x?xi32>
}

// -----

// tile.reduction: each thread combines its registers, counting an element
// that the layout replicates over lanes once (the slice of a blocked layout
// along its columns: a select keeps the sum of the owning lane only), then
// a butterfly over the 32 lanes, then one value per warp through shared
// scratch between barriers. A scalar tile.atomic is one red.global by the
// block's first thread, masked by the memref's bounds.

// CHECK-LABEL: gpu.func @total
// CHECK: %[[OWNER:.*]] = arith.cmpi eq, %{{.*}}, %c0{{.*}} : index
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[PART:.*]] = arith.select %[[OWNER]], %{{.*}}, %[[ZERO]] : f32
// CHECK-NEXT: %c32_i32{{.*}} = arith.constant 32 : i32
// CHECK-NEXT: %c16_i32 = arith.constant 16 : i32
// CHECK-NEXT: gpu.shuffle  xor %[[PART]], %c16_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c8_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c4_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK: %[[SCRATCH:.*]] = memref.view {{.*}} to memref<4xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[SCRATCH]]
// CHECK: gpu.barrier
// CHECK-COUNT-4: memref.load %[[SCRATCH]]
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %thread_id_x, %c0
// CHECK: %[[IN:.*]] = arith.andi %[[LEADER]], %{{.*}} : i1
// CHECK: "@$0 red.global.add.f32 [$1], $2;", "b,l,f" %[[IN]]
tile.kernel @total(%X: memref<?x?xf32>, %T: memref<?xf32>) grid [%X[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %s = tile.alloc_fragment : !tile.fragment<64xf32>
  tile.fill %x, %one : !tile.fragment<64x64xf32>, f32
  tile.reduce max %x -> %s {dim = 1 : i64, clear} : !tile.fragment<64x64xf32> -> !tile.fragment<64xf32>
  %t = tile.reduction sum %s : !tile.fragment<64xf32> -> f32
  tile.atomic add %t -> %T[%c0] : f32 -> memref<?xf32>
}

// -----

// A max counts replicated elements as often as they appear: no select.
// (The kernels fill their fragments: a copy's masks would select too.)

// CHECK-LABEL: gpu.func @peak
// CHECK-NOT: arith.select
// CHECK: red.global
tile.kernel @peak(%X: memref<?x?xf32>, %T: memref<?xf32>) grid [%X[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %s = tile.alloc_fragment : !tile.fragment<64xf32>
  tile.fill %x, %one : !tile.fragment<64x64xf32>, f32
  tile.reduce sum %x -> %s {dim = 1 : i64, clear} : !tile.fragment<64x64xf32> -> !tile.fragment<64xf32>
  %t = tile.reduction absmax %s : !tile.fragment<64xf32> -> f32
  tile.atomic max %t -> %T[%c0] : f32 -> memref<?xf32>
}

// -----

// A fragment that the layout replicates over threads (the row sums, held
// by the 16 lanes of each half-warp) is combined by the owning lane only:
// each element's predicate includes `(tid & 15) == 0`.

// CHECK-LABEL: gpu.func @rows
// CHECK: %[[BITS:.*]] = arith.andi %thread_id_x, %c15{{.*}} : index
// CHECK: %[[OWNER:.*]] = arith.cmpi eq, %[[BITS]], %c0{{.*}} : index
// CHECK: %[[P:.*]] = arith.andi %{{.*}}, %[[OWNER]] : i1
// CHECK-NEXT: llvm.inline_asm {{.*}}"@$0 red.global.add.f32 [$1], $2;", "b,l,f" %[[P]]
tile.kernel @rows(%X: memref<?x?xf32>, %S: memref<?xf32>) grid [%X[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %s = tile.alloc_fragment : !tile.fragment<64xf32>
  tile.fill %x, %one : !tile.fragment<64x64xf32>, f32
  tile.reduce sum %x -> %s {dim = 1 : i64, clear} : !tile.fragment<64x64xf32> -> !tile.fragment<64xf32>
  tile.atomic add %s -> %S[%c0] : !tile.fragment<64xf32> -> memref<?xf32>
}
