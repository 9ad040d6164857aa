//===- Disassembler.cpp - SASS of a cubin through nvdisasm ---------------===//

#include "tile/Support/Disassembler.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;

static constexpr StringLiteral kOverride = "TILE_NVDISASM";

Expected<std::string> mlir::tile::findDisassembler() {
  if (std::optional<std::string> named = sys::Process::GetEnv(kOverride)) {
    if (sys::fs::can_execute(*named))
      return *named;
    return createStringError(inconvertibleErrorCode(),
                             "%s is '%s', which is not an executable file",
                             kOverride.data(), named->c_str());
  }
  // Each directory once: $CUDA_HOME is often /usr/local/cuda itself.
  SmallVector<std::string> dirs;
  auto add = [&](std::string dir) {
    if (!llvm::is_contained(dirs, dir))
      dirs.push_back(std::move(dir));
  };
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> root = sys::Process::GetEnv(var))
      if (!root->empty())
        add(*root + "/bin");
  add("/usr/local/cuda/bin");
  for (const std::string &dir : dirs) {
    SmallString<256> path(dir);
    sys::path::append(path, "nvdisasm");
    if (sys::fs::can_execute(path))
      return std::string(path);
  }
  if (ErrorOr<std::string> onPath = sys::findProgramByName("nvdisasm"))
    return *onPath;
  std::string looked;
  for (const std::string &dir : dirs)
    looked += dir + ", ";
  return createStringError(
      inconvertibleErrorCode(),
      "no nvdisasm, the CUDA toolkit's disassembler, in %sor on PATH; "
      "install the toolkit's nvdisasm (package cuda-nvdisasm) or name one "
      "with %s=PATH",
      looked.c_str(), kOverride.data());
}

/// A temporary file removed when this goes out of scope.
namespace {
struct TempFile {
  SmallString<128> path;
  std::optional<FileRemover> remover;
  Error create(StringRef suffix) {
    if (std::error_code ec =
            sys::fs::createTemporaryFile("tile-sass", suffix, path))
      return createStringError(ec, "cannot create a temporary file: %s",
                               ec.message().c_str());
    remover.emplace(path);
    return Error::success();
  }
};
} // namespace

Expected<std::string> mlir::tile::disassemble(StringRef cubin,
                                              unsigned timeoutSeconds) {
  if (!cubin.starts_with("\x7f"
                         "ELF"))
    return createStringError(inconvertibleErrorCode(),
                             "the image is not a cubin (an ELF file); PTX "
                             "has no SASS until the driver compiles it");
  Expected<std::string> tool = findDisassembler();
  if (!tool)
    return tool.takeError();
  TempFile input, output, errors;
  if (Error e = input.create("cubin"))
    return std::move(e);
  if (Error e = output.create("sass"))
    return std::move(e);
  if (Error e = errors.create("log"))
    return std::move(e);
  {
    std::error_code ec;
    raw_fd_ostream os(input.path, ec, sys::fs::OF_None);
    if (ec)
      return createStringError(ec, "cannot write '%s': %s", input.path.c_str(),
                               ec.message().c_str());
    os << cubin;
    os.close();
    if (os.has_error()) {
      std::error_code error = os.error();
      os.clear_error();
      return createStringError(error, "cannot write '%s': %s",
                               input.path.c_str(), error.message().c_str());
    }
  }
  StringRef args[] = {*tool, "-c", input.path};
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(output.path),
                                          StringRef(errors.path)};
  std::string message;
  int rc = sys::ExecuteAndWait(*tool, args, std::nullopt, redirects,
                               timeoutSeconds, 0, &message);
  auto readFile = [](StringRef path) -> std::string {
    ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getFile(path);
    return buffer ? (*buffer)->getBuffer().str() : std::string();
  };
  if (rc != 0) {
    std::string log = StringRef(readFile(errors.path)).trim().str();
    return createStringError(
        inconvertibleErrorCode(), "%s failed (%s): %s", tool->c_str(),
        rc == -2 ? "crashed or timed out" : ("exit " + Twine(rc)).str().c_str(),
        log.empty() ? message.c_str() : log.c_str());
  }
  return readFile(output.path);
}
