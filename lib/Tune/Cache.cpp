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
/// What ends an entry file: the SHA-256 of the bytes before it, closed by
/// `}` (the entry's last member; see withDigest).
static constexpr StringLiteral kDigestMember = ",\"sha256\":\"";
static constexpr size_t kDigestTail = kDigestMember.size() + 64 + 2;
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
        build = llvm::toHex(llvm::BLAKE3::hash(llvm::arrayRefFromStringRef(
                                (*file)->getBuffer())),
                            /*LowerCase=*/true);
    }
    return "tile-mlir llvm " LLVM_VERSION_STRING " build " + build + " ptxas " +
           ptxasIdentity();
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

std::string cache::computeKey(StringRef kind, ArrayRef<Component> components) {
  return keyOf(kind, canonical(components));
}

std::string cache::getEntryPath(StringRef dir, StringRef kind, StringRef key) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, kTree, kind, key.take_front(2), key + ".json");
  return std::string(path);
}

/// Canonical components as an entry stores them.
static json::Object componentsObject(ArrayRef<Component> canon) {
  json::Object o;
  for (const Component &c : canon)
    o[c.name] = c.value;
  return o;
}

/// `entry` printed, with a last member "sha256": the digest of the text
/// before that member followed by `}`. Printed objects have their keys
/// sorted, and "sha256" sorts after every other key of an entry.
static std::string withDigest(const json::Value &entry) {
  std::string text;
  llvm::raw_string_ostream(text) << entry;
  std::string digest = sha256Hex(text);
  text.pop_back();
  return text + kDigestMember.str() + digest + "\"}";
}

/// Why the bytes of an entry file do not match their digest, or "": any
/// byte altered, record, components and blob names included, is seen.
static std::string checkDigest(StringRef file) {
  StringRef tail = file.take_back(kDigestTail);
  if (file.size() <= kDigestTail || !tail.starts_with(kDigestMember) ||
      !tail.ends_with("\"}"))
    return "it has no digest (written by an older build, or altered)";
  std::string body = file.drop_back(kDigestTail).str() + "}";
  if (sha256Hex(body) != tail.substr(kDigestMember.size(), 64))
    return "the entry does not match its digest (altered)";
  return "";
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
  else if (why = checkDigest((*file)->getBuffer()); why.empty())
    why = readEntry(*parsed, kind, key, canon, entry);
  if (why.empty())
    return LoadResult::Hit;
  message = "cache entry " + path + " is ignored and removed: " + why;
  llvm::sys::fs::remove(path);
  return LoadResult::Corrupt;
}

/// Creates `dir` (private to the user when this makes it) and the
/// directories between it and `entryDir`, with `dir`'s permissions, so that
/// a private cache stays private and a shared one stays shared.
static LogicalResult createEntryDirectories(StringRef dir, StringRef entryDir,
                                            std::string &error) {
  namespace fs = llvm::sys::fs;
  if (std::error_code ec =
          fs::create_directories(dir, /*IgnoreExisting=*/true, fs::owner_all)) {
    error =
        "cannot create the cache directory " + dir.str() + ": " + ec.message();
    return failure();
  }
  llvm::ErrorOr<fs::perms> perms = fs::getPermissions(dir);
  if (std::error_code ec = fs::create_directories(
          entryDir, /*IgnoreExisting=*/true, perms ? *perms : fs::owner_all)) {
    error =
        "cannot create the directory " + entryDir.str() + ": " + ec.message();
    return failure();
  }
  return success();
}

/// Writes `entry` to a temporary file beside `path` and renames it over
/// `path` once every byte is written; on any failure (a full file system, a
/// file-size limit) removes the temporary file and says why, so that no
/// partial entry is left and nothing exits the process (a raw_fd_ostream
/// destroyed with an error pending would report a fatal error).
static LogicalResult writeAtomically(StringRef path, StringRef entry,
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
  if (failed(createEntryDirectories(dir, llvm::sys::path::parent_path(path),
                                    error)))
    return failure();
  json::Array blobArray;
  for (const Blob &b : blobs)
    blobArray.push_back(json::Object{{"name", b.name},
                                     {"sha256", sha256Hex(b.data)},
                                     {"base64", llvm::encodeBase64(b.data)}});
  json::Value entry =
      json::Object{{"format", kFormat}, {"kind", kind},
                   {"key", key},        {"components", componentsObject(canon)},
                   {"record", record},  {"blobs", std::move(blobArray)}};
  return writeAtomically(path, withDigest(entry), error);
}

