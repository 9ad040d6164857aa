//===- InitAll.h - Register everything tile tools need ----------*- C++ -*-===//

#ifndef TILE_INITALL_H
#define TILE_INITALL_H

namespace mlir {
class DialectRegistry;
namespace tile {

/// Adds the tile dialect, the upstream dialects its pipelines produce, their
/// extensions and their LLVM IR translations to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Registers the tile passes and pipelines and the upstream passes the
/// pipelines use (so that `tile-opt` can run them one by one).
void registerAllPasses();

} // namespace tile
} // namespace mlir

#endif // TILE_INITALL_H
