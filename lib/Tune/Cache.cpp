//===- Cache.cpp - The on-disk cache of compiled and tuned kernels ------===//
//
// Entries are JSON files written to a temporary file renamed over the entry
// once complete, keyed and checked with LLVM's SHA-256 and
// BLAKE3; blobs travel as base64.
//
//===----------------------------------------------------------------------===//

#include "tile/Tune/Cache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::cache;
namespace json = llvm::json;

/// The entry format; a change makes a new tree beside the old one.
static constexpr int kFormat = 1;
static constexpr StringLiteral kTree = "v1";
/// Component values longer than this are kept in an entry as their digest.
static constexpr size_t kLongValue = 256;
/// What a temporary file's name adds to its entry's until it is renamed.
static constexpr StringLiteral kTempSuffix = ".tmp-";

static std::string sha256Hex(StringRef data) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(data)),
                     /*LowerCase=*/true);
}

std::string cache::getDefaultDirectory() {
  SmallString<256> dir;
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("TILE_MLIR_CACHE_DIR");
      env && !env->empty())
    return *env;
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && !xdg->empty()) {
    dir = *xdg;
  } else if (std::optional<std::string> home =
                 llvm::sys::Process::GetEnv("HOME");
             home && !home->empty()) {
    dir = *home;
    llvm::sys::path::append(dir, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(dir, "tile-mlir");
  return std::string(dir);
}

/// The ptxas the NVVM target runs (the toolkit's, else the PATH's), as
/// `path size mtime`: a toolkit update changes the cubins.
static std::string ptxasIdentity() {
  llvm::ErrorOr<std::string> path =
      llvm::sys::findProgramByName("ptxas", {"/usr/local/cuda/bin"});
  if (!path)
    path = llvm::sys::findProgramByName("ptxas");
  llvm::sys::fs::file_status st;
  if (!path || llvm::sys::fs::status(*path, st))
    return "none";
  return *path + " " + std::to_string(st.getSize()) + " " +
         std::to_string(llvm::sys::toTimeT(st.getLastModificationTime()));
}

std::string cache::getCompilerBuildId() {
  static const std::string id = [] {
    std::string build = "unknown";
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&cache::getCompilerBuildId), &info) &&
        info.dli_fname) {
      if (auto file = llvm::MemoryBuffer::getFile(info.dli_fname))
        build = llvm::toHex(
            llvm::BLAKE3::hash(
                llvm::arrayRefFromStringRef((*file)->getBuffer())),
            /*LowerCase=*/true);
    }
    return "tile-mlir llvm " LLVM_VERSION_STRING " build " + build +
           " ptxas " + ptxasIdentity();
  }();
  return id;
}

/// The components sorted by name, long values replaced by their digest:
/// what an entry stores and compares.
static std::vector<Component> canonical(ArrayRef<Component> components) {
  std::vector<Component> sorted(components.begin(), components.end());
  llvm::sort(sorted, [](const Component &a, const Component &b) {
    return std::tie(a.name, a.value) < std::tie(b.name, b.value);
  });
  for (Component &c : sorted)
    if (c.value.size() > kLongValue)
      c.value = "sha256:" + sha256Hex(c.value);
  return sorted;
}

/// The key of components already made canonical.
static std::string keyOf(StringRef kind, ArrayRef<Component> canon) {
  // Length-prefixed, so no choice of names and values can collide.
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "tile-mlir-cache " << kFormat << '\n'
     << kind.size() << ':' << kind << '\n';
  for (const Component &c : canon)
    os << c.name.size() << ':' << c.name << '=' << c.value.size() << ':'
       << c.value << '\n';
  return sha256Hex(text);
}

std::string cache::computeKey(StringRef kind,
                              ArrayRef<Component> components) {
  return keyOf(kind, canonical(components));
}

std::string cache::getEntryPath(StringRef dir, StringRef kind, StringRef key) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, kTree, kind, key.take_front(2),
                          key + ".json");
  return std::string(path);
}

/// Canonical components as an entry stores them.
static json::Object componentsObject(ArrayRef<Component> canon) {
  json::Object o;
  for (const Component &c : canon)
    o[c.name] = c.value;
  return o;
}

/// Checks a parsed entry against what was asked and extracts it; returns
/// why it does not match, or an empty string.
static std::string readEntry(const json::Value &v, StringRef kind,
                             StringRef key, ArrayRef<Component> canon,
                             Entry &entry) {
  const json::Object *o = v.getAsObject();
  if (!o)
    return "it is not a JSON object";
  if (o->getInteger("format") != kFormat)
    return "its format is not " + std::to_string(kFormat);
  if (o->getString("kind") != kind || o->getString("key") != key)
    return "its kind or key differs from its path";
  const json::Object *stored = o->getObject("components");
  if (!stored || json::Value(json::Object(*stored)) !=
                     json::Value(componentsObject(canon)))
    return "its components differ from the key's (a stale entry)";
  const json::Value *record = o->get("record");
  const json::Array *blobs = o->getArray("blobs");
  if (!record || !blobs)
    return "it has no record or no blobs";
  entry.record = *record;
  entry.blobs.clear();
  for (const json::Value &b : *blobs) {
    const json::Object *bo = b.getAsObject();
    std::optional<StringRef> name = bo ? bo->getString("name") : std::nullopt;
    std::optional<StringRef> digest =
        bo ? bo->getString("sha256") : std::nullopt;
    std::optional<StringRef> data = bo ? bo->getString("base64") : std::nullopt;
    if (!name || !digest || !data)
      return "a blob lacks its name, digest or data";
    std::vector<char> bytes;
    if (llvm::Error err = llvm::decodeBase64(*data, bytes)) {
      llvm::consumeError(std::move(err));
      return ("blob '" + *name + "' is not base64").str();
    }
    std::string blob(bytes.begin(), bytes.end());
    if (sha256Hex(blob) != *digest)
      return ("blob '" + *name + "' does not match its digest").str();
    entry.blobs.push_back({name->str(), std::move(blob)});
  }
  return "";
}

