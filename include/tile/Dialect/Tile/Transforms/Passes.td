//===- Passes.td - Tile transformations --------------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileExpandShorthands : Pass<"tile-expand-shorthands"> {
  let summary = "Expand the shorthands of the tile language into the ops they stand for";
  let description = [{
    Rewrites each shorthand, so that no later pass knows of it:
    `tile.let` into the `tile.param`, `tile.block_id`, `memref.dim` and
    `arith` ops it stands for (unsigned divisions; `min` as `arith.minui`,
    `FLAG ? a : b` as `arith.select` on the flag), in the order written;
    a `tile.copy` from a fragment to global memory `through` a shared tile
    into the copy to the shared tile and the copy from it, under `scf.if`
    on the flag when it is a parameter (and the plain copy otherwise);
    `tile.index` of an integer type into `tile.index` and
    `arith.index_cast`; a `tile.gemm` whose transpose a parameter chooses
    into the gemm with the flag and the gemm without it, under `scf.if` on
    the parameter; an allocation sized by parameter names
    (`[BM, BK]`) into one with `tile.param` sizes; a `tile.pipelined`
    without lower bound and step into one from 0 by 1. `tile-specialize`
    runs it first.

    Before:
    ```mlir
    %m0, %kt = tile.let block_id.y * BM, %A[1] ceildiv BK
    ```
    After:
    ```mlir
    %y = tile.block_id y
    %bm = tile.param "BM" : index
    %m0 = arith.muli %y, %bm : index
    %c1 = arith.constant 1 : index
    %d = memref.dim %A, %c1 : memref<?x?xf16>
    %bk = tile.param "BK" : index
    %kt = arith.ceildivui %d, %bk : index
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileSpecialize : Pass<"tile-specialize", "ModuleOp"> {
  let summary = "Bind the parameters of parametric kernels";
  let description = [{
    Turns every `tile.instance` into a plain kernel: the instance's
    bindings, then the `bind` option, over the parametric kernel's defaults.
    A parametric kernel with instances is a template and is not produced
    itself unless `kernels` names it; one without instances is produced with
    its defaults under its own name. A binding that is not among the parameter's
    candidates, has the wrong kind or breaks a `where` constraint is an error
    naming the parameter. In the copy, `!tile.param` types become the bound
    types, `#tile.param` sizes and `tile.param` values the bound integers;
    arithmetic on them and branches on flags fold, tiles that only a
    folded-away branch used are removed, and every allocation's `?`
    dimensions take their folded sizes. The copy records its bindings in
    `tile.bindings` and is verified; the parametric kernels and instances are
    removed. With `kernels`, only the named kernels and instances are kept.
    The shorthands are expanded first (tile-expand-shorthands).

    Before:
    ```mlir
    tile.kernel @k(%X: memref<?x?x!tile.param<"T">>) params {BM = 128, T = f16}
        grid [%X[0] / BM] threads 128 {
      %bm = tile.param "BM" : index
      %x = tile.alloc_fragment [%bm] : !tile.fragment<?x64xf32>
      ...
    }
    tile.instance @k_bf16 = @k {T = bf16}
    ```
    After (`bind=BM=64`):
    ```mlir
    tile.kernel @k(%X: memref<?x?xf16>) grid [%X[0] / 64] threads 128
        attributes {tile.bindings = {BM = 64 : i64, T = f16}} {
      %x = tile.alloc_fragment : !tile.fragment<64x64xf32>
      ...
    }
    tile.kernel @k_bf16(%X: memref<?x?xbf16>) ...
    ```
  }];
  let options = [
    ListOption<"kernels", "kernels", "std::string",
               "Keep only these kernels and instances (default: all)">,
    ListOption<"bind", "bind", "std::string",
               "NAME=VALUE bindings applied to every kept parametric kernel "
               "(VALUE: an integer, true, false or a type)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileInferLayouts : Pass<"tile-infer-layouts", "ModuleOp"> {
  let summary = "Give every register fragment a layout";
  let description = [{
    Sets the `layout` attribute of every `tile.alloc_fragment` that has none:
    a `tile.gemm` accumulator takes the warpgroup-MMA layout, and so does a
    fragment A (read from registers as the accumulator lays them out); the result of
    `tile.reduce` along `d` takes its source's layout sliced along `d`;
    `tile.parallel` gives its outputs' layout to identity-mapped inputs and
    the slice of it to broadcast inputs (and takes an input's layout for its
    outputs when none is known); fragment-to-fragment copies share one. A
    fragment that nothing constrains gets a blocked layout whose global
    accesses are 16 bytes wide. Two requirements that disagree are reported
    at the op that adds the second.

    Before:
    ```mlir
    %acc = tile.alloc_fragment : !tile.fragment<128x128xf32>
    %m = tile.alloc_fragment : !tile.fragment<128xf32>
    tile.gemm %a, %b, %acc : ...
    tile.reduce max %acc -> %m {dim = 1 : i64} : ...
    ```
    After:
    ```mlir
    %acc = tile.alloc_fragment {layout = #tile.mma<warpgroups = 1>} : ...
    %m = tile.alloc_fragment {layout = #tile.slice<dim = 1, parent = #tile.mma<warpgroups = 1>>} : ...
    ```
  }];
}

