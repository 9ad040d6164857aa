// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// One row of 2048 per block of 256 threads: blocked layout, 8 f16 (16 bytes)
// per access; the row maximum is reduced within the thread, across the 32
// lanes (5 butterfly shuffles) and across the 8 warps through shared
// scratch between barriers. exp is ex2.approx of x*log2(e).
// CHECK-LABEL: gpu.func @row
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK: memref.alloca() : memref<8xf32>
// CHECK: memref.alloca() : memref<1xf32>
// Alignment: the tile's first element (the memref's offset + row * row
// stride) must be a multiple of the 8-element vector; a tile of one row
// asks nothing of the row stride (rows of any length start aligned when the
// kernel starts the tile on a multiple).
// CHECK: %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %[[STR:.*]]:2 = memref.extract_strided_metadata
// CHECK: %[[AT:.*]] = arith.muli %block_id_x, %[[STR]]#0 : index
// CHECK: arith.addi %[[OFF]], %[[AT]] : index
// CHECK: arith.andi %{{.*}}, %c7 : index
// CHECK-NOT: arith.andi %[[STR]]#0
// Load: a whole aligned run is one vector load, else element by element.
// Bounds are tested as `-coordinate <= register offset < dim - coordinate`
// with the thread's coordinate, two values per dimension, so no per-element
// coordinate stays live; the whole-tile test also needs the origin >= 0.
// CHECK: %[[ROWS:.*]] = arith.subi %{{.*}}, %[[ROW:.*]] : index
// CHECK: %[[ROWS0:.*]] = arith.subi %{{.*}}, %[[ROW]] : index
// CHECK: %[[COLS:.*]] = arith.subi %{{.*}}, %[[COL:.*]] : index
// CHECK: %[[COLS0:.*]] = arith.subi %{{.*}}, %[[COL]] : index
// CHECK: arith.cmpi sge, %block_id_x, %{{.*}} : index
// CHECK: scf.if
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<global>>, vector<8xf16>
// At the edges, without a branch: a group of 8 wholly inside (and aligned)
// is still one vector load under its predicate, and only the elements of a
// group that straddles the edge are predicated loads each (zero when
// masked), under the exclusive predicate; the value is selected. The
// address is the thread's first element's, each register's offset the
// instruction's immediate.
// CHECK: } else {
// CHECK: memref.extract_aligned_pointer_as_index %{{.*}} : memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<global>> -> index
// CHECK: %[[GLOBAL:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
// CHECK: %[[FIRST:.*]] = llvm.getelementptr %[[GLOBAL]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: arith.cmpi sle, %[[ROWS0]], %{{.*}} : index
// CHECK: arith.cmpi slt, %{{.*}}, %[[ROWS]] : index
// CHECK: arith.cmpi sle, %[[COLS0]], %{{.*}} : index
// CHECK: arith.cmpi slt, %{{.*}}, %[[COLS]] : index
// CHECK: %[[PARTIAL:.*]] = arith.xori %[[WHOLE:.*]], %true
// CHECK: %[[VEC:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0;\0A\09mov.b32 $1, 0;\0A\09mov.b32 $2, 0;\0A\09mov.b32 $3, 0;\0A\09@$4 ld.global.v4.b32 {$0, $1, $2, $3}, [$5];", "=r,=r,=r,=r,b,l" %[[WHOLE]], %[[FIRST]] : (i1, !llvm.ptr<1>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: %[[IN:.*]] = arith.andi %[[PARTIAL]], %{{.*}} : i1
// CHECK: %[[ONE:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "mov.b16 $0, 0;\0A\09@$1 ld.global.b16 $0, [$2];", "=h,b,l" %[[IN]], %[[FIRST]] : (i1, !llvm.ptr<1>) -> i16
// CHECK: arith.select %[[WHOLE]], %{{.*}}, %{{.*}} : f16
// CHECK-NOT: scf.if
// CHECK: "mov.b16 $0, 0;\0A\09@$1 ld.global.b16 $0, [$2+2];", "=h,b,l" %{{.*}}, %[[FIRST]]
// CHECK-COUNT-8: arith.maxnumf
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x1xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-COUNT-8: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x1xf32, #gpu.address_space<workgroup>>
// The body's float ops may contract (a multiply into an add: one fma).
// CHECK: arith.subf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;", "=f,f"
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<global>>, vector<8xf16>
// The edge store likewise: a predicated vector store per whole group, then
// the straddling group's elements under the exclusive predicate.
// CHECK: } else {
// CHECK: "@$0 st.global.v4.b32 [$1], {$2, $3, $4, $5};", "b,l,r,r,r,r"
// CHECK: "@$0 st.global.b16 [$1], $2;", "b,l,h"
// CHECK: gpu.return
tile.kernel @row(%X: memref<?x?xf16>, %Y: memref<?x?xf16>) grid [%X[0] / 1] threads 256 {
  %c0 = arith.constant 0 : index
  %r = tile.block_id x
  %x = tile.alloc_fragment : !tile.fragment<1x2048xf32>
  %m = tile.alloc_fragment : !tile.fragment<1xf32>
  tile.copy %X[%r, %c0] -> %x : memref<?x?xf16> -> !tile.fragment<1x2048xf32>
  tile.reduce max %x -> %m {dim = 1 : i64, clear} : !tile.fragment<1x2048xf32> -> !tile.fragment<1xf32>
  tile.parallel ins(%m : !tile.fragment<1xf32>) outs(%x : !tile.fragment<1x2048xf32>)
      attributes {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%mx: f32, %v: f32):
    %d = arith.subf %v, %mx : f32
    %e = math.exp %d : f32
    tile.yield %e : f32
  }
  tile.copy %x -> %Y[%r, %c0] : !tile.fragment<1x2048xf32> -> memref<?x?xf16>
}

