// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// tile.parallel's custom form: each operand's element named beside it, the
// maps implied by the dimensions each input is read at (none for the
// identity). The form with `indexing_maps` and a block header parses to the
// same op, and prints as the custom form; a map the custom form cannot
// state (a transpose) keeps the full form.

// CHECK-LABEL: tile.kernel @forms
// CHECK: tile.parallel ins(%[[X:.*]] = %[[ACC:.*]], %[[B:.*]] = %[[ROW:.*]][0] : !tile.fragment<64x128xf32>, !tile.fragment<64xf32>) outs(%[[O:.*]] = %[[ACC]] : !tile.fragment<64x128xf32>) {
// CHECK-NEXT: arith.subf %[[X]], %[[B]] : f32
// CHECK: tile.parallel ins(%{{.*}} = %[[COL:.*]][1] : !tile.fragment<128xf32>) outs(%{{.*}} = %[[ACC]] : !tile.fragment<64x128xf32>) {
// CHECK: tile.parallel ins(%[[X2:.*]] = %[[ACC]], %[[B2:.*]] = %[[ROW]][0] : !tile.fragment<64x128xf32>, !tile.fragment<64xf32>) outs(%{{.*}} = %[[ACC]] : !tile.fragment<64x128xf32>) {
// CHECK-NEXT: arith.subf %[[X2]], %[[B2]] : f32
// CHECK: tile.parallel outs(%[[E:.*]] = %[[ROW]] : !tile.fragment<64xf32>) {
// CHECK-NEXT: arith.addf %[[E]], %[[E]] : f32
// CHECK: tile.parallel ins(%{{.*}} : !tile.fragment<64x64xf32>) outs(%{{.*}} : !tile.fragment<64x64xf32>) attributes {indexing_maps = [#map{{[0-9]*}}, #map{{[0-9]*}}]} {
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32):

// GENERIC: #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// GENERIC: #[[ROWS:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// GENERIC: "tile.parallel"(%{{.*}}, %{{.*}}, %{{.*}}) <{indexing_maps = [#[[ID]], #[[ROWS]], #[[ID]]], operandSegmentSizes = array<i32: 2, 1>}>
tile.kernel @forms(%A: memref<?xf16>) grid [1] threads 128 {
  %acc = tile.alloc_fragment : !tile.fragment<64x128xf32>
  %row = tile.alloc_fragment : !tile.fragment<64xf32>
  %col = tile.alloc_fragment : !tile.fragment<128xf32>
  %sq = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.parallel ins(%x = %acc, %b = %row[0] : !tile.fragment<64x128xf32>, !tile.fragment<64xf32>)
      outs(%o = %acc : !tile.fragment<64x128xf32>) {
    %y = arith.subf %x, %b : f32
    tile.yield %y : f32
  }
  tile.parallel ins(%c = %col[1] : !tile.fragment<128xf32>) outs(%o = %acc : !tile.fragment<64x128xf32>) {
    %y = arith.mulf %o, %c : f32
    tile.yield %y : f32
  }
  tile.parallel ins(%acc, %row : !tile.fragment<64x128xf32>, !tile.fragment<64xf32>)
      outs(%acc : !tile.fragment<64x128xf32>) attributes {indexing_maps = [
        affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
        affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %y = arith.subf %x, %m : f32
    tile.yield %y : f32
  }
  tile.parallel outs(%e = %row : !tile.fragment<64xf32>) {
    %y = arith.addf %e, %e : f32
    tile.yield %y : f32
  }
  tile.parallel ins(%sq : !tile.fragment<64x64xf32>) outs(%sq : !tile.fragment<64x64xf32>)
      attributes {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%t: f32, %o: f32):
    tile.yield %t : f32
  }
}