LoadResult cache::load(StringRef dir, StringRef kind,
                       ArrayRef<Component> components, Entry &entry,
                       std::string &message) {
  std::vector<Component> canon = canonical(components);
  std::string key = keyOf(kind, canon);
  std::string path = getEntryPath(dir, kind, key);
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return LoadResult::Miss;
  std::string why;
  llvm::Expected<json::Value> parsed = json::parse((*file)->getBuffer());
  if (!parsed)
    why = "it does not parse: " + llvm::toString(parsed.takeError());
  else
    why = readEntry(*parsed, kind, key, canon, entry);
  if (why.empty())
    return LoadResult::Hit;
  message = "cache entry " + path + " is ignored and removed: " + why;
  llvm::sys::fs::remove(path);
  return LoadResult::Corrupt;
}

/// Writes `entry` to a temporary file beside `path` and renames it over
/// `path` once every byte is written; on any failure (a full file system, a
/// file-size limit) removes the temporary file and says why, so that no
/// partial entry is left and nothing exits the process (a raw_fd_ostream
/// destroyed with an error pending would report a fatal error).
static LogicalResult writeAtomically(StringRef path, const json::Value &entry,
                                     std::string &error) {
  namespace fs = llvm::sys::fs;
  int fd = -1;
  SmallString<256> temp;
  if (std::error_code ec =
          fs::createUniqueFile(path + kTempSuffix + "%%%%%%%%", fd, temp)) {
    error = "cannot create a temporary file beside " + path.str() + ": " +
            ec.message();
    return failure();
  }
  std::error_code writeError;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << entry;
    os.close();
    writeError = os.error();
    os.clear_error();
  }
  if (!writeError)
    writeError = fs::rename(temp, path);
  if (writeError) {
    fs::remove(temp);
    error = "cannot write " + path.str() + ": " + writeError.message() +
            " (the entry is not kept)";
    return failure();
  }
  return success();
}

LogicalResult cache::store(StringRef dir, StringRef kind,
                           ArrayRef<Component> components,
                           const json::Value &record, ArrayRef<Blob> blobs,
                           std::string &error) {
  if (dir.empty()) {
    error = "no cache directory (set TILE_MLIR_CACHE_DIR or HOME)";
    return failure();
  }
  std::vector<Component> canon = canonical(components);
  std::string key = keyOf(kind, canon);
  std::string path = getEntryPath(dir, kind, key);
  if (std::error_code ec = llvm::sys::fs::create_directories(
          llvm::sys::path::parent_path(path))) {
    error = "cannot create the directory of " + path + ": " + ec.message();
    return failure();
  }
  json::Array blobArray;
  for (const Blob &b : blobs)
    blobArray.push_back(json::Object{{"name", b.name},
                                     {"sha256", sha256Hex(b.data)},
                                     {"base64", llvm::encodeBase64(b.data)}});
  json::Value entry = json::Object{{"format", kFormat},
                                   {"kind", kind},
                                   {"key", key},
                                   {"components", componentsObject(canon)},
                                   {"record", record},
                                   {"blobs", std::move(blobArray)}};
  return writeAtomically(path, entry, error);
}

LogicalResult cache::list(StringRef dir,
                          function_ref<void(const Listing &)> fn,
                          std::string &error) {
  SmallString<256> root(dir);
  llvm::sys::path::append(root, kTree);
  if (!llvm::sys::fs::is_directory(root))
    return success();
  std::vector<std::string> paths;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(root, ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".json")
      paths.push_back(it->path());
  if (ec) {
    error = "cannot list " + std::string(root) + ": " + ec.message();
    return failure();
  }
  llvm::sort(paths);
  for (const std::string &path : paths) {
    Listing l;
    l.path = path;
    l.key = llvm::sys::path::stem(path).str();
    // <root>/<kind>/<xx>/<key>.json
    l.kind = llvm::sys::path::filename(
                 llvm::sys::path::parent_path(
                     llvm::sys::path::parent_path(path)))
                 .str();
    auto file = llvm::MemoryBuffer::getFile(path);
    if (!file) {
      l.summary = "unreadable";
    } else {
      l.bytes = (*file)->getBufferSize();
      llvm::Expected<json::Value> v = json::parse((*file)->getBuffer());
      const json::Object *o = v ? v->getAsObject() : nullptr;
      const json::Object *record = o ? o->getObject("record") : nullptr;
      if (!v)
        llvm::consumeError(v.takeError());
      if (!o || o->getInteger("format") != kFormat) {
        l.summary = "corrupt (does not parse)";
      } else {
        l.valid = true;
        if (std::optional<StringRef> s =
                record ? record->getString("summary") : std::nullopt)
          l.summary = s->str();
      }
    }
    fn(l);
  }
  return success();
}

FailureOr<int64_t> cache::clear(StringRef dir, std::string &error) {
  int64_t count = 0;
  if (failed(list(
          dir, [&](const Listing &) { ++count; }, error)))
    return failure();
  SmallString<256> root(dir);
  llvm::sys::path::append(root, kTree);
  if (std::error_code ec = llvm::sys::fs::remove_directories(root)) {
    error = "cannot remove " + std::string(root) + ": " + ec.message();
    return failure();
  }
  return count;
}
