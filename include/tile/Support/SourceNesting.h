//===- SourceNesting.h - A bound on how deeply a source may nest -*- C++
//-*-===//
//
// MLIR's parser, verifier and printer recurse once per nested region, block,
// attribute, type or bracket, so a source nested a few thousand levels deep
// overflows the stack of whoever parses it (tile-opt, or a program calling
// the C API or the Python package). Every tile entry point that parses text
// first checks it against a documented bound and reports an error at the
// bracket that crosses it instead.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_SOURCENESTING_H
#define TILE_SUPPORT_SOURCENESTING_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>

namespace llvm {
class MemoryBuffer;
} // namespace llvm

namespace mlir {
class MLIRContext;

namespace tile {

/// The deepest bracket nesting ({, [, ( and <, counted together) a source may
/// have. Real kernels nest about ten deep; the parser overflows an 8 MiB
/// stack at a few thousand, and under a sanitizer at far fewer.
inline constexpr unsigned kMaxSourceNesting = 256;

/// Returns the byte offset of the first opening bracket of `source` that
/// nests deeper than `limit`, or nothing. Brackets in string literals and
/// `//` comments do not count, nor does the `>` of `->` and `>=`.
std::optional<size_t> findNestingOverflow(llvm::StringRef source,
                                          unsigned limit = kMaxSourceNesting);

/// Fails with an error at the offending bracket (through `context`'s
/// diagnostic engine) when `buffer` nests deeper than kMaxSourceNesting.
LogicalResult checkSourceNesting(const llvm::MemoryBuffer &buffer,
                                 MLIRContext *context);

/// Parses `source` (named `name` in diagnostics) into a module after
/// checking its nesting; null after an error.
OwningOpRef<ModuleOp> parseModule(llvm::StringRef source, MLIRContext *context,
                                  llvm::StringRef name = "<source>");

/// Reads and parses the file at `path` the same way; null after an error
/// (a missing file is one).
OwningOpRef<ModuleOp> parseModuleFile(llvm::StringRef path,
                                      MLIRContext *context);

} // namespace tile
} // namespace mlir

#endif // TILE_SUPPORT_SOURCENESTING_H
