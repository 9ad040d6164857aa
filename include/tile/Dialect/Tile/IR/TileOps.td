//===- TileOps.td - Operations of the tile dialect ---------*- tablegen -*-===//
//
// Every constraint that a verifier checks has a label (`gemm_c1`) that its
// diagnostic quotes and `test/Dialect/Tile/invalid.mlir` names.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEOPS_TD
#define TILE_DIALECT_TILE_IR_TILEOPS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "tile/Dialect/Tile/IR/TileTypes.td"
include "tile/Dialect/Tile/IR/TileAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tile_Dim : I32EnumAttr<"Dim", "a grid dimension", [
    I32EnumAttrCase<"x", 0>, I32EnumAttrCase<"y", 1>, I32EnumAttrCase<"z", 2>]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "a reduction", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"max", 1>,
    I32EnumAttrCase<"min", 2>, I32EnumAttrCase<"absmax", 3>]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_AtomicKind : I32EnumAttr<"AtomicKind", "an atomic combine", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"max", 1>,
    I32EnumAttrCase<"min", 2>]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_CopyWaitKind : I32EnumAttr<"CopyWaitKind", "asynchronous copies", [
    I32EnumAttrCase<"rows", 0>, I32EnumAttrCase<"store_reads", 1>]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_TurnKind : I32EnumAttr<"TurnKind", "a turn of the consumer warpgroups", [
    I32EnumAttrCase<"take", 0>, I32EnumAttrCase<"pass", 1>]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_GlobalMemRef : MemRefRankOf<[AnyType], [1, 2, 3, 4]>;

// A size held in an attribute: an integer, or a reference to an integer
// parameter of the kernel (bound by tile-specialize).
def Tile_SizeAttr : AnyAttrOf<[I64Attr, Tile_ParamRefAttr]>;
def Tile_ParamRefArrayAttr : TypedArrayAttrBase<Tile_ParamRefAttr,
                                                "parameter references">;
// A flag that is set (a unit attribute) or chosen by a boolean parameter.
def Tile_FlagAttr : AnyAttrOf<[UnitAttr, Tile_ParamRefAttr]>;
def Tile_SizeArrayAttr : TypedArrayAttrBase<Tile_SizeAttr, "sizes">;

//===----------------------------------------------------------------------===//
// tile.kernel
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [Symbol, IsolatedFromAbove,
    SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a GPU kernel: a grid of thread blocks running its body";
  let description = [{
    Declares a kernel named by a symbol. Its arguments are global-memory
    memrefs (row-major, innermost stride 1) and scalars. The grid is given
    per dimension as `%arg[d] / T`, meaning `ceildiv(dim d of %arg, T)`, or as
    a constant; `threads` is the number of threads per block. The body runs
    once per block; `tile.block_id` gives its coordinates.

    Constraints:
    - kernel_c1: the grid has one to three dimensions.
    - kernel_c2: a grid dimension refers to a memref argument and one of its
      dimensions, and its tile size is positive.
    - kernel_c3: `threads` is a positive multiple of the warp size (32), at
      most 1024 (a block's limit).
    - kernel_c4: arguments are memrefs of rank 1 to 5 (of integers, floats
      or index) or i32/i64/f32 scalars; the kernel returns nothing.
    - kernel_c5: `min_blocks_per_sm`, when given, is at least 1. It asks the
      register allocator to leave room for that many resident blocks per
      multiprocessor (memory-bound kernels hide latency with them).
    - kernel_c11: `cluster [X, Y, Z]`, when given, groups the blocks into
      clusters of X x Y x Z (the dimensions left out are 1), that many per
      grid dimension: each at least 1, at most as many as the grid has,
      at most 8 blocks in all (the portable cluster size). The blocks of a
      cluster run at once on neighbouring multiprocessors. The launch
      rounds each grid dimension up to a multiple of the cluster's, so the
      blocks past the grid the shapes give must touch nothing out of range
      (copies clip at the memrefs' bounds).
    - kernel_c9: the name is an identifier of 1 to 255 characters (letters,
      digits, `_`, not starting with a digit): it becomes the GPU symbol the
      runtime looks up.
    - kernel_c10: the body writes memory through tile operations only. It is
      the code of a whole block, run by each of its threads: an op of another
      dialect that writes memory (`memref.store`, `memref.atomic_rmw`) would
      write once per thread; `tile.atomic` combines into memory for the
      block.

    A parametric kernel declares named parameters with their defaults
    (`params`): integers (and booleans, `i1`) for block sizes, stages,
    threads and flags, types for element types. `space` may list each one's
    candidates (or the default may be followed by them:
    `params {BM = 128 in [64, 128]}`), and `where` the constraints between integer parameters
    (`+ - * floordiv ceildiv mod`, compared with `== <= >= < >`). The body
    reads an integer parameter with `tile.param`, a type parameter appears as
    `!tile.param<"T">`, and a grid tile, `threads`, `num_stages` or
    `min_blocks_per_sm` may name an integer parameter. Tile sizes that depend
    on parameters are `?` dimensions given to the allocation.
    `tile-specialize` binds the parameters and makes every size static.
    - kernel_c6: parameters have identifier names and integer or type
      defaults, a type parameter's an integer or float type (it stands for
      the elements of memrefs and tiles); each parameter referenced (by the header, `tile.param` or
      `!tile.param`) is declared with the right kind.
    - kernel_c7: a `space` entry names a declared parameter and lists
      distinct candidates of its kind, the default among them; each `where`
      constraint holds for the defaults.

    `requires` states the shape contracts the runtime checks before every
    launch: two integer expressions over memref arguments' dimensions
    (`%X[1]`), integer parameters, boolean parameters (0 or 1) and
    integers, with `+ - * floordiv ceildiv mod` and parentheses, compared by
    `==`, `<=`, `>=`, `<` or `>` (`%A[1] == %B[0]`, `%X[1] <= 2 * BN`,
    `%Q[1] mod %K[1] == 0`, `%B[0] * (1 - TB) + %B[1] * TB == %A[1]`). A
    division by a value that is not positive, or an overflow, fails the
    contract.
    - kernel_c8: a contract reads at least one dimension, and only
      dimensions that exist of memref arguments; its relation is one of
      eq, le, ge, lt, gt.

    The arguments' names in the source are kept (`arg_names`): the printed
    kernel and the runtime's contract errors use them.

    In the body, `tile.copy`, `tile.gemm`, `tile.fill`, `tile.reduce`,
    `tile.reduction`, `tile.atomic` and `tile.parallel` may leave out the
    types of their operands when each is a kernel argument, a tile
    allocated before or a `tile.reduction`'s scalar (by name; a reduction's
    result has its source's element type): `tile.copy %A[%m0,
    %k0] -> %a` reads as if `: memref<...> -> !tile.shared<...>` were
    written. The printer always writes the types.

    Example:
    ```mlir
    tile.kernel @gemm(%A: memref<?x?x!tile.param<"T">>, ...)
        params {BM = 128, T = f16} space {BM = [64, 128], T = [f16, bf16]}
        where [BM mod 64 == 0]
        grid [%C[1] / 128, %C[0] / BM] threads 256
        requires [%A[1] == %B[0], %C[0] == %A[0]] {
      %bm = tile.param "BM" : index
      %a = tile.alloc_shared [%bm] : !tile.shared<?x64x!tile.param<"T">>
      ...
    }
    ```

    Example:
    ```mlir
    tile.kernel @scale(%X: memref<?x?xf16>) grid [%X[1] / 128, %X[0] / 128]
        threads 128 {
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       DenseI64ArrayAttr:$grid_args,
                       DenseI64ArrayAttr:$grid_dims,
                       Tile_SizeArrayAttr:$grid_tiles,
                       Tile_SizeAttr:$threads,
                       OptionalAttr<Tile_SizeAttr>:$min_blocks_per_sm,
                       OptionalAttr<Tile_SizeArrayAttr>:$cluster,
                       OptionalAttr<DictionaryAttr>:$params,
                       OptionalAttr<DictionaryAttr>:$space,
                       OptionalAttr<TypedArrayAttrBase<IntegerSetAttr,
                           "integer sets">>:$constraints,
                       OptionalAttr<TypedArrayAttrBase<Tile_ContractAttr,
                           "contracts">>:$contracts,
                       OptionalAttr<StrArrayAttr>:$arg_names);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
      "::mlir::FunctionType":$type, "::llvm::ArrayRef<int64_t>":$gridArgs,
      "::llvm::ArrayRef<int64_t>":$gridDims,
      "::llvm::ArrayRef<int64_t>":$gridTiles, "int64_t":$threads)>];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    unsigned getNumGridDims() { return getGridArgs().size(); }
    /// The cluster's blocks per grid dimension, three of them (1 where none
    /// is given), of a specialised kernel.
    ::llvm::SmallVector<int64_t, 3> getClusterShape();
    /// Whether the kernel declares parameters: it must go through
    /// tile-specialize before any other pass.
    bool isParametric() { return getParams().has_value(); }
    /// The sizes of a specialised kernel (no parameter references left).
    int64_t getThreadCount();
    /// The source name of argument `arg` (from `arg_names`), or "".
    ::llvm::StringRef getArgName(unsigned arg);
    int64_t getGridTile(unsigned dim);
    std::optional<int64_t> getMinBlocks();
    /// Emits an error and fails when the kernel is parametric: a pass that
    /// needs static sizes calls it first.
    ::mlir::LogicalResult requireSpecialised(::llvm::StringRef pass);
  }];
}

