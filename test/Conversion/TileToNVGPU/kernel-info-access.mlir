// RUN: tile-opt %tile_src_root/kernels/softmax.mlir --tile-specialize --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s --check-prefix=SOFTMAX
// RUN: tile-opt %s --split-input-file --allow-unregistered-dialect --tile-infer-layouts --tile-plan-waits --convert-tile-to-nvgpu | FileCheck %s

// The kernel info's access lines, one per memref argument after the params:
// what the kernel does to each argument's memory, by the effects its ops
// declare. Softmax reads X and writes Y in every strategy: one pass, the
// row staged in shared memory by row copies (cp.async), and two passes
// whose stores sit in a tile.pipelined body.
// SOFTMAX: tile.kernel_info = "tile-kernel-info 1\0Akernel softmax_n128_f16\0A
// SOFTMAX-SAME: \0Aparam memref 0 f16 2\0Aparam memref 1 f16 2\0Aaccess 0 read\0Aaccess 1 write\0Arequire eq 1:0:Y 0:0:X\0A
// SOFTMAX-SAME: \0Akernel softmax_n57337_f16\0A
// SOFTMAX-SAME: \0Aparam memref 1 f16 2\0Aaccess 0 read\0Aaccess 1 write\0Arequire
// SOFTMAX-SAME: \0Akernel softmax_f16\0A
// SOFTMAX-SAME: \0Aparam memref 1 f16 2\0Aaccess 0 read\0Aaccess 1 write\0Arequire
// SOFTMAX-SAME: \0Akernel softmax_bf16\0A
// SOFTMAX-SAME: \0Aparam memref 1 bf16 2\0Aaccess 0 read\0Aaccess 1 write\0Arequire eq 1:0:Y 0:0:X\0Arequire eq 1:1:Y 0:1:X\0Arequire le 0:1:X 9223372036854775807\0Aend\0A"

// Read and written: the same memref is the source of one copy and the
// destination of another.
// CHECK-LABEL: tile.kernel_info = "tile-kernel-info 1\0Akernel inplace\0A
// CHECK-SAME: \0Aparam memref 0 f32 2\0Aaccess 0 readwrite\0Aend\0A"
tile.kernel @inplace(%X: memref<?x?xf32>) grid [%X[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %bx = tile.block_id x
  %r0 = arith.muli %bx, %c64 : index
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %X[%r0, %c0] -> %x : memref<?x?xf32> -> !tile.fragment<64x64xf32>
  tile.parallel outs(%x : !tile.fragment<64x64xf32>) attributes {
      indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%v: f32):
    %y = arith.mulf %v, %v : f32
    tile.yield %y : f32
  }
  tile.copy %x -> %X[%r0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// An argument the kernel does not touch, or only asks the size of, is read
// (an input); so is one read by a memref.load. Scalars have no access line,
// and the lines name the arguments by their index.
// CHECK-LABEL: tile.kernel_info = "tile-kernel-info 1\0Akernel unused\0A
// CHECK-SAME: \0Aparam memref 0 f32 2\0Aparam memref 1 f16 1\0Aparam scalar 2 i32\0Aparam memref 3 f32 1\0Aparam memref 4 f32 2\0Aparam memref 5 i8 1\0Aaccess 0 read\0Aaccess 1 read\0Aaccess 3 read\0Aaccess 4 write\0Aaccess 5 read\0Aend\0A"
tile.kernel @unused(%X: memref<?x?xf32>, %U: memref<?xf16>, %n: i32,
                    %S: memref<?xf32>, %Y: memref<?x?xf32>, %N: memref<?xi8>)
    grid [%X[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %s = memref.load %S[%c0] : memref<?xf32>
  %len = memref.dim %U, %c0 : memref<?xf16>
  tile.copy %X[%len, %c0] -> %x : memref<?x?xf32> -> !tile.fragment<64x64xf32>
  tile.parallel outs(%x : !tile.fragment<64x64xf32>) attributes {
      indexing_maps = [affine_map<(i, j) -> (i, j)>]} {
  ^bb0(%v: f32):
    %y = arith.mulf %v, %s : f32
    tile.yield %y : f32
  }
  tile.copy %x -> %Y[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
}

// -----

// Writes in nested regions count: C is stored in an scf.if inside the
// pipelined loop, D in an scf.if of the kernel body. A is read by TMA loads.
// CHECK-LABEL: tile.kernel_info = "tile-kernel-info 1\0Akernel nested\0A
// CHECK-SAME: \0Aparam memref 0 f16 2\0Aparam memref 1 f32 2\0Aparam memref 2 f32 2\0Aparam scalar 3 i64\0Aparam tensormap 0 f16 2 box 64 64 swizzle 128\0Aaccess 0 read\0Aaccess 1 write\0Aaccess 2 write\0Aend\0A"
tile.kernel @nested(%A: memref<?x?xf16>, %C: memref<?x?xf32>,
                    %D: memref<?x?xf32>, %n: i64)
    grid [%C[0] / 64] threads 128 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nk = arith.index_cast %n : i64 to index
  %zero = arith.constant 0.0 : f32
  %a = tile.alloc_shared : !tile.shared<64x64xf16>
  %c = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %c, %zero : !tile.fragment<64x64xf32>, f32
  tile.pipelined %k = %c0 to %nk step %c1 num_stages 2 {
    tile.copy %A[%c0, %k] -> %a : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %a, %a, %c : !tile.shared<64x64xf16>, !tile.shared<64x64xf16>, !tile.fragment<64x64xf32>
    %last = arith.cmpi eq, %k, %nk : index
    scf.if %last {
      tile.copy %c -> %C[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
    }
  }
  %more = arith.cmpi sgt, %nk, %c1 : index
  scf.if %more {
    tile.copy %c -> %D[%c0, %c0] : !tile.fragment<64x64xf32> -> memref<?x?xf32>
  }
}

// -----

// What cannot be followed is read and written: an op of unknown effects
// (an unregistered one) on X, and the address of P taken as an integer.
// Q, only read by the same kernel, stays read.
// CHECK-LABEL: tile.kernel_info = "tile-kernel-info 1\0Akernel opaque\0A
// CHECK-SAME: \0Aparam memref 0 f32 2\0Aparam memref 1 f32 1\0Aparam memref 2 f32 1\0Aaccess 0 readwrite\0Aaccess 1 readwrite\0Aaccess 2 read\0Aend\0A"
tile.kernel @opaque(%X: memref<?x?xf32>, %P: memref<?xf32>, %Q: memref<?xf32>)
    grid [1] threads 128 {
  %c0 = arith.constant 0 : index
  "foo.touch"(%X) : (memref<?x?xf32>) -> ()
  %p = memref.extract_aligned_pointer_as_index %P : memref<?xf32> -> index
  "foo.use"(%p) : (index) -> ()
  %q = memref.load %Q[%c0] : memref<?xf32>
  "foo.use"(%q) : (f32) -> ()
}