namespace {
/// An entry file found in the tree.
struct Found {
  std::string path, kind, key;
};

/// What a walk of `<dir>/v1` found: the entry files and temporary files it
/// recognises by their place and name, the symbolic links it met (never
/// followed), and the directories it went through, deepest first.
struct Tree {
  std::vector<Found> entries;
  std::vector<std::string> temps, links, dirs;
};
} // namespace

static bool isLowerHex(StringRef s) {
  return llvm::all_of(
      s, [](char c) { return llvm::isDigit(c) || (c >= 'a' && c <= 'f'); });
}

/// A kind's directory name: lower-case letters.
static bool isKindName(StringRef name) {
  return !name.empty() && llvm::all_of(name, llvm::isLower);
}

/// `<key>.json` with a key of 64 lower-case hex digits starting with
/// `prefix`; the key in `key`.
static bool isEntryName(StringRef name, StringRef prefix, StringRef &key) {
  key = name.take_front(64);
  return name.size() == 64 + 5 && name.ends_with(".json") && isLowerHex(key) &&
         key.starts_with(prefix);
}

/// An entry's name followed by kTempSuffix and 8 characters (writeAtomically).
static bool isTempName(StringRef name, StringRef prefix) {
  StringRef key;
  size_t entryLen = 64 + 5;
  return name.size() == entryLen + kTempSuffix.size() + 8 &&
         isEntryName(name.take_front(entryLen), prefix, key) &&
         name.substr(entryLen).starts_with(kTempSuffix);
}

/// The children of `dir` with their types, links not followed.
static LogicalResult
children(StringRef dir,
         SmallVectorImpl<std::pair<std::string, llvm::sys::fs::file_type>> &out,
         std::string &error) {
  namespace fs = llvm::sys::fs;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec, /*follow_symlinks=*/false), end;
       it != end && !ec; it.increment(ec)) {
    fs::file_status st;
    if (std::error_code sec = fs::status(it->path(), st, /*Follow=*/false)) {
      error = "cannot read " + it->path() + ": " + sec.message();
      return failure();
    }
    out.push_back({it->path(), st.type()});
  }
  if (ec) {
    error = "cannot list " + dir.str() + ": " + ec.message();
    return failure();
  }
  llvm::sort(out);
  return success();
}

/// Walks `<dir>/v1/<kind>/<xx>/` for what it recognises (Tree).
static LogicalResult walkTree(StringRef dir, Tree &tree, std::string &error) {
  namespace fs = llvm::sys::fs;
  using fs::file_type;
  using llvm::sys::path::filename;
  SmallString<256> root(dir);
  llvm::sys::path::append(root, kTree);
  fs::file_status st;
  if (fs::status(root, st, /*Follow=*/false) || !fs::exists(st))
    return success();
  if (st.type() == file_type::symlink_file) {
    tree.links.push_back(std::string(root));
    return success();
  }
  if (st.type() != file_type::directory_file) {
    error = std::string(root) + " is not a directory (not a cache tree)";
    return failure();
  }
  SmallVector<std::pair<std::string, file_type>> kinds;
  if (failed(children(root, kinds, error)))
    return failure();
  for (auto &[kindDir, kindType] : kinds) {
    if (kindType == file_type::symlink_file)
      tree.links.push_back(kindDir);
    if (kindType != file_type::directory_file || !isKindName(filename(kindDir)))
      continue;
    SmallVector<std::pair<std::string, file_type>> shards;
    if (failed(children(kindDir, shards, error)))
      return failure();
    for (auto &[shardDir, shardType] : shards) {
      StringRef prefix = filename(shardDir);
      if (shardType == file_type::symlink_file)
        tree.links.push_back(shardDir);
      if (shardType != file_type::directory_file || prefix.size() != 2 ||
          !isLowerHex(prefix))
        continue;
      SmallVector<std::pair<std::string, file_type>> files;
      if (failed(children(shardDir, files, error)))
        return failure();
      for (auto &[file, fileType] : files) {
        StringRef name = filename(file), key;
        if (fileType == file_type::symlink_file)
          tree.links.push_back(file);
        else if (fileType != file_type::regular_file)
          continue;
        else if (isEntryName(name, prefix, key))
          tree.entries.push_back({file, filename(kindDir).str(), key.str()});
        else if (isTempName(name, prefix))
          tree.temps.push_back(file);
      }
      tree.dirs.push_back(shardDir);
    }
    tree.dirs.push_back(kindDir);
  }
  tree.dirs.push_back(std::string(root));
  return success();
}

