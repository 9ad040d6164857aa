//===- Cache.h - C API: the on-disk cache of compiled and tuned kernels -*- C
//-*-===//
//
// Entries of a kind ("compile", "tune", ...) keyed by named components (the
// key is their SHA-256); each holds a JSON record and named blobs. Writes
// are atomic; a corrupted or stale entry is reported, removed and rewritten
// by the next store. Layout and rules: docs/Tuning.md.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_C_CACHE_H
#define TILE_C_CACHE_H

#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One thing the answer depends on.
typedef struct MlirTileCacheComponent {
  MlirStringRef name;
  MlirStringRef value;
} MlirTileCacheComponent;

/// A named piece of binary data kept with an entry.
typedef struct MlirTileCacheBlob {
  MlirStringRef name;
  MlirStringRef data;
} MlirTileCacheBlob;

/// $TILE_MLIR_CACHE_DIR, else $XDG_CACHE_HOME/tile-mlir, else
/// $HOME/.cache/tile-mlir (empty when none is set).
MLIR_CAPI_EXPORTED void
mlirTileCacheGetDefaultDirectory(MlirStringCallback callback, void *userData);

/// The compiler's identity for keys: versions and a hash of its build.
MLIR_CAPI_EXPORTED void
mlirTileCacheGetCompilerBuildId(MlirStringCallback callback, void *userData);

/// The key (64 hex digits) of `components` for entries of `kind`.
MLIR_CAPI_EXPORTED void mlirTileCacheComputeKey(
    MlirStringRef kind, const MlirTileCacheComponent *components,
    size_t numComponents, MlirStringCallback callback, void *userData);

/// Writes (atomically, replacing any) the entry of `components`: `record`
/// is JSON text (its "summary" string is what listings show) and `blobs`
/// the data kept with it. On failure, `errorCallback` says why.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirTileCacheStore(
    MlirStringRef directory, MlirStringRef kind,
    const MlirTileCacheComponent *components, size_t numComponents,
    MlirStringRef record, const MlirTileCacheBlob *blobs, size_t numBlobs,
    MlirStringCallback errorCallback, void *userData);

typedef enum MlirTileCacheResult {
  MlirTileCacheMiss = 0,
  MlirTileCacheHit = 1,
  /// The entry was unreadable or stale: `messageCallback` says why, and it
  /// is removed (the caller recomputes and stores it again).
  MlirTileCacheCorrupt = 2,
} MlirTileCacheResult;

typedef void (*MlirTileCacheBlobCallback)(MlirStringRef name,
                                          MlirStringRef data, void *userData);

/// Reads the entry of `components`: on a hit, `recordCallback` receives the
/// record's JSON text and `blobCallback` each blob (the bytes live for the
/// call). Callbacks may be NULL.
MLIR_CAPI_EXPORTED MlirTileCacheResult mlirTileCacheLoad(
    MlirStringRef directory, MlirStringRef kind,
    const MlirTileCacheComponent *components, size_t numComponents,
    MlirStringCallback recordCallback, MlirTileCacheBlobCallback blobCallback,
    MlirStringCallback messageCallback, void *userData);

/// One entry of a listing.
typedef struct MlirTileCacheListing {
  MlirStringRef kind, key, path;
  /// The record's summary, or why the entry is unreadable.
  MlirStringRef summary;
  uint64_t bytes;
  int valid;
} MlirTileCacheListing;

typedef void (*MlirTileCacheListCallback)(const MlirTileCacheListing *entry,
                                          void *userData);

/// Calls `callback` for every entry under `directory`, sorted by path.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirTileCacheList(MlirStringRef directory, MlirTileCacheListCallback callback,
                  MlirStringCallback errorCallback, void *userData);

/// Removes every entry under `directory`; returns how many, or -1 after
/// `errorCallback` says why not.
MLIR_CAPI_EXPORTED int64_t mlirTileCacheClear(MlirStringRef directory,
                                              MlirStringCallback errorCallback,
                                              void *userData);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_CACHE_H
