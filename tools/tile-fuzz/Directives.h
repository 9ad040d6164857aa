//===- Directives.h - tile-fuzz's compile options inside an input -*- C++
//-*-===//
//
// An input may carry compile options as comment lines, which the MLIR
// parser skips:
//
//   // tile-fuzz: bind NAME=VALUE     a binding, as tile-opt's bind= and
//                                     Python's params= pass it
//   // tile-fuzz: kernels NAME        compile only this kernel or instance
//   // tile-fuzz: format ptx          go on down to PTX (NVPTX's isel)
//
// so that a seed or a mutation reaches the pipeline the way a user's call
// does, and a finding replays from its file alone.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_FUZZ_DIRECTIVES_H
#define TILE_TOOLS_TILE_FUZZ_DIRECTIVES_H

#include "tile/Pipelines/Pipelines.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tile::fuzz {

/// The prefix of a directive line.
inline constexpr llvm::StringLiteral kDirective = "// tile-fuzz:";

/// Sets `options` and `format` from the directive lines of `input`;
/// anything else on those lines is ignored.
void readDirectives(llvm::StringRef input, TileToBinaryOptions &options,
                    BinaryFormat &format);

} // namespace mlir::tile::fuzz

#endif // TILE_TOOLS_TILE_FUZZ_DIRECTIVES_H