// -----

// Four rows per tile: every row must start aligned, so the row stride joins
// the tile's first element in one value whose low bits are tested. Rows of
// 500 halves start on multiples of 4, not 8: the edge path takes the widest
// vector the alignment allows, chosen once per block (8, 4, 2 elements,
// then one by one), so such rows keep 8-byte accesses.
// CHECK-LABEL: gpu.func @rows
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STR:.*]]:2 = memref.extract_strided_metadata
// CHECK: %[[BITS:.*]] = arith.ori %{{.*}}, %[[STR]]#0 : index
// CHECK: %[[R8:.*]] = arith.andi %[[BITS]], %c7 : index
// CHECK: %[[A8:.*]] = arith.cmpi eq, %[[R8]], %c0{{.*}} : index
// CHECK: scf.if
// CHECK-COUNT-2: vector.load {{.*}} vector<8xf16>
// CHECK: } else {
// CHECK: scf.if %[[A8]] {
// CHECK-COUNT-2: ld.global.v4.b32
// CHECK: } else {
// CHECK: %[[R4:.*]] = arith.andi %[[BITS]], %c3{{.*}} : index
// CHECK: %[[A4:.*]] = arith.cmpi eq, %[[R4]], %c0{{.*}} : index
// CHECK: scf.if %[[A4]] {
// CHECK-COUNT-4: ld.global.v2.b32
// CHECK: } else {
// CHECK: %[[R2:.*]] = arith.andi %[[BITS]], %c1{{.*}} : index
// CHECK: %[[A2:.*]] = arith.cmpi eq, %[[R2]], %c0{{.*}} : index
// CHECK: scf.if %[[A2]] {
// CHECK-COUNT-8: ld.global.b32
// CHECK: } else {
// CHECK-NOT: ld.global.{{v|b32}}
// CHECK-COUNT-16: ld.global.b16
// CHECK-NOT: ld.global
// CHECK: vector.store {{.*}} vector<8xf16>
tile.kernel @rows(%X: memref<?x?xf16>, %Y: memref<?x?xf16>) grid [%X[0] / 4] threads 128 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %b = tile.block_id x
  %r = arith.muli %b, %c4 : index
  %x = tile.alloc_fragment : !tile.fragment<4x512xf32>
  tile.copy %X[%r, %c0] -> %x : memref<?x?xf16> -> !tile.fragment<4x512xf32>
  tile.copy %x -> %Y[%r, %c0] : !tile.fragment<4x512xf32> -> memref<?x?xf16>
}

// -----

// A row sum of the wgmma accumulator needs no shared memory: each row lives
// in one quad of lanes (xor 1, 2). Accumulating (no `clear`) adds the old
// value. tile.index gives the element's column for a mask.
// CHECK-LABEL: gpu.func @acc_rows
// CHECK: nvvm.wgmma.mma_async
// CHECK: arith.cmpi ult
// CHECK: arith.select
// CHECK-COUNT-2: gpu.shuffle  xor
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: gpu.barrier
// CHECK: arith.addf
// CHECK: gpu.return
tile.kernel @acc_rows(%A: memref<?x?xf16>, %S: memref<?xf32>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %ninf = arith.constant 0xFF800000 : f32
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %s = tile.alloc_fragment : !tile.fragment<64xf32>
  tile.pipelined %k = %c0 to %c1 step %c1 num_stages 1 {
    tile.copy %A[%c0, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %acc {transpose_b} : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  }
  tile.parallel outs(%acc : !tile.fragment<64x64xf32>) attributes {indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%v: f32):
    %j = tile.index 1
    %in = arith.cmpi ult, %j, %c10 : index
    %w = arith.select %in, %v, %ninf : f32
    tile.yield %w : f32
  }
  tile.reduce sum %acc -> %s {dim = 1 : i64} : !tile.fragment<64x64xf32> -> !tile.fragment<64xf32>
  tile.copy %s -> %S[%c0] : !tile.fragment<64xf32> -> memref<?xf32>
}