def Tile_BlockIdOp : Tile_Op<"block_id", [Pure,
    HasParent<"KernelOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "the coordinate of the running block along a grid dimension";
  let description = [{
    Constraints:
    - block_id_c1: the dimension exists in the enclosing kernel's grid.

    Example: `%bx = tile.block_id x`
  }];
  let arguments = (ins Tile_Dim:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict";
  let hasVerifier = 1;
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["KernelOp", "PipelinedOp", "ParallelOp"]>]> {
  let summary = "ends a tile region, yielding element values in tile.parallel";
  let description = [{
    Terminates the bodies of `tile.kernel` and `tile.pipelined` (no operands)
    and of `tile.parallel` (one value per output tile).
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ /* nothing */ }]>];
}

def Tile_IndexOp : Tile_Op<"index", [Pure, HasParent<"ParallelOp">]> {
  let summary = "the index of the current element in a tile.parallel body";
  let description = [{
    The coordinate, along dimension `dim` of the iteration space, of the
    element that the enclosing `tile.parallel` body is computing (counted
    from the tile's origin). Masks use it, e.g. causal attention.

    An integer result type (`: i32`) gives the coordinate in that type, as
    `arith.index_cast` would (tile-expand-shorthands writes the cast): a
    32-bit mask compares in one instruction.

    Constraints:
    - index_c1: `dim` is a dimension of the iteration space.

    Example: `%j = tile.index 1`, `%j32 = tile.index 1 : i32`
  }];
  let arguments = (ins I64Attr:$dim);
  let results = (outs AnySignlessIntegerOrIndex:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

def Tile_ParamOp : Tile_Op<"param", [Pure]> {
  let summary = "the value of an integer parameter of the enclosing kernel";
  let description = [{
    Reads the integer parameter `name` of the enclosing parametric
    `tile.kernel` (TileLang's `@jit` arguments, Triton's `tl.constexpr`).
    `tile-specialize` replaces it by a constant, so that sizes computed from
    it fold and branches on flags disappear.

    Constraints:
    - param_c1: the enclosing kernel declares `name` as an integer
      parameter; a boolean (`i1`) parameter is read as `i1`.

    Example: `%bm = tile.param "BM" : index`
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs AnyTypeOf<[Index, AnySignlessInteger]>:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_LetOp : Tile_Op<"let", [Pure]> {
  let summary = "integer values computed from parameters, sizes and block ids";
  let description = [{
    Binds one value per expression, in the integer language of the
    kernel's `where` and `requires` (`+ - * floordiv ceildiv mod`,
    parentheses, integers) over the kernel's integer parameters by name,
    dimensions of its memref arguments (`%X[1]`), `block_id.x`, `.y`,
    `.z`, and index values. An expression may also be `min(e, e, ...)`,
    and `FLAG ? e : e` chooses on a boolean parameter. The arithmetic is
    that of non-negative integers (divisions round as unsigned ones do);
    results are `index` unless a type list follows. A value may instead be
    a float literal (`1.5`, `-inf`, `nan`) of a float result type.

    `tile-expand-shorthands` (run first by `tile-specialize`) expands it
    into the `tile.param`, `tile.block_id`, `memref.dim` and `arith` ops
    that it stands for, in the order written.

    Constraints:
    - let_c1: one value per result, each result an index or an integer.
    - let_c2: the parameters are integer parameters of the enclosing
      kernel, a choice's flag a boolean one.
    - let_c3: every leaf names an operand: an index value, or a dimension
      of a memref operand.

    Example:
    ```mlir
    %m0, %kt = tile.let block_id.y * BM, %A[1] ceildiv BK
    %nblk = tile.let CAUSAL ? min(%nkv, (%m0 + BM) ceildiv BN) : %nkv
    %lim = tile.let %row - %n0 : i32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands, ArrayAttr:$leaves,
                       ArrayAttr:$values);
  let results = (outs Variadic<AnyTypeOf<[Index, AnySignlessInteger,
                                          AnyFloat]>>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tile_InstanceOp : Tile_Op<"instance", [Symbol,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a named binding of a parametric kernel's parameters";
  let description = [{
    Names a specialisation of the parametric kernel `kernel`: the kernel with
    `bindings` over its defaults. `tile-specialize` turns it into a
    `tile.kernel` of that name, so that a binding (a dtype, a head size, a
    variant) is a line, not a copy of the kernel.

    Constraints:
    - instance_c1: `kernel` names a parametric `tile.kernel` of the module;
      the instance's own name follows kernel_c9.
    - instance_c2: each binding names a declared parameter, has its kind and
      is among its candidates.

    Example: `tile.instance @gemm_bf16 = @gemm {T = bf16}`
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       FlatSymbolRefAttr:$kernel,
                       DictionaryAttr:$bindings);
  let assemblyFormat = "$sym_name `=` $kernel $bindings attr-dict";
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

def Tile_AllocSharedOp : Tile_Op<"alloc_shared", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocates a tile in shared memory";
  let description = [{
    A tile in the block's shared memory, live for the whole kernel
    (TileLang's `T.alloc_shared`).

    Constraints:
    - alloc_c1: the op is inside a `tile.kernel`, outside `tile.pipelined` and
      `tile.parallel`.
    - alloc_c3: one size is given per `?` dimension, in order (a parametric
      kernel's tile sizes; `tile-specialize` folds them into the type):
      index values, or the names of integer parameters.
    - alloc_c4: with `after_loops`, the tile lives only after the kernel's
      `tile.pipelined` loops: every use of it comes after the last of them
      in the kernel's body. It may then take the shared memory of tiles
      that are no longer live there (a loop's stages; an epilogue's
      staging tile over the ring of the main loop, so that the ring keeps
      its stages). The lowering makes the threads that run the code after
      the loops wait for one another before each write of fragments into
      the tile, so that none writes over a stage that another still reads.

    Example: `%a = tile.alloc_shared : !tile.shared<128x64xf16>`,
    `%a = tile.alloc_shared [%bm] : !tile.shared<?x64xf16>`,
    `%a = tile.alloc_shared [BM, BK] : !tile.shared<?x?xf16>`,
    `%c = tile.alloc_shared [BM, BN] {after_loops} : !tile.shared<?x?xf16>`
  }];
  let arguments = (ins Variadic<Index>:$sizes,
                       OptionalAttr<Tile_ParamRefArrayAttr>:$size_params,
                       UnitAttr:$after_loops);
  let results = (outs Tile_SharedType:$result);
  let assemblyFormat = [{
    `` custom<AllocSizes>($sizes, $size_params) attr-dict `:`
    custom<TileType>(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_AllocFragmentOp : Tile_Op<"alloc_fragment", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocates a tile in the block's registers";
  let description = [{
    A logical tile spread over the registers of the block's threads
    (TileLang's `T.alloc_fragment`). Its `layout` (which thread holds which
    element) is usually left out and inferred by `tile-infer-layouts` from
    the ops that use the fragment; when given, it is kept.

    Constraints:
    - alloc_c1: as for `tile.alloc_shared`.
    - alloc_c2: a given layout fits the fragment: an mma layout is 2-d, a
      blocked layout has one lane and one warp count per dimension (at most
      2-d), a slice removes a dimension of its parent.
    - alloc_c3: as for `tile.alloc_shared`.

    Example: `%acc = tile.alloc_fragment : !tile.fragment<128x128xf32>`
  }];
  let arguments = (ins Variadic<Index>:$sizes,
                       OptionalAttr<Tile_ParamRefArrayAttr>:$size_params,
                       OptionalAttr<AnyAttr>:$layout);
  let results = (outs Tile_FragmentType:$result);
  let assemblyFormat = [{
    `` custom<AllocSizes>($sizes, $size_params) attr-dict `:`
    custom<TileType>(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tile operations
//===----------------------------------------------------------------------===//

def Tile_FillOp : Tile_Op<"fill"> {
  let summary = "fills a tile with a value";
  let description = [{
    Sets every element of `dest` to `value` (`T.fill`, `T.clear`): an SSA
    value of the tile's element type, or a literal, converted to the
    element type: a decimal number, `inf`, `-inf` or `nan` (the -inf a
    running maximum starts from, without spelling its bits).

    Constraints:
    - fill_c1: the value's type is the tile's element type; a literal
      fills a float tile (a finite one within the type's range), or an
      integer tile with an integer within its signed range.

    Example:
    ```mlir
    tile.fill %acc, 0.0 : !tile.fragment<128x128xf32>
    tile.fill %m, -inf : !tile.fragment<128xf32>
    tile.fill %acc, %zero : !tile.fragment<128x128xf32>, f32
    ```
  }];
  let arguments = (ins Arg<Tile_AnyTile, "", [MemWrite]>:$dest,
                       Optional<AnyType>:$value,
                       OptionalAttr<AnyAttrOf<[F64Attr, I64Attr]>>:$constant);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether the fill writes zeros (a +0.0 or 0 literal, or a constant
    /// operand that is zero).
    bool isZeroFill();
    /// The literal as an attribute of `type` (the tile's element type, once
    /// specialised), or null for a fill from an SSA value.
    ::mlir::TypedAttr getConstantOf(::mlir::Type type);
  }];
}

def Tile_PrintOp : Tile_Op<"print"> {
  let summary = "prints a scalar or a fragment's elements from the device";
  let description = [{
    Prints `value` after `label` through the device's printf, for debugging
    (`T.print`): a scalar (integer, index or float) as one line
    `label = v`, a fragment as one line `label[i, j] = v` per element,
    printed by the thread that holds it. Each line starts with the block's
    and the thread's coordinates. `block` (grid coordinates x, y, z; missing
    ones are 0) and `thread` (the thread's index in the block) restrict the
    printing to that block and that thread; without them every block and
    every thread prints. The lines reach the host's stdout when the launch
    completes (at the runtime's synchronisation).

    Constraints:
    - print_c1: `value` is a fragment of floats, or an integer, index or
      float scalar.
    - print_c2: `block` has one to three coordinates, and they and `thread`
      are not negative; `thread` is below the kernel's thread count.

    Example: `tile.print "acc" %acc {block = array<i64: 0, 0>, thread = 0} : !tile.fragment<64x64xf32>`
  }];
  let arguments = (ins StrAttr:$label, AnyType:$value,
                       OptionalAttr<DenseI64ArrayAttr>:$block,
                       OptionalAttr<I64Attr>:$thread);
  let assemblyFormat = "$label $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Tile_CopyOp : Tile_Op<"copy", [AttrSizedOperandSegments]> {
  let summary = "copies a tile between global memory, shared memory and registers";
  let description = [{
    Copies `source` into `dest` (`T.copy`). One side may be a global memref
    indexed at the tile's origin; elements of the tile that fall outside the
    memref are not read (they read as zero) and not written. Element types may
    differ, except between global and shared memory: the values are converted
    (`arith.truncf`/`extf` semantics; into an 8-bit float, f8E4M3FN or
    f8E5M2, rounding to nearest even and saturating at the largest finite
    value, which is torch's `x.clamp(-max, max).to(dtype)`). A copy between global and shared
    memory is a bulk copy (a TMA load or store on sm_90a): the memref is a
    `tile.kernel` argument, and a store reads a tile that no pipelined loop
    fills.

    Constraints:
    - copy_c1: at most one side is a memref, and offsets are given exactly for
      that side, one per memref dimension; or, between a shared tile and a
      fragment, optionally for the shared side, one per dimension
      (copy_c5).
    - copy_c2: the tile's rank is at most the memref's: the tile spans the
      memref's innermost dimensions (e.g. one head of a [B, H, S, D] tensor).
    - copy_c3: shared and fragment tiles on both sides have the same shape.
    - copy_c4: a copy between global and shared memory keeps the element
      type (it is a bulk copy; checked by the lowering for stores).
    - copy_c5: with offsets on its shared side, a copy between a shared tile
      and a fragment moves the window of the tile at the offsets that has
      the fragment's shape; the window lies inside the tile (a window
      reaching past it is undefined behaviour, as an out-of-bounds
      `memref.store` is). This keeps data on chip between passes: a long
      softmax row staged in shared memory chunk by chunk.
    - copy_c6: from global memory, offsets on the shared side (the second
      one a constant 0) name one row of a 2-d shared tile, which the copy
      fills with the tile's width of the memref's innermost dimension at
      the source offsets (columns past the memref read as zero). It does
      not wait: on sm_90a the rows are cp.async copies in flight until the
      tile is next read in place (or the kernel ends), so a block can ask
      for a whole softmax row at once. Such a tile is read and written only by copies between it
      and fragments. No window of a shared tile is copied to global memory.
    - copy_c7: the memref holds integers or floats, not index (whose width
      in memory the target decides).
    - copy_c8: the element types are equal, or both floats (converted).
    - copy_c9: `through %s` stages a copy from a fragment to global memory
      in the shared tile `%s` (the fragment's shape, the memref's element
      type), written back with TMA stores: the copy into `%s` then the copy
      from it (tile-expand-shorthands writes them). `if FLAG` (0, 1 or a
      boolean parameter) makes the staging a schedule choice: without it
      the fragment is stored directly.
    - copy_c10: `bounds [%b0, ...]`, one index per memref dimension, clips
      a copy between global memory and a fragment at bounds known only at
      run time: an element at or past bound d along dimension d is
      outside, as if the memref ended there (read as zero, not written).
      An expert's rows in a grouped GEMM, a sequence's length in a cache.
      Not with `through` (a TMA store writes whole tiles).
    - copy_c11: a 1-d fragment may be read from a row of a 2-d shared tile:
      `tile.copy %s[%r, %c] -> %x` takes the fragment's length of row `%r`
      from column `%c` (offsets required; the window lies inside the
      tile, as in copy_c5). A vector that comes through a pipeline's ring
      as a one-row tile beside a matrix's, then is broadcast along the
      matrix's rows by tile.parallel (`%x[1]`).
    - copy_c12: `multicast` loads a tile from global memory into a whole
      shared tile once per thread-block cluster: the kernel runs in clusters
      (`cluster [X, Y, Z]`), and every block of a cluster reads the same
      tile (the offsets and the loop's bounds do not depend on the block ids
      that the cluster spans; checked by the lowering, as are the rest).
      Each block loads an equal share of the tile's rows (a multiple of 8)
      into the shared memory of all of them: L2 serves the tile once per
      cluster (a GEMM in clusters of 2 along N shares A's tiles). Only in a
      warp-specialised loop, whose producer frees a stage in every block of
      the cluster before refilling it.

    Example:
    ```mlir
    tile.copy %A[%m0, %k0] -> %a_s : memref<?x?xf16> -> !tile.shared<128x64xf16>
    tile.copy %acc -> %C[%m0, %n0] : !tile.fragment<128x128xf32> -> memref<?x?xf16>
    tile.copy %x -> %row[%k, %c0] : !tile.fragment<1x8192xf32> -> !tile.shared<8x8192xf16>
    tile.copy %c_s -> %C[%m0, %n0] : !tile.shared<128x256xf16> -> memref<?x?xf16>
    tile.copy %X[%r, %col] -> %row[%k, %c0] : memref<?x?xf16> -> !tile.shared<8x8192xf16>
    tile.copy %xs[%c0, %c0] -> %x : !tile.shared<1x512xf16> -> !tile.fragment<512xf32>
    tile.copy %acc -> %C[%m0, %n0] through %c_s if TMA_STORE : !tile.fragment<128x256xf32> -> memref<?x?xf16> through !tile.shared<128x256xf16>
    tile.copy %acc -> %C[%m0, %n0] bounds [%end, %N] : !tile.fragment<128x128xf32> -> memref<?x?xf16>
    tile.copy %A[%m0, %k0] -> %a multicast : memref<?x?xf16> -> !tile.shared<128x64xf16>
    ```
  }];
  let arguments = (ins Arg<AnyType, "", [MemRead]>:$source,
                       Variadic<Index>:$source_offsets,
                       Arg<AnyType, "", [MemWrite]>:$dest,
                       Variadic<Index>:$dest_offsets,
                       Variadic<Index>:$bounds,
                       Arg<Optional<Tile_SharedType>, "",
                           [MemRead, MemWrite]>:$staging,
                       OptionalAttr<Tile_SizeAttr>:$through_if,
                       UnitAttr:$multicast);
  let assemblyFormat = [{
    $source (`[` $source_offsets^ `]`)? `->` $dest (`[` $dest_offsets^ `]`)?
    (`bounds` ` ` `[` $bounds^ `]`)? (`multicast` $multicast^)? attr-dict custom<CopyTail>($staging, $through_if, ref($source),
                               ref($dest), type($source), type($dest),
                               type($staging))
  }];
  let extraClassDeclaration = [{
    /// A copy from global memory into a whole shared tile.
    bool isTileLoad();
    /// A copy of a whole shared tile to global memory.
    bool isTileStore();
    /// A copy from global memory into rows of a shared tile, at the dest
    /// offsets (copy_c6).
    bool isRowLoad();
  }];
  let hasVerifier = 1;
}

def Tile_AtomicOp : Tile_Op<"atomic"> {
  let summary = "combines a fragment or a scalar into global memory atomically";
  let description = [{
    `dest[offsets + i] = dest[offsets + i] kind value[i]` for every element
    `i` of the fragment `value` that falls inside `dest` (the others are
    skipped, as `tile.copy` skips them), each element one atomic
    read-modify-write (relaxed, at GPU scope). Blocks that combine into the
    same elements (the partial tiles of a split-K GEMM, per-block sums) need
    no other synchronisation; the order in which they do is unspecified,
    so float sums may differ in their last bits from run to run. The
    fragment's elements are converted to the memref's element type first
    (`arith.truncf` semantics, as `tile.copy` converts). A scalar `value`
    (uniform across the block) is combined once per block, at `offsets`.

    On sm_90a an element is one `red.global` instruction; a float add into
    f16 or bf16 memory combines two neighbouring elements per instruction
    (`f16x2`, `bf16x2`) where the layout gives a thread both; a float max
    or min is an integer max (or min) on the bits, signed for
    non-negative values and unsigned for negative ones, which orders every
    float but NaN.

    Constraints:
    - atomic_c1: `dest` is a memref with one offset per dimension; a
      fragment `value` has at most its rank (it spans the innermost
      dimensions, as in copy_c2).
    - atomic_c2: `add` combines f32, f16, bf16 or i32 memory, `max` and
      `min` f32 or i32; a scalar has the memref's element type, and a
      fragment's elements are floats when the memref's are (converted) or
      the memref's integer type.
    - atomic_c3: not inside a `tile.parallel` body.

    Example:
    ```mlir
    tile.atomic add %acc -> %C[%m0, %n0] : !tile.fragment<128x128xf32> -> memref<?x?xf32>
    tile.atomic max %m -> %Out[%c0] : f32 -> memref<?xf32>
    ```
  }];
  let arguments = (ins Tile_AtomicKind:$kind, Arg<AnyType, "", [MemRead]>:$value,
                       Arg<AnyMemRef, "", [MemRead, MemWrite]>:$dest,
                       Variadic<Index>:$offsets);
  let assemblyFormat = [{
    $kind $value `->` $dest `[` $offsets `]` attr-dict
    custom<SourceToDestTypes>(ref($value), ref($dest), type($value), type($dest))
  }];
  let hasVerifier = 1;
}

def Tile_ArriveOp : Tile_Op<"arrive"> {
  let summary = "counts a block's arrival and says whether it came last";
  let description = [{
    The block arrives at the counter `counter[offsets]`, an i32 in global
    memory: once every thread of the block has reached the op, one thread
    adds 1 to the counter with an atomic read-modify-write at GPU scope
    that releases every global write the block made before the op and
    acquires those of the blocks that arrived before it. `%last` is true,
    in every thread of the block, where this arrival is the `count`-th:
    that block then sees every global write the other `count - 1` blocks
    made before they arrived, and sets the counter back to 0 for the next
    launch. Elsewhere `%last` is false.

    This is how the blocks that share an output combine it inside one
    kernel, without atomics on the output: each writes its partial result,
    arrives, and the last to arrive reads the partials and writes the
    output (kernels/gemm_splitk_reduce.mlir). The counters are 0
    before the first launch (the caller zeroes them once); a launch in
    which `count` blocks arrive at each counter leaves them at 0. An offset
    outside the memref or a `count` below 1 stops the launch with an error
    (a trap). A kernel launched in clusters cannot arrive (the blocks that
    round its grid up to whole clusters would arrive too).

    Constraints:
    - arrive_c1: `counter` has i32 elements and one offset per dimension.
    - arrive_c2: not inside a `tile.parallel` or `tile.pipelined` body.
    - arrive_c3: a constant `count` is at least 1.

    Example:
    ```mlir
    tile.copy %acc -> %W[%z, %m0, %n0] : !tile.fragment<64x64xf32> -> memref<?x?x?xf32>
    %last = tile.arrive %Count[%t] count %split : memref<?xi32>
    scf.if %last {
      // every block's partial tile is in W
    }
    ```
  }];
  let arguments = (ins Arg<MemRefOf<[I32]>, "", [MemRead, MemWrite]>:$counter,
                       Variadic<Index>:$offsets, Index:$count);
  let results = (outs I1:$last);
  let assemblyFormat = [{
    $counter `[` $offsets `]` `count` $count attr-dict
    custom<CounterType>(ref($counter), type($counter))
  }];
  let hasVerifier = 1;
}

def Tile_GemmOp : Tile_Op<"gemm"> {
  let summary = "accumulates a tile matrix product on tensor cores";
  let description = [{
    `C += op(A) · op(B)`, where op transposes when `transpose_a` /
    `transpose_b` is set (`T.gemm`). Without transposes A is M×K and B is K×N;
    `transpose_b` takes B as N×K (K contiguous), the layout of `Q · Kᵀ`.
    A transpose may be chosen by a boolean parameter
    (`{transpose_b = #tile.param<"TRANS_B">}`: B is N×K when it is true);
    tile-expand-shorthands writes the two gemms under `scf.if` on it.
    The accumulator's fragment layout is the tensor-core result layout.
    With `zero_init`, `C = op(A) · op(B)`: C's values before are not read
    (`tile-fold-accumulator-fills` sets it in place of a zero fill of C, so
    that no instruction writes the accumulator between tensor-core ops).
    With `in_flight`, the gemm's tensor-core group keeps running past it:
    an op that touches C waits for it first, the end of the iteration waits
    for the groups of the iteration before (its stage is refilled then),
    and the loop's end for all (`tile.mma_wait`, placed by
    `tile-plan-waits`). `tile-keep-gemms-in-flight` sets it where nothing in
    the body touches C before a branch after the gemm; a kernel may set it
    itself to overlap a product with the use of an earlier one (the next
    block's product issued before this block's result is read).

    Constraints:
    - gemm_c1: A is a shared tile or a fragment (read from registers, e.g.
      the probabilities of attention), B a shared tile, C a fragment.
    - gemm_c2: the shapes agree: op(A) is M×K, op(B) is K×N, C is M×N.
    - gemm_c3: A and B have the same element type: f16, bf16, an 8-bit
      float (f8E4M3FN, f8E5M2) or i8 (signed).
    - gemm_c4: C's element type is f32, or i32 for i8 operands (integer
      products accumulate exactly).
    - gemm_c5: an `in_flight` gemm is directly in a `tile.pipelined` body,
      and the body writes a shared A or B only by the loop's copies from
      global memory (which rotate through stages; a write from registers
      would change an operand the tensor cores still read). An op that
      touches C, or writes a fragment A, waits for its group first
      (tile-plan-waits), wherever it is.
    - gemm_c6: 8-bit A and B are K-major, the only layout in which tensor
      cores read them: A a shared tile without `transpose_a`, B a shared
      tile with `transpose_b` (N×K).

    Example:
    ```mlir
    tile.gemm %a_s, %b_s, %acc : !tile.shared<128x64xf16>,
        !tile.shared<64x128xf16>, !tile.fragment<128x128xf32>
    ```
  }];
  let arguments = (ins Arg<Tile_AnyTile, "", [MemRead]>:$a,
                       Arg<Tile_AnyTile, "", [MemRead]>:$b,
                       Arg<Tile_AnyTile, "", [MemRead, MemWrite]>:$c,
                       OptionalAttr<Tile_FlagAttr>:$transpose_a,
                       OptionalAttr<Tile_FlagAttr>:$transpose_b,
                       UnitAttr:$zero_init, UnitAttr:$in_flight);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict
    custom<GemmTypes>(ref($a), ref($b), ref($c), type($a), type($b), type($c))
  }];
  let extraClassDeclaration = [{
    /// Whether op(A) (op(B)) transposes: the flag is set, not left to a
    /// parameter.
    bool transposesA() {
      return ::llvm::isa_and_present<::mlir::UnitAttr>(getTransposeAAttr());
    }
    bool transposesB() {
      return ::llvm::isa_and_present<::mlir::UnitAttr>(getTransposeBAttr());
    }
    /// Whether a transpose is left to a parameter (tile-expand-shorthands
    /// chooses it).
    bool hasParametricTranspose() {
      return ::llvm::isa_and_present<ParamRefAttr>(getTransposeAAttr()) ||
             ::llvm::isa_and_present<ParamRefAttr>(getTransposeBAttr());
    }
    /// Why this gemm's group cannot stay in flight (gemm_c5), or an empty
    /// string when it can.
    std::string whyNotInFlight();
    /// An op of the loop body around this gemm, other than the gemm, that
    /// may write `operand` (its A or B), or null. A shared operand's
    /// copies from global memory do not count: they rotate through the
    /// stages.
    ::mlir::Operation *operandWriterInBody(::mlir::Value operand);
    /// For a gemm directly in a tile.pipelined body: an op of the body
    /// other than a branch after the gemm that touches C (it waits for
    /// the group), or null.
    ::mlir::Operation *accumulatorUseInBody();
  }];
  let hasVerifier = 1;
}

def Tile_MmaWaitOp : Tile_Op<"mma_wait",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits for the tensor-core groups in flight";
  let description = [{
    Waits until at most `pending` of the tensor-core groups that this
    warpgroup issued (one per `tile.gemm`) are still running
    (`wgmma.wait_group` on sm_90a). The listed accumulators are the
    fragments those groups write: their registers are read and written
    after the wait, never moved above it.

    `tile-plan-waits` places every wait; the lowering emits the ones it
    finds and decides none itself.

    Constraints:
    - mma_wait_c1: `pending` is not negative.
    - mma_wait_c2: each accumulator is an f32 or i32 fragment, listed once.

    Example:
    ```mlir
    tile.gemm %a, %b, %acc {in_flight} : ...
    tile.mma_wait 1, %acc : !tile.fragment<128x128xf32>
    ```
  }];
  let arguments = (ins I64Attr:$pending,
      Arg<Variadic<Tile_FragmentType>, "", [MemRead, MemWrite]>:$accumulators);
  let assemblyFormat = [{
    $pending (`,` $accumulators^ `:` type($accumulators))? attr-dict
  }];
  let hasVerifier = 1;
}

def Tile_CopyWaitOp : Tile_Op<"copy_wait",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits for the asynchronous copies issued so far";
  let description = [{
    `rows`: every row copy into a shared tile (copy_c6) issued so far has
    landed (`cp.async.wait_group 0` in each thread). `store_reads`: every
    copy from a shared tile to global memory issued so far has read its tile
    (`cp.async.bulk.wait_group.read 0` in the thread that issued them), so
    the tile may be written again. With `barrier`, the computing threads
    then synchronise, so that any of them may touch the tiles.

    `tile-plan-waits` places every wait; the lowering emits the ones it
    finds and decides none itself.

    Example:
    ```mlir
    tile.copy %X[%r, %c0] -> %rows[%k, %c0] : memref<?x?xf16> -> !tile.shared<8x1024xf16>
    tile.copy_wait rows barrier
    tile.copy %rows -> %x : !tile.shared<8x1024xf16> -> !tile.fragment<8x1024xf32>
    ```
  }];
  let arguments = (ins Tile_CopyWaitKind:$kind, UnitAttr:$barrier);
  let assemblyFormat = "$kind (`barrier` $barrier^)? attr-dict";
}

