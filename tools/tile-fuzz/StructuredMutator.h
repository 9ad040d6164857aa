//===- StructuredMutator.h - tile-fuzz's mutations that know the IR -*- C++
//-*-===//
//
// Byte mutations almost never produce a well-formed binding or a region
// that uses a value from outside its parallel. These mutations do, on the
// input's text:
//
// - bind a parameter of one of the input's kernels to a hostile value
//   (a type that is not a scalar, a size that is zero, negative, huge or
//   not a power of two, a value of the wrong kind), through an appended
//   `tile.instance` or a `// tile-fuzz: bind` directive;
// - drop a parameter's candidate list from its kernel's `space`;
// - wrap the result of an element-wise body (`tile.yield %v : f32`) in an
//   `scf.if` whose regions read an f32 constant of the kernel.
//
// test/Fuzz/structured_seeds.py writes seeds of the same three kinds; its
// hostile lists are these.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_FUZZ_STRUCTUREDMUTATOR_H
#define TILE_TOOLS_TILE_FUZZ_STRUCTUREDMUTATOR_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <random>
#include <string>

namespace mlir::tile::fuzz {

/// `text` changed by one of the mutations above, picked with `rng`, or
/// nullopt when the one picked does not apply (no parameter, no space, no
/// element-wise body).
std::optional<std::string> mutateStructured(llvm::StringRef text,
                                            std::mt19937 &rng);

} // namespace mlir::tile::fuzz

#endif // TILE_TOOLS_TILE_FUZZ_STRUCTUREDMUTATOR_H
