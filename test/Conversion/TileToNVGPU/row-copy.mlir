// RUN: tile-opt %s --split-input-file --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// Rows of X into the rows of a shared tile (copy_c6): every thread issues
// cp.async for its 16-byte chunks (512 x f16 = 64 chunks a row, here one
// round of 128 threads), with the bytes left in the row as the src-size
// (zero-filling past its end); a chunk before column 0, or a row that is
// not 16-byte aligned, goes element by element with predicated loads. The
// copies of a row are one group; nothing waits until the tile is read: the
// loop that reads it waits for them once, before it starts.
// CHECK-LABEL: gpu.func @rows
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.if
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r"
// CHECK: } else {
// CHECK: ld.global.b16
// CHECK: memref.store
// CHECK: "cp.async.commit_group;"
// CHECK-NOT: gpu.barrier
// CHECK: "cp.async.wait_group 0;"
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for
// CHECK-NOT: cp.async.wait_group
// CHECK: gpu.return
tile.kernel @rows(%X: memref<?x?xf16>, %Y: memref<?x?xf32>) grid [%X[0] / 1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c512 = arith.constant 512 : index
  %bx = tile.block_id x
  %s = tile.alloc_shared : !tile.shared<8x512xf16>
  %x = tile.alloc_fragment : !tile.fragment<1x512xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 1 {
    %col = arith.muli %k, %c512 : index
    tile.copy %X[%bx, %col] -> %s[%k, %c0] : memref<?x?xf16> -> !tile.shared<8x512xf16>
  }
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 1 {
    %col = arith.muli %k, %c512 : index
    tile.copy %s[%k, %c0] -> %x : !tile.shared<8x512xf16> -> !tile.fragment<1x512xf32>
    tile.copy %x -> %Y[%bx, %col] : !tile.fragment<1x512xf32> -> memref<?x?xf32>
  }
}

// -----

// A loop that copies rows in and reads them in the same body waits at the
// read in every iteration; a copy into a tile read before synchronises the
// block first, so that no thread still reads what it overwrites.
// CHECK-LABEL: gpu.func @same_loop
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: "cp.async.commit_group;"
// CHECK: "cp.async.wait_group 0;"
// CHECK-NEXT: gpu.barrier
// CHECK: gpu.return
tile.kernel @same_loop(%X: memref<?x?xf16>, %Y: memref<?x?xf32>) grid [%X[0] / 1] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c512 = arith.constant 512 : index
  %bx = tile.block_id x
  %s = tile.alloc_shared : !tile.shared<8x512xf16>
  %x = tile.alloc_fragment : !tile.fragment<1x512xf32>
  tile.pipelined %k = %c0 to %c4 step %c1 num_stages 1 {
    %col = arith.muli %k, %c512 : index
    tile.copy %X[%bx, %col] -> %s[%c0, %c0] : memref<?x?xf16> -> !tile.shared<8x512xf16>
    tile.copy %s[%c0, %c0] -> %x : !tile.shared<8x512xf16> -> !tile.fragment<1x512xf32>
    tile.copy %x -> %Y[%bx, %col] : !tile.fragment<1x512xf32> -> memref<?x?xf32>
  }
}

// -----

// Row copies that nothing reads are still waited for before the kernel
// returns: they would otherwise land in the next block's shared memory.
// CHECK-LABEL: gpu.func @unread
// CHECK: "cp.async.commit_group;"
// CHECK-NEXT: "cp.async.wait_group 0;"
// CHECK-NEXT: gpu.return
tile.kernel @unread(%X: memref<?x?xf16>) grid [%X[0] / 1] threads 128 {
  %c0 = arith.constant 0 : index
  %bx = tile.block_id x
  %s = tile.alloc_shared : !tile.shared<8x512xf16>
  tile.copy %X[%bx, %c0] -> %s[%c0, %c0] : memref<?x?xf16> -> !tile.shared<8x512xf16>
}