def Tile_TurnOp : Tile_Op<"turn", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "orders the consumer warpgroups' tensor-core work";
  let description = [{
    A schedule choice in a warp-specialised `tile.pipelined` body
    (FlashAttention-3's ping-pong): the consumer warpgroups take turns, in
    the order 0, 1, ..., warpgroup 0 first. A warpgroup's turn runs from its
    `tile.turn take`, which waits until the warpgroup before it has passed,
    to its next `tile.turn pass`. What a warpgroup issues in its turn, the
    others do not issue meanwhile, so one warpgroup's tensor-core products
    run while the others compute what lies outside their turns (the
    softmax of attention).

    When the pass comes before the take in the body, a turn spans the end
    of the iteration: it covers the take's gemms and the next iteration's
    gemms before the pass (attention's `P · V` and the next `Q · Kᵀ`). The
    pass of the first iteration then ends no turn and does nothing, and
    the turn held when the loop ends is passed there. The results are
    those of the loop without turns.

    With `if FLAG` (0, 1 or a boolean parameter), the turn is taken only
    when FLAG is set; a kernel binds it with the loop's `warp_specialize`.
    With one consumer warpgroup a turn orders nothing.

    Constraints:
    - turn_c1: the op is directly in a `tile.pipelined` body, which has one
      take and one pass with the same flag (pipelined_c5).
    - turn_c2: a constant flag is 0 or 1, a parameter flag a boolean one.
    - Checked when the kernel is lowered: the loop is warp-specialised (the
      block's barrier at every iteration of a loop without a producer
      warpgroup would deadlock the turns), and nothing inside a turn makes
      the consumers wait for each other (a barrier, a reduction across
      threads, a copy through shared memory other than the loop's loads),
      since the others wait for the turn meanwhile.

    Example:
    ```mlir
    tile.pipelined %j to %n num_stages 2 warp_specialize 1 {
      ...
      tile.gemm %q, %k, %s {transpose_b, in_flight} : ...
      tile.turn pass
      ... // the softmax of S, while the other warpgroup's gemms run
      tile.turn take
      tile.gemm %p, %v, %o : ...
    }
    ```
  }];
  let arguments = (ins Tile_TurnKind:$kind, OptionalAttr<Tile_SizeAttr>:$enabled);
  let assemblyFormat = "$kind (`if` custom<Flag>($enabled)^)? attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether a specialised kernel takes this turn.
    bool isEnabled();
  }];
}

