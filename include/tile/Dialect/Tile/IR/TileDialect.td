//===- TileDialect.td - The tile dialect -------------------*- tablegen -*-===//
//
// Tile-level GPU kernels: a kernel author writes tile operations (copy a tile,
// multiply tiles on tensor cores, reduce a tile, loop over K with N pipeline
// stages) and the compiler maps them to threads, layouts and instructions.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEDIALECT_TD
#define TILE_DIALECT_TILE_IR_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Tile-level GPU kernels: tiles in shared memory and registers, "
                "and the operations that move and combine them";
  let description = [{
    The `tile` dialect describes a GPU kernel at the level of tiles, in the
    vocabulary of TileLang. A `tile.kernel` is a launch frame over a grid of
    thread blocks. Inside it, `tile.alloc_shared` and `tile.alloc_fragment`
    create tiles in shared memory and in the block's registers;
    `tile.copy`, `tile.gemm`, `tile.reduce`, `tile.fill` and `tile.parallel`
    operate on whole tiles; `tile.pipelined` is a serial loop whose copies are
    overlapped with its compute, `num_stages` deep. Thread mapping, layouts,
    synchronisation and instruction selection are the compiler's job.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_TD