// -----

// f16 and bf16 have the same width: a copy between them converts through f32.
// CHECK-LABEL: gpu.func @bf16_to_f16
// CHECK: vector.load {{.*}} vector<8xbf16>
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK-NEXT: arith.truncf %[[W]] : f32 to f16
tile.kernel @bf16_to_f16(%X: memref<?x?xbf16>, %Y: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<4x256xf16>
  tile.copy %X[%c0, %c0] -> %x : memref<?x?xbf16> -> !tile.fragment<4x256xf16>
  tile.copy %x -> %Y[%c0, %c0] : !tile.fragment<4x256xf16> -> memref<?x?xf16>
}

// -----

// An element-wise region is lowered on its own, whatever op follows it: one
// body per register. The store after it then tests the whole tile once:
// pairs as vector stores inside (a tile of 64 rows also needs the row
// stride to keep every row aligned), each element a predicated store at the
// edges.
// CHECK-LABEL: gpu.func @epilogue
// CHECK-COUNT-32: "tanh.approx.f32 $0, $1;"
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STR:.*]]:2 = memref.extract_strided_metadata
// CHECK: %[[BITS:.*]] = arith.ori %{{.*}}, %[[STR]]#0 : index
// CHECK: arith.andi %[[BITS]], %c1{{.*}} : index
// CHECK: scf.if
// CHECK-COUNT-16: vector.store {{.*}} vector<2xf16>
// CHECK: } else {
// CHECK-NOT: vector.store
// CHECK: "@$0 st.global.b32 [$1], $2;", "b,l,r"
// CHECK: "@$0 st.global.b16 [$1], $2;", "b,l,h"
// CHECK: "@$0 st.global.b16 [$1+2], $2;", "b,l,h"
tile.kernel @epilogue(%A: memref<?x?xf16>, %C: memref<?x?xf16>) grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %A[%c0, %c0] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
  tile.gemm %a, %a, %acc : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
  tile.parallel outs(%acc : !tile.fragment<64x64xf32>) attributes {indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%v: f32):
    %t = math.tanh %v : f32
    tile.yield %t : f32
  }
  tile.copy %acc -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf16>
}

// -----

// f64 edge groups: a group of two f64 (16 bytes) is one predicated
// ld.global.v4.b32 whose four words are reinterpreted as the two elements
// (the fuzzer's first finding of this path: 64-bit elements span two words,
// and the words were once split per element), and a straddling group's
// elements are b64 loads; the stores likewise.
// CHECK-LABEL: gpu.func @copy_f64
// CHECK: } else {
// CHECK: %[[W:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "{{.*}}@$4 ld.global.v4.b32 {$0, $1, $2, $3}, [$5];", "=r,=r,=r,=r,b,l"
// CHECK: vector.bitcast %{{.*}} : vector<4xi32> to vector<2xf64>
// CHECK: "mov.b64 $0, 0;\0A\09@$1 ld.global.b64 $0, [$2];", "=l,b,l"
// CHECK: vector.bitcast %{{.*}} : vector<2xf64> to vector<4xi32>
// CHECK: "@$0 st.global.v4.b32 [$1], {$2, $3, $4, $5};", "b,l,r,r,r,r"
// CHECK: "@$0 st.global.b64 [$1], $2;", "b,l,l"
tile.kernel @copy_f64(%A: memref<?x?xf64>, %B: memref<?x?xf64>)
    grid [%A[0] / 16] threads 128 {
  %c0 = arith.constant 0 : index
  %bx = tile.block_id x
  %a = tile.alloc_fragment : !tile.fragment<16x128xf32>
  tile.copy %A[%bx, %c0] -> %a : memref<?x?xf64> -> !tile.fragment<16x128xf32>
  tile.copy %a -> %B[%bx, %c0] : !tile.fragment<16x128xf32> -> memref<?x?xf64>
}
