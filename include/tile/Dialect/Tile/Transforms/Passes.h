//===- Passes.h - Tile transformations --------------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace tile {
class KernelOp;

/// Produces kernel `name` from parametric kernel `generic` with `bindings`
/// (every parameter bound, as resolveBindings returns them): a copy inserted
/// before `origin`, with the parameters replaced by their values, the
/// arithmetic on them folded and the allocations static, then verified.
/// Errors carry a note at `origin` naming the bindings.
FailureOr<KernelOp> specializeKernel(KernelOp generic, DictionaryAttr bindings,
                                     StringRef name, Operation *origin);

#define GEN_PASS_DECL
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_H
