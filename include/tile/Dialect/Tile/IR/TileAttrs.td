//===- TileAttrs.td - Fragment layouts ---------------------*- tablegen -*-===//
//
// A fragment layout says which thread of the block holds which element of a
// register tile. Each layout is separable: along every dimension, an
// element's coordinate is a function of the thread plus a function of the
// register that holds it (include/tile/Dialect/Tile/IR/RegisterLayout.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEATTRS_TD
#define TILE_DIALECT_TILE_IR_TILEATTRS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tile_MmaLayoutAttr : Tile_Attr<"MmaLayout", "mma"> {
  let summary = "the warpgroup-MMA accumulator layout";
  let description = [{
    The layout of a `tile.gemm` accumulator on sm_90a (PTX ISA 9.7.15.5.1,
    "Register Fragments", D). The rows are split evenly between
    `warpgroups` warpgroups in 64-row tiles; in each, register i of lane l of
    warp w holds row `16w + l/4 + 8((i/2) mod 2)` and column
    `8(i/4) + 2(l mod 4) + i mod 2`.

    Example: `#tile.mma<warpgroups = 2>`
  }];
  let parameters = (ins "int64_t":$warpgroups);
  let assemblyFormat = "`<` `warpgroups` `=` $warpgroups `>`";
}

def Tile_BlockedLayoutAttr : Tile_Attr<"BlockedLayout", "blocked"> {
  let summary = "a row-major blocked layout for element-wise work";
  let description = [{
    Each thread holds runs of `vector` consecutive elements of the last
    dimension; the lanes of a warp form a `lanes[0]` x `lanes[1]` grid and
    the warps of the block a `warps[0]` x `warps[1]` grid, rows first; the
    pattern repeats over the tile. Global loads and stores of such a
    fragment are `vector` elements wide.

    Example: `#tile.blocked<vector = 8, lanes = [1, 32], warps = [8, 1]>`
  }];
  let parameters = (ins "int64_t":$vector,
                        ArrayRefParameter<"int64_t">:$lanes,
                        ArrayRefParameter<"int64_t">:$warps);
  let assemblyFormat = [{
    `<` `vector` `=` $vector `,` `lanes` `=` `[` $lanes `]` `,`
    `warps` `=` `[` $warps `]` `>`
  }];
}

def Tile_SliceLayoutAttr : Tile_Attr<"SliceLayout", "slice"> {
  let summary = "a parent layout with one dimension removed";
  let description = [{
    The layout of a fragment that is a parent-layout fragment with dimension
    `dim` removed (the result of `tile.reduce` along `dim`, or an operand of
    `tile.parallel` broadcast along it): each thread holds the elements at
    the coordinates it holds in the parent, replicated over the threads
    that differ only along `dim`.

    Example: `#tile.slice<dim = 1, parent = #tile.mma<warpgroups = 1>>`
  }];
  let parameters = (ins "int64_t":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `dim` `=` $dim `,` `parent` `=` $parent `>`";
}

def Tile_ParamRefAttr : Tile_Attr<"ParamRef", "param"> {
  let summary = "an integer parameter of a parametric kernel";
  let description = [{
    Stands for the value bound to the integer parameter `name` of the
    enclosing `tile.kernel`, where an attribute holds a size: a grid tile,
    `threads`, `num_stages`, `min_blocks_per_sm`, a contract's bound. The
    custom forms of `tile.kernel` and `tile.pipelined` print it as the bare
    name. `tile-specialize` replaces it by the bound integer.

    Example: `#tile.param<"STAGES">`
  }];
  let parameters = (ins StringRefParameter<>:$name);
  let assemblyFormat = "`<` $name `>`";
}

def Tile_ContractAttr : Tile_Attr<"Contract", "contract"> {
  let summary = "a relation between expressions over argument dimensions";
  let description = [{
    States `lhs relation rhs`, the two results of `sides` (a map of no
    dimensions whose symbols are the `operands`), with `relation` one of
    `eq`, `ne`, `le`, `ge`, `lt`, `gt`. Operand i gives symbol i: a
    dimension of a memref argument (`array<i64: arg, dim>`), an integer
    parameter (`#tile.param`) or, once bound, an integer. The expressions
    take `+ - * floordiv ceildiv mod`; a division by a value that is not
    positive makes the contract fail. The runtime checks every contract
    before a launch. `tile.kernel` prints it as `%A[1] == %B[0]`,
    `%X[1] <= 2 * BN` or `%Q[1] mod %K[1] == 0`.
  }];
  let parameters = (ins StringRefParameter<>:$relation, "::mlir::AffineMap":$sides,
                        "::mlir::ArrayAttr":$operands);
  let assemblyFormat = "`<` $relation `,` $sides `,` $operands `>`";
  let extraClassDeclaration = [{
    /// The relation (the kernel verifier checks its name).
    ::mlir::tile::Relation getRelationKind();
    /// `(arg, dim)` when operand `i` is a dimension of a memref argument.
    std::optional<std::pair<int64_t, int64_t>> getArgDim(unsigned i);
    /// The values of both sides, `value(i)` giving the dimension or the
    /// parameter that operand i names (integer operands are their value);
    /// std::nullopt when a value is missing, the arithmetic overflows or a
    /// divisor is not positive.
    std::optional<std::pair<int64_t, int64_t>> evaluate(
        ::llvm::function_ref<std::optional<int64_t>(unsigned)> value);
    /// Prints `%A[1] mod %B[0] == 0`: `printArg` prints argument `arg`
    /// (`%A`), parameters print by name.
    void print(::llvm::raw_ostream &os,
        ::llvm::function_ref<void(::llvm::raw_ostream &, int64_t)> printArg);
    /// The contract with its integer operands (bound parameters) folded
    /// into its sides, and the sides simplified; a null attribute after
    /// saying in `why` what is wrong: the folded integers pass 64 bits, or
    /// a divisor is not positive.
    ContractAttr foldIntegerOperands(std::string &why);
    /// Prints operand `i` as `print` does.
    void printOperand(::llvm::raw_ostream &os, unsigned i,
        ::llvm::function_ref<void(::llvm::raw_ostream &, int64_t)> printArg);
  }];
}

#endif // TILE_DIALECT_TILE_IR_TILEATTRS_TD
