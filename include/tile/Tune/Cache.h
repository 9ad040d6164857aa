//===- Cache.h - The on-disk cache of compiled and tuned kernels -*- C++
//-*-===//
//
// One file per entry, `<dir>/v1/<kind>/<key[0:2]>/<key>.json`: the key's
// components, a JSON record (timings, the best configuration), and named
// blobs (a cubin, its kernel info) with their SHA-256. The key is the
// SHA-256 of the kind and every component, so anything that changes the
// answer (source, bindings, shapes, GPU, driver, compiler build) changes
// the file. Writes go to a temporary file renamed over the entry once
// complete, so a reader or a concurrent writer never sees half an entry and
// a failed write leaves none; an entry that does not parse or check is
// reported, removed and rewritten by the next store.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TUNE_CACHE_H
#define TILE_TUNE_CACHE_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir::tile::cache {

/// One thing the answer depends on, `name` = `value`.
struct Component {
  std::string name, value;
};

/// A named piece of binary data kept with an entry.
struct Blob {
  std::string name, data;
};

/// What an entry holds.
struct Entry {
  llvm::json::Value record = nullptr;
  std::vector<Blob> blobs;
};

/// The cache directory: $TILE_MLIR_CACHE_DIR, else $XDG_CACHE_HOME/tile-mlir,
/// else $HOME/.cache/tile-mlir (empty when none of them is set). Whoever may
/// write it decides what a hit launches (an entry is checked for integrity,
/// not for who wrote it); store() creates it private to the user.
std::string getDefaultDirectory();

/// The compiler's identity for keys: LLVM's version, the BLAKE3 of the
/// library this code is in (any rebuild changes it) and the ptxas the NVVM
/// target runs (its path, size and time).
std::string getCompilerBuildId();

/// The key (64 hex digits) of `components` for entries of `kind`; the
/// order of the components does not matter.
std::string computeKey(StringRef kind, ArrayRef<Component> components);

/// The path of an entry.
std::string getEntryPath(StringRef dir, StringRef kind, StringRef key);

enum class LoadResult { Miss, Hit, Corrupt };

/// Reads the entry of `components`. On Corrupt (it does not parse, a blob
/// does not match its digest, or its components differ), the file is
/// removed and `message` says why.
LoadResult load(StringRef dir, StringRef kind, ArrayRef<Component> components,
                Entry &entry, std::string &message);

/// Writes the entry of `components` atomically (replacing any): a temporary
/// file renamed over the entry once complete. On failure (a full file
/// system, a file-size limit, no permission) nothing is left at the entry's
/// path and `error` says why. Creates `dir` with mode 0700 where it does not
/// exist, and the directories below it with `dir`'s mode.
LogicalResult store(StringRef dir, StringRef kind,
                    ArrayRef<Component> components,
                    const llvm::json::Value &record, ArrayRef<Blob> blobs,
                    std::string &error);

/// One entry found by list().
struct Listing {
  std::string kind, key, path;
  uint64_t bytes = 0;
  /// The record's "summary" string, or why the entry is unreadable.
  std::string summary;
  bool valid = false;
};

/// Calls `fn` for every entry file under `dir`, sorted by path: the regular
/// files named `<key>.json` in `v1/<kind>/<key[0:2]>/`. Fails, naming it,
/// where the tree holds a symbolic link (never followed).
LogicalResult list(StringRef dir, function_ref<void(const Listing &)> fn,
                   std::string &error);

/// Removes the entry files list() finds (and writers' temporary files left
/// beside them), then the directories of the tree left empty; returns how
/// many entries. Anything else in the tree stays. Refuses, removing
/// nothing, where the tree holds a symbolic link: a link is never followed.
FailureOr<int64_t> clear(StringRef dir, std::string &error);

} // namespace mlir::tile::cache

#endif // TILE_TUNE_CACHE_H