def TileFoldAccumulatorFills : Pass<"tile-fold-accumulator-fills",
                                    "ModuleOp"> {
  let summary = "Start gemm accumulators at zero instead of filling them";
  let description = [{
    A `tile.fill` of a register fragment with zero whose next access, in the
    same block, is a `tile.gemm` accumulating into it becomes that gemm's
    `zero_init`: the first tensor-core op then computes `C = A · B` and no
    instruction writes the accumulator registers between them (ptxas need
    not serialise the wgmmas). Ops between the two that do not touch the
    fragment do not matter; any that reads or writes it (in its regions
    too), a gemm that reads it as A or B, or a gemm in a nested region
    (a pipelined loop: only its first iteration would start at zero) keeps
    the fill.

    Before:
    ```mlir
    tile.fill %s, %zero : !tile.fragment<64x64xf32>, f32
    tile.copy %K[%i, %c0] -> %k : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %q, %k, %s {transpose_b} : ...
    ```
    After:
    ```mlir
    tile.copy %K[%i, %c0] -> %k : memref<?x?xf16> -> !tile.shared<64x64xf16>
    tile.gemm %q, %k, %s {transpose_b, zero_init} : ...
    ```
  }];
}

def TileKeepGemmsInFlight : Pass<"tile-keep-gemms-in-flight", "ModuleOp"> {
  let summary = "Overlap a pipelined loop's gemms with the next k-step";
  let description = [{
    Sets `in_flight` on the gemms of a `tile.pipelined` body when each of
    them is directly in the body, its accumulator touched by the body's
    other ops (other gemms included) only inside an `scf.if` after it, and
    its operands written only by the body's loads from global memory
    (gemm_c5): their tensor-core groups then run while the next iteration
    waits for its operands. Several (a gated MLP's gate and up products
    into their own accumulators) stay in flight together. When one gemm of
    the body may not (its accumulator read in the body, as attention's
    scores are, or the gemm in a branch), none is kept: a group left in
    flight across the back edge while other instructions write
    accumulators makes ptxas serialise every wgmma of the kernel (C7515).
    A gemm that already has it keeps it.

    Before:
    ```mlir
    tile.pipelined %k = %c0 to %n step %c1 num_stages 3 {
      tile.copy %A[%m0, %k] -> %a : ...
      tile.copy %B[%k, %n0] -> %b : ...
      tile.gemm %a, %b, %acc : ...
    }
    ```
    After:
    ```mlir
      tile.gemm %a, %b, %acc {in_flight} : ...
    ```
  }];
}