def Tile_ReduceOp : Tile_Op<"reduce"> {
  let summary = "reduces a fragment along one dimension";
  let description = [{
    `dest[i] = kind over j of source[i, j]` for `dim = 1` (`T.reduce_max`,
    `T.reduce_sum`, ...). With `clear`, `dest` is overwritten; without it,
    the result is combined with `dest`'s current values.

    Constraints:
    - reduce_c1: source and dest are fragments with the same element type.
    - reduce_c2: `dim` is a dimension of the source, and dest's shape is the
      source's shape without it.

    Example:
    ```mlir
    tile.reduce max %s -> %m {dim = 1 : i64, clear}
        : !tile.fragment<128x64xf32> -> !tile.fragment<128xf32>
    ```
  }];
  let arguments = (ins Tile_ReduceKind:$kind,
                       Arg<Tile_FragmentType, "", [MemRead]>:$source,
                       Arg<Tile_FragmentType, "", [MemRead, MemWrite]>:$dest,
                       I64Attr:$dim, UnitAttr:$clear);
  let assemblyFormat = [{
    $kind $source `->` $dest attr-dict
    custom<SourceToDestTypes>(ref($source), ref($dest), type($source), type($dest))
  }];
  let hasVerifier = 1;
}

def Tile_ReductionOp : Tile_Op<"reduction", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "reduces a whole fragment to one value";
  let description = [{
    `result = kind over every element of source` (`sum`, `max`, `min`,
    `absmax`): one value, the same in every thread of the block, for
    arithmetic, `tile.atomic` or `tile.print` (the per-block partial of a
    global sum, the absmax of a scale). Elements that the fragment's layout
    replicates over threads count once.

    `across cluster` reduces over the fragments of every block of the
    kernel's thread-block cluster (`cluster [...]`): the result is the same
    in every thread of the cluster. A row too long for one block's
    registers is held by the blocks of a cluster, each reading its part
    once, and their maxima and sums combine through each other's shared
    memory (on sm_90a: one value a block in shared memory, the cluster's
    barrier, each thread reading every block's value, the barrier again).

    Constraints:
    - reduction_c1: the result has the source's element type, f32 (or
      the same type parameter, bound to f32).
    - reduction_c2: `across cluster` in a kernel launched in clusters, in
      its body (not in a branch or a loop, so that every block of the
      cluster reaches it).

    Example:
    ```mlir
    %total = tile.reduction sum %x : !tile.fragment<4x1024xf32> -> f32
    %rowmax = tile.reduction max %chunk across cluster
    ```
  }];
  let arguments = (ins Tile_ReduceKind:$kind,
                       Arg<Tile_FragmentType, "", [MemRead]>:$source,
                       UnitAttr:$across_cluster);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $kind $source (`across` `cluster` $across_cluster^)? attr-dict
    custom<ReductionTypes>(ref($source), type($source), type($result))
  }];
  let hasVerifier = 1;
}

