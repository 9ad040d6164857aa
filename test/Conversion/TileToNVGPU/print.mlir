// RUN: tile-opt %s --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s
// RUN: tile-opt %s --tile-to-ptx | FileCheck %s --check-prefix=PTX

// tile.print: the selected block and thread compare their ids under one
// scf.if; each line starts with the block's and thread's coordinates; a
// fragment prints one line per register with the element's coordinates
// (the thread's part plus the register's offset); integers print as i64,
// floats as f64; a % in the label is doubled.
// CHECK-LABEL: gpu.func @prints
// CHECK: %[[BX:.*]] = gpu.block_id  x
// CHECK: %[[BY:.*]] = gpu.block_id  y
// CHECK: %[[BZ:.*]] = gpu.block_id  z
// CHECK: arith.cmpi eq, %[[BX]], %c1{{.*}} : index
// CHECK: arith.cmpi eq, %[[BY]], %c0{{.*}} : index
// CHECK: arith.cmpi eq, %[[BZ]], %c0{{.*}} : index
// CHECK: arith.cmpi eq, %{{.*}}, %c5{{.*}} : index
// CHECK: scf.if
// CHECK: gpu.printf "[block %lld,%lld,%lld thread %lld] x[%lld] = %g\0A", %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i64, i64, i64, i64, i64, f64
// CHECK-COUNT-1: gpu.printf "[block %lld,%lld,%lld thread %lld] x[%lld] = %g\0A"
// CHECK: }
// Without `block` and `thread`, every thread prints, unconditionally.
// CHECK-NOT: scf.if
// CHECK: gpu.printf "[block %lld,%lld,%lld thread %lld] n 100%% = %lld\0A"
// CHECK: gpu.return

// In PTX, gpu.printf is a call of vprintf.
// PTX: call.uni{{.*}}vprintf
tile.kernel @prints(%A: memref<?xf16>) grid [2] threads 128 {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<256xf32>
  %n = memref.dim %A, %c0 : memref<?xf16>
  tile.print "x" %x {block = array<i64: 1>, thread = 5} : !tile.fragment<256xf32>
  tile.print "n 100%" %n : index
}