def TilePlanWaits : Pass<"tile-plan-waits", "ModuleOp"> {
  let summary = "Place every wait of each kernel in the IR";
  let dependentDialects = ["gpu::GPUDialect"];
  let description = [{
    Runs after `tile-keep-gemms-in-flight`. Walks each kernel's body in the
    order it runs, tracking the accumulators whose tensor-core group may
    still be in flight, and writes each wait as a `tile.mma_wait`:
    - after a gemm that is not `in_flight`: `pending 0`;
    - before an op that touches the accumulator of an `in_flight` gemm's
      group: `pending N`, N the groups issued after the youngest one it
      needs;
    - at the end of a `tile.pipelined` iteration whose groups of the
      iteration before may still run: `pending N`, N the iteration's own
      groups in flight (right after its last gemm when nothing waited
      since: the usual `pending 1`). The body is planned from the groups
      in flight where an iteration starts: those before the loop and those
      an iteration leaves running, found by a first pass.
    A wait completes older groups too, so it lists the accumulators of the
    body's other gemms and of every group still in flight;
    - at the start of an `scf.if` branch that touches an accumulator in
      flight;
    - before an `scf.for` over tile operations, and at the end of its body
      (no group crosses its back edge);
    - at the end of a one-stage `tile.pipelined` body (its slot refills at
      once), and after every `tile.pipelined` loop.
    A warp-specialised loop of several stages whose groups are still in
    flight at the end of an iteration gets `tile.mma_in_flight_at_end`: its
    consumers release a stage one iteration late.

    For copies that complete in the background, with `tile.copy_wait`:
    - `rows barrier` before a copy between a fragment and a shared tile
      into which row copies (copy_c6) may be in flight, earlier in the
      kernel or later in a loop around it; once before a `tile.pipelined`
      loop for a tile the loop reads but does not copy rows into;
    - `store_reads barrier` before a write to a shared tile that a copy to
      global memory issued before may still be reading;
    - at the end of the kernel, `store_reads` when it stores tiles and
      `rows` when row copies may be in flight, so that shared memory
      outlives them.
    A row copy into a tile that threads may still be reading follows a
    `gpu.barrier`.

    Each kernel it plans gets `tile.waits_planned`; a kernel that has it is
    left as it is, and `convert-tile-to-nvgpu` refuses one that does not.

    Before:
    ```mlir
    tile.pipelined %k = %c0 to %n step %c1 num_stages 3 {
      tile.copy %A[%m0, %k] -> %a : ...
      tile.copy %B[%k, %n0] -> %b : ...
      tile.gemm %a, %b, %acc {in_flight} : ...
    }
    ```
    After:
    ```mlir
    tile.pipelined %k = %c0 to %n step %c1 num_stages 3 {
      tile.copy %A[%m0, %k] -> %a : ...
      tile.copy %B[%k, %n0] -> %b : ...
      tile.gemm %a, %b, %acc {in_flight} : ...
      tile.mma_wait 1, %acc : !tile.fragment<128x128xf32>
    }
    tile.mma_wait 0, %acc : !tile.fragment<128x128xf32>
    ```
  }];
}

def TileFinalizeKernelABI : Pass<"tile-finalize-kernel-abi", "ModuleOp"> {
  let summary = "Pass TMA descriptors by value as __grid_constant__ parameters";
  let description = [{
    Runs after `convert-gpu-to-nvvm`. For every `llvm.func` kernel in a
    `gpu.module` whose `tile.tensormap_args` attribute lists parameter indices,
    marks those `!llvm.ptr` parameters as 128-byte by-value, 64-byte aligned
    `nvvm.grid_constant` parameters, so that the PTX has
    `.param .align 64 .b8 p[128]` and the host passes the `CUtensorMap` itself.
    (`gpu.func` cannot carry these attributes: `convert-gpu-to-nvvm` drops
    `llvm.byval` and rejects `nvvm.grid_constant`.)

    Before:
    ```mlir
    llvm.func @k(%arg0: !llvm.ptr, ...) attributes {nvvm.kernel, tile.tensormap_args = array<i64: 0>}
    ```
    After:
    ```mlir
    llvm.func @k(%arg0: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, ...)
        attributes {nvvm.kernel}
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