def Tile_ParallelOp : Tile_Op<"parallel", [AttrSizedOperandSegments,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "an element-wise computation over a tile's index space";
  let description = [{
    Runs its body once for every index of the output tiles' shape
    (`T.Parallel`), in no particular order. Each operand is read at the index
    given by its indexing map (an affine map from the iteration space, which
    may drop dimensions to broadcast); the body receives the element values of
    the inputs then of the outputs, and yields the new values of the outputs.
    Elements of 8-bit floats (f8E4M3FN, f8E5M2) are only moved and converted
    in a body, `arith.extf` out of them and `arith.truncf` into them (as
    tile.copy converts); the sm_90a lowering refuses arithmetic on them.

    Constraints:
    - parallel_c1: there is at least one output, and all outputs have the
      same shape; it is the iteration space.
    - parallel_c2: one indexing map per operand, each with as many dimensions
      as the iteration space and as many results as its operand's rank; output
      maps are the identity; an input read at an iteration dimension has the
      space's size there.
    - parallel_c3: the body's arguments have the operands' element types, and
      it yields one value of each output's element type.

    The custom form names each operand's element beside it
    (`%x = %acc`, as `scf.for` names its iteration arguments) and gives
    the maps as the iteration dimensions each input is read at: none for
    the identity, `[1]` for `(i, j) -> (j)` (a bias broadcast over the
    rows). Maps of other shapes, and the body's block header, may be given
    in full instead (`attributes {indexing_maps = [...]}` and `^bb0(...)`),
    as the generic form prints them.

    The operands' types may be left out when each is a kernel argument or
    a tile allocated before (see tile.kernel), and a body that does not end
    with `tile.yield` yields the results of its last op:
    `tile.parallel ins(%a = %alpha[0]) outs(%x = %o) { arith.mulf %x, %a : f32 }`.

    Example:
    ```mlir
    tile.parallel ins(%x = %acc, %b = %bias[1] : !tile.fragment<128x128xf32>,
        !tile.fragment<128xf32>) outs(%o = %acc : !tile.fragment<128x128xf32>) {
      %y = arith.addf %x, %b : f32
      tile.yield %y : f32
    }
    ```
  }];
  let arguments = (ins Arg<Variadic<Tile_AnyTile>, "", [MemRead]>:$inputs,
                       Arg<Variadic<Tile_AnyTile>, "", [MemRead, MemWrite]>:$outputs,
                       AffineMapArrayAttr:$indexing_maps);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// How input `i` is read: -1 when its indexing map is the identity, d
    /// when the map is the identity without iteration dimension d (the input
    /// is broadcast along d), failure for any other map.
    ::mlir::FailureOr<int64_t> getBroadcastDim(unsigned i);
  }];
}

