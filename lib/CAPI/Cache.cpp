//===- Cache.cpp - C API: the on-disk cache -----------------------------===//

#include "tile-c/Cache.h"
#include "tile/Tune/Cache.h"

#include "mlir/CAPI/Support.h"

using namespace mlir;
using namespace mlir::tile;

static std::vector<cache::Component>
unwrapComponents(const MlirTileCacheComponent *components, size_t n) {
  std::vector<cache::Component> out;
  for (size_t i = 0; i < n; ++i)
    out.push_back(
        {unwrap(components[i].name).str(), unwrap(components[i].value).str()});
  return out;
}

static void say(MlirStringCallback callback, StringRef text, void *userData) {
  if (callback)
    callback(wrap(text), userData);
}

void mlirTileCacheGetDefaultDirectory(MlirStringCallback callback,
                                      void *userData) {
  say(callback, cache::getDefaultDirectory(), userData);
}

void mlirTileCacheGetCompilerBuildId(MlirStringCallback callback,
                                     void *userData) {
  say(callback, cache::getCompilerBuildId(), userData);
}

void mlirTileCacheComputeKey(MlirStringRef kind,
                             const MlirTileCacheComponent *components,
                             size_t numComponents, MlirStringCallback callback,
                             void *userData) {
  say(callback,
      cache::computeKey(unwrap(kind),
                        unwrapComponents(components, numComponents)),
      userData);
}

MlirLogicalResult
mlirTileCacheStore(MlirStringRef directory, MlirStringRef kind,
                   const MlirTileCacheComponent *components,
                   size_t numComponents, MlirStringRef record,
                   const MlirTileCacheBlob *blobs, size_t numBlobs,
                   MlirStringCallback errorCallback, void *userData) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(unwrap(record));
  if (!parsed) {
    say(errorCallback,
        "the record is not JSON: " + llvm::toString(parsed.takeError()),
        userData);
    return mlirLogicalResultFailure();
  }
  std::vector<cache::Blob> data;
  for (size_t i = 0; i < numBlobs; ++i)
    data.push_back({unwrap(blobs[i].name).str(), unwrap(blobs[i].data).str()});
  std::string error;
  if (failed(cache::store(unwrap(directory), unwrap(kind),
                          unwrapComponents(components, numComponents), *parsed,
                          data, error))) {
    say(errorCallback, error, userData);
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

MlirTileCacheResult
mlirTileCacheLoad(MlirStringRef directory, MlirStringRef kind,
                  const MlirTileCacheComponent *components,
                  size_t numComponents, MlirStringCallback recordCallback,
                  MlirTileCacheBlobCallback blobCallback,
                  MlirStringCallback messageCallback, void *userData) {
  cache::Entry entry;
  std::string message;
  switch (cache::load(unwrap(directory), unwrap(kind),
                      unwrapComponents(components, numComponents), entry,
                      message)) {
  case cache::LoadResult::Miss:
    return MlirTileCacheMiss;
  case cache::LoadResult::Corrupt:
    say(messageCallback, message, userData);
    return MlirTileCacheCorrupt;
  case cache::LoadResult::Hit:
    break;
  }
  std::string record;
  llvm::raw_string_ostream os(record);
  os << entry.record;
  say(recordCallback, record, userData);
  if (blobCallback)
    for (const cache::Blob &b : entry.blobs)
      blobCallback(wrap(StringRef(b.name)), wrap(StringRef(b.data)), userData);
  return MlirTileCacheHit;
}

MlirLogicalResult mlirTileCacheList(MlirStringRef directory,
                                    MlirTileCacheListCallback callback,
                                    MlirStringCallback errorCallback,
                                    void *userData) {
  std::string error;
  LogicalResult result = cache::list(
      unwrap(directory),
      [&](const cache::Listing &l) {
        MlirTileCacheListing out{wrap(StringRef(l.kind)),
                                 wrap(StringRef(l.key)),
                                 wrap(StringRef(l.path)),
                                 wrap(StringRef(l.summary)),
                                 l.bytes,
                                 l.valid ? 1 : 0};
        if (callback)
          callback(&out, userData);
      },
      error);
  if (failed(result))
    say(errorCallback, error, userData);
  return wrap(result);
}

int64_t mlirTileCacheClear(MlirStringRef directory,
                           MlirStringCallback errorCallback, void *userData) {
  std::string error;
  FailureOr<int64_t> removed = cache::clear(unwrap(directory), error);
  if (failed(removed)) {
    say(errorCallback, error, userData);
    return -1;
  }
  return *removed;
}
