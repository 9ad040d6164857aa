//===- TileTypes.td - Types of the tile dialect ------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILETYPES_TD
#define TILE_DIALECT_TILE_IR_TILETYPES_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/IR/BuiltinTypes.td"

class Tile_TileType<string name, string typeMnemonic>
    : TypeDef<Tile_Dialect, name, [ShapedTypeInterface]> {
  let mnemonic = typeMnemonic;
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let assemblyFormat = "`<` custom<TileShape>($shape, $elementType) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// ShapedTypeInterface: a tile has a rank; its dimensions are static
    /// except in a parametric kernel, where `?` stands for a size given to
    /// the allocation and fixed by `tile-specialize`.
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const {
      return get(getContext(), shape ? *shape : getShape(), elementType);
    }
    /// Number of elements of the tile.
    int64_t getNumElements() const { return ::mlir::ShapedType::getNumElements(getShape()); }
  }];
}

def Tile_SharedType : Tile_TileType<"Shared", "shared"> {
  let summary = "a tile in the thread block's shared memory";
  let description = [{
    A statically shaped tile held once per thread block in shared memory, for
    example `!tile.shared<128x64xf16>`. Its physical layout (swizzle, panels,
    pipeline stage copies) is chosen by the lowering for the ops that use it.
  }];
}

def Tile_FragmentType : Tile_TileType<"Fragment", "fragment"> {
  let summary = "a tile spread over the registers of the block's threads";
  let description = [{
    A statically shaped tile whose elements live in registers, each element
    owned by one thread of the block, for example
    `!tile.fragment<128x128xf32>`. Which thread holds which element is the
    fragment's layout, fixed by the op that produces it (the `tile.gemm`
    accumulator takes the tensor-core result layout).
  }];
}

def Tile_ParamType : TypeDef<Tile_Dialect, "Param",
    [MemRefElementTypeInterface]> {
  let mnemonic = "param";
  let summary = "a type parameter of a parametric kernel";
  let description = [{
    Stands for the type bound to the parameter `name` of the enclosing
    `tile.kernel` (one declared in its `params` with a type default), for
    example `memref<?x?x!tile.param<"T">>` or `!tile.shared<?x?x!tile.param<"T">>`.
    `tile-specialize` replaces it everywhere in the kernel by the bound type.
  }];
  let parameters = (ins StringRefParameter<>:$name);
  let assemblyFormat = "`<` $name `>`";
}

def Tile_AnyTile : AnyTypeOf<[Tile_SharedType, Tile_FragmentType]>;

#endif // TILE_DIALECT_TILE_IR_TILETYPES_TD
