// RUN: tile-opt %s --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// A fragment copied into a window of a shared tile and back (copy_c5): each
// thread stores its 8 contiguous elements as one 16-byte vector at their
// 128-byte-swizzled place in row 3 (f32 -> f16), the block synchronises
// (after the async-proxy fence), and loads them back the same way.
// CHECK-LABEL: gpu.func @stage(
// CHECK:         %[[VIEW:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16384xf16, #gpu.address_space<workgroup>>
// CHECK:         arith.addi %{{.*}}, %c3 : index
// CHECK:         arith.remui %{{.*}}, %c8{{.*}} : index
// CHECK:         arith.xori
// CHECK:         arith.truncf %{{.*}} : f32 to f16
// CHECK:         vector.store %{{.*}}, %[[VIEW]][%{{.*}}] {alignment = 16 : i64} : memref<16384xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-NEXT:    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:    gpu.barrier
// CHECK:         %[[VIEW2:.*]] = memref.view %{{.*}} to memref<16384xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[V:.*]] = vector.load %[[VIEW2]][%{{.*}}] {alignment = 16 : i64} : memref<16384xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK:         vector.extract %[[V]][7] : f16 from vector<8xf16>
// CHECK:         arith.extf %{{.*}} : f16 to f32
// CHECK-NOT:     gpu.barrier
// CHECK:         gpu.return
tile.kernel @stage(%X: memref<?x?xf16>, %Y: memref<?x?xf16>) grid [%X[0] / 1] threads 256 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %buf = tile.alloc_shared : !tile.shared<8x2048xf16>
  %x = tile.alloc_fragment : !tile.fragment<1x2048xf32>
  %bx = tile.block_id x
  tile.copy %X[%bx, %c0] -> %x : memref<?x?xf16> -> !tile.fragment<1x2048xf32>
  tile.copy %x -> %buf[%c3, %c0] : !tile.fragment<1x2048xf32> -> !tile.shared<8x2048xf16>
  tile.copy %buf[%c3, %c0] -> %x : !tile.shared<8x2048xf16> -> !tile.fragment<1x2048xf32>
  tile.copy %x -> %Y[%bx, %c0] : !tile.fragment<1x2048xf32> -> memref<?x?xf16>
}

// A column offset that is not a known multiple of the vector width keeps
// each element on its own: a vector could straddle a swizzled chunk.
// CHECK-LABEL: gpu.func @unaligned(
// CHECK-NOT:     vector.store %{{.*}} #gpu.address_space<workgroup>>, vector
// CHECK:         memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<32768xf16, #gpu.address_space<workgroup>>
// CHECK:         gpu.barrier
tile.kernel @unaligned(%X: memref<?x?xf16>, %Y: memref<?x?xf16>) grid [%X[0] / 1] threads 256 {
  %c0 = arith.constant 0 : index
  %bx = tile.block_id x
  %buf = tile.alloc_shared : !tile.shared<8x4096xf16>
  %x = tile.alloc_fragment : !tile.fragment<1x2048xf32>
  tile.copy %X[%bx, %c0] -> %x : memref<?x?xf16> -> !tile.fragment<1x2048xf32>
  tile.copy %x -> %buf[%c0, %bx] : !tile.fragment<1x2048xf32> -> !tile.shared<8x4096xf16>
}