def Tile_PipelinedOp : Tile_Op<"pipelined", [AttrSizedOperandSegments,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a serial loop whose copies overlap its compute";
  let description = [{
    Runs its body for `%iv` from `lower` to `upper` by `step`, in order
    (`T.Pipelined`). The global-to-shared copies of iteration `i + s` are issued
    while iteration `i` computes, for up to `num_stages` iterations in flight,
    so each shared tile written by such a copy has `num_stages` copies.
    The semantics are those of the plain loop.

    `warp_specialize 1` (or a boolean parameter) is a schedule choice: the
    block gains a producer warpgroup that only issues the loop's
    global-to-shared copies, while the kernel's `threads` only compute; a
    ring of full and empty barriers replaces the block's synchronisation
    at every iteration, and registers move from the producer to the
    consumers. `threads` stays the number of computing threads (layouts and
    warpgroup counts follow it); the launched block has 128 more. The
    loop's bounds and copy offsets must then be computed from kernel
    arguments, block ids and constants, since the producer computes them
    apart from the body.

    `tile.pipelined %k to %kt ...` leaves out the lower bound and the
    step: the loop runs from 0 by 1 (tile-expand-shorthands writes the
    constants).

    Constraints:
    - pipelined_c1: `num_stages` is 1 to 64.
    - pipelined_c2: a constant `step` is positive.
    - pipelined_c3: a constant `warp_specialize` is 0, 1, false or true.
    - pipelined_c4: the lower bound and the step are both given or both
      left out.
    - pipelined_c5: the body takes turns (`tile.turn`) with one take and
      one pass of the same flag, or has no `tile.turn`.

    Example:
    ```mlir
    tile.pipelined %k = %c0 to %kt step %c1 num_stages 3 warp_specialize WS {
      ...
    }
    ```
  }];
  let arguments = (ins Optional<Index>:$lower, Index:$upper,
                       Optional<Index>:$step, Tile_SizeAttr:$num_stages,
                       OptionalAttr<Tile_SizeAttr>:$warp_specialize);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Value getInductionVar() { return getBody().getArgument(0); }
    /// The stage count of a specialised kernel.
    int64_t getStageCount();
    /// Whether a specialised kernel runs this loop on a producer warpgroup.
    bool isWarpSpecialized();
    /// pipelined_c5.
    ::llvm::LogicalResult verifyTurns();
  }];
}

#endif // TILE_DIALECT_TILE_IR_TILEOPS_TD