/// Why a tree with symbolic links is not walked through: they are never
/// followed, so that clearing cannot delete what they point to.
static std::string refuseLinks(StringRef what, StringRef dir,
                               ArrayRef<std::string> links) {
  std::string message = ("refusing to " + what + " the cache " + dir + ": " +
                         links.front() + " is a symbolic link")
                            .str();
  if (links.size() > 1)
    message += " (and " + std::to_string(links.size() - 1) + " more)";
  return message +
         "; a cache's entries and directories are never links (remove the "
         "link itself, or point --cache-dir at the tree it names)";
}

/// The listing of one entry file.
static Listing describe(const Found &found) {
  Listing l;
  l.path = found.path;
  l.key = found.key;
  l.kind = found.kind;
  auto file = llvm::MemoryBuffer::getFile(found.path);
  if (!file) {
    l.summary = "unreadable";
    return l;
  }
  l.bytes = (*file)->getBufferSize();
  llvm::Expected<json::Value> v = json::parse((*file)->getBuffer());
  const json::Object *o = v ? v->getAsObject() : nullptr;
  const json::Object *record = o ? o->getObject("record") : nullptr;
  if (!v)
    llvm::consumeError(v.takeError());
  if (!o || o->getInteger("format") != kFormat) {
    l.summary = "corrupt (does not parse)";
    return l;
  }
  if (std::string why = checkDigest((*file)->getBuffer()); !why.empty()) {
    l.summary = "corrupt (" + why + ")";
    return l;
  }
  l.valid = true;
  if (std::optional<StringRef> s =
          record ? record->getString("summary") : std::nullopt)
    l.summary = s->str();
  return l;
}

LogicalResult cache::list(StringRef dir, function_ref<void(const Listing &)> fn,
                          std::string &error) {
  Tree tree;
  if (failed(walkTree(dir, tree, error)))
    return failure();
  if (!tree.links.empty()) {
    error = refuseLinks("list", dir, tree.links);
    return failure();
  }
  for (const Found &found : tree.entries)
    fn(describe(found));
  return success();
}

FailureOr<int64_t> cache::clear(StringRef dir, std::string &error) {
  Tree tree;
  if (failed(walkTree(dir, tree, error)))
    return failure();
  if (!tree.links.empty()) {
    error = refuseLinks("clear", dir, tree.links);
    return failure();
  }
  int64_t removed = 0;
  for (const Found &found : tree.entries) {
    if (std::error_code ec = llvm::sys::fs::remove(found.path)) {
      error = "cannot remove " + found.path + ": " + ec.message() + " (" +
              std::to_string(removed) + " entries removed before it)";
      return failure();
    }
    ++removed;
  }
  // A writer's temporary file left by a crash; a live writer whose file
  // goes reports that its entry is not kept.
  for (const std::string &temp : tree.temps)
    llvm::sys::fs::remove(temp);
  // Only the directories left empty go: what the cache does not recognise
  // stays, and so do the directories that hold it.
  for (const std::string &d : tree.dirs)
    llvm::sys::fs::remove(d);
  return removed;
}
