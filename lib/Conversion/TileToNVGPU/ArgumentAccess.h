//===- ArgumentAccess.h - What a kernel does to its arguments -*- C++ -*-===//
//
// The kernel info says of each memref argument whether the kernel reads it,
// writes it or both (docs/KernelABI.md, `access` lines), so that a caller
// (a framework's custom op) can allocate the outputs and declare the
// arguments a launch mutates. The answer comes from the tile IR's declared
// memory effects, before any lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETONVGPU_ARGUMENTACCESS_H
#define TILE_LIB_CONVERSION_TILETONVGPU_ARGUMENTACCESS_H

#include "tile/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tile {

/// What a kernel may do to the memory of an argument: a set of flags.
enum class ArgumentAccess : unsigned {
  None = 0,
  Read = 1,
  Write = 2,
  ReadWrite = 3,
};

/// The access of each argument of `kernel`, in order (None for scalars).
/// An op that uses a memref argument, or a value that may alias it (a view,
/// a value forwarded through a region or a branch), reads or writes it as
/// its MemoryEffectOpInterface says; an op whose effects are unknown counts
/// as reading and writing it.
SmallVector<ArgumentAccess> getArgumentAccess(KernelOp kernel);

/// The word of an `access` line: "read", "write" or "readwrite". An
/// argument the kernel never touches is "read": it is no output.
StringRef getAccessName(ArgumentAccess access);

} // namespace mlir::tile

#endif // TILE_LIB_CONVERSION_TILETONVGPU_ARGUMENTACCESS_H
