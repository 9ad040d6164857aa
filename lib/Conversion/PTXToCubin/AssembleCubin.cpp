//===- AssembleCubin.cpp - PTX objects to cubins through ptxas -----------===//
//
// The pipelines stop upstream at PTX (gpu-module-to-binary{format=isa}) and
// assemble the cubin here, with the ptxas invocation of the NVVM target's
// serialiser. That serialiser writes the PTX through a stream whose error it
// never clears, so a full disk or a file-size limit ends the process in the
// stream's destructor; here every failure is a diagnostic.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <optional>

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEASSEMBLECUBIN
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

/// The object property the NVVM target records the ptxas time in, and the
/// one (the optimisation level) it records on PTX objects only.
static constexpr llvm::StringLiteral kAssembleTimeProperty =
    "ISAToBinaryTimeInMs";
static constexpr llvm::StringLiteral kOptLevelProperty = "O";

namespace {
/// A temporary file, removed when this goes out of scope.
class TempFile {
public:
  /// Creates the file; an error at `loc` when it cannot.
  LogicalResult create(Location loc, const Twine &prefix, StringRef suffix) {
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile(prefix, suffix, path)) {
      emitError(loc, "cannot create a temporary ")
          << suffix << " file: " << ec.message();
      return failure();
    }
    remover.emplace(path);
    return success();
  }
  StringRef getPath() const { return path; }

private:
  llvm::SmallString<128> path;
  std::optional<llvm::FileRemover> remover;
};
} // namespace

/// Writes `data` to `path`. The stream's error is taken and cleared, so that
/// its destructor never ends the process.
static std::error_code writeFile(StringRef path, StringRef data) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return ec;
  os << data;
  os.close();
  ec = os.error();
  os.clear_error();
  return ec;
}

/// The ptxas the NVVM target runs when gpu-module-to-binary names no
/// toolkit: the first on PATH, else the one in the bin/ of
/// NVVM::getCUDAToolkitPath() ($CUDA_ROOT, $CUDA_HOME, $CUDA_PATH, else the
/// toolkit MLIR was built with).
static FailureOr<std::string> findPtxas(Location loc) {
  if (std::optional<std::string> onPath =
          llvm::sys::Process::FindInEnvPath("PATH", "ptxas"))
    return *onPath;
  StringRef toolkit = NVVM::getCUDAToolkitPath();
  if (!toolkit.empty()) {
    llvm::SmallString<256> path(toolkit);
    llvm::sys::path::append(path, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(path))
      return std::string(path);
  }
  InFlightDiagnostic diag =
      emitError(loc, "cannot find ptxas to assemble the cubin: none on PATH");
  if (toolkit.empty())
    diag << " and no CUDA toolkit named ($CUDA_ROOT, $CUDA_HOME, $CUDA_PATH)";
  else
    diag << " or in " << toolkit << "/bin";
  diag << "; add the CUDA toolkit's bin/ to PATH or set CUDA_HOME";
  return failure();
}

/// The ptxas arguments of the NVVM target's serialiser: the chip, the
/// optimisation level, then the target's own ptxas options.
static SmallVector<StringRef> getPtxasArgs(NVVM::NVVMTargetAttr target,
                                           StringRef ptx, StringRef cubin,
                                           StringRef optLevel) {
  SmallVector<StringRef> args = {"ptxas", "-arch", target.getChip(), ptx,
                                 "-o",    cubin,   "--opt-level",    optLevel};
  if (!target.hasCmdOptions())
    return args;
  if (auto options = dyn_cast<ArrayAttr>(target.getCmdOptions()->getValue()))
    for (Attribute option : options)
      if (auto text = dyn_cast<StringAttr>(option))
        args.push_back(text.getValue());
  return args;
}

/// The text of the file at `path`, or "" when it cannot be read.
static std::string readLog(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().trim().str() : std::string();
}

/// Whether `text` holds `name` as a whole identifier.
static bool namesIdentifier(StringRef text, StringRef name) {
  auto isIdent = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$';
  };
  for (size_t at = text.find(name); at != StringRef::npos;
       at = text.find(name, at + 1)) {
    size_t end = at + name.size();
    if ((at == 0 || !isIdent(text[at - 1])) &&
        (end == text.size() || !isIdent(text[end])))
      return true;
  }
  return false;
}

/// Where a line of the assembler's log points: the source of the kernel it
/// names ("in function NAME"), which the binary's location lists
/// (convert-tile-to-nvgpu fuses a NameLoc per kernel into it), else the
/// binary itself.
static Location locationOf(Location binary, StringRef line) {
  Location found = binary;
  binary->walk([&](Location l) {
    auto name = dyn_cast<NameLoc>(l);
    if (!name || !namesIdentifier(line, name.getName().getValue()))
      return WalkResult::advance();
    found = name.getChildLoc();
    return WalkResult::interrupt();
  });
  return found;
}

/// Assembles `ptx` for `target` into a cubin; an error at `binary` when any
/// step fails, or at the kernel the assembler names. The errors are at a
/// location only: the operation, which holds the PTX, would be too long a
/// note.
static FailureOr<std::string>
assemble(gpu::BinaryOp binary, NVVM::NVVMTargetAttr target, StringRef ptx) {
  Location loc = binary.getLoc();
  FailureOr<std::string> ptxas = findPtxas(loc);
  if (failed(ptxas))
    return failure();
  std::string prefix =
      llvm::formatv("tile-{0}-{1}", binary.getSymName(), target.getChip());
  TempFile ptxFile, cubinFile, logFile;
  if (failed(ptxFile.create(loc, prefix, "ptx")) ||
      failed(cubinFile.create(loc, prefix, "cubin")) ||
      failed(logFile.create(loc, prefix, "log")))
    return failure();
  if (std::error_code ec = writeFile(ptxFile.getPath(), ptx)) {
    emitError(loc, "cannot write the PTX to '")
        << ptxFile.getPath() << "': " << ec.message();
    return failure();
  }

  std::string optLevel = std::to_string(target.getO());
  SmallVector<StringRef> args =
      getPtxasArgs(target, ptxFile.getPath(), cubinFile.getPath(), optLevel);
  std::optional<StringRef> redirects[] = {StringRef(""), logFile.getPath(),
                                          logFile.getPath()};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*ptxas, args, /*Env=*/std::nullopt,
                                     redirects, /*SecondsToWait=*/0,
                                     /*MemoryLimit=*/0, &message);
  if (rc != 0) {
    std::string log = readLog(logFile.getPath());
    InFlightDiagnostic diag = emitError(locationOf(loc, log))
                              << *ptxas << " failed";
    if (rc > 0)
      diag << " (exit " << rc << ")";
    else if (rc == -2)
      diag << " (killed by a signal)";
    diag << ": " << (log.empty() ? message : log);
    return failure();
  }

  // ptxas's warnings and performance advice (a kernel whose wgmmas it
  // serialises, C7510-C7520, is correct and slow) would be lost with its
  // log: each becomes a warning at the binary.
  std::string log = readLog(logFile.getPath());
  for (StringRef line : llvm::split(log, '\n'))
    if (line.contains("Performance Loss") || line.contains("warning"))
      emitWarning(locationOf(loc, line)) << "ptxas: " << line.trim();

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> cubin =
      llvm::MemoryBuffer::getFile(cubinFile.getPath(), /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!cubin) {
    emitError(loc, "cannot read the cubin that ptxas wrote to '")
        << cubinFile.getPath() << "': " << cubin.getError().message();
    return failure();
  }
  if ((*cubin)->getBufferSize() == 0) {
    emitError(loc, "ptxas wrote no cubin to '") << cubinFile.getPath() << "'";
    return failure();
  }
  return (*cubin)->getBuffer().str();
}

/// The cubin object that gpu-module-to-binary{format=bin} would have made
/// where it made `object`: the same target and kernels, the properties less
/// `O`, plus the ptxas time.
static gpu::ObjectAttr getCubinObject(gpu::ObjectAttr object, StringRef cubin,
                                      int64_t assembleMs) {
  Builder b(object.getContext());
  SmallVector<NamedAttribute> properties;
  if (DictionaryAttr old = object.getProperties())
    for (NamedAttribute property : old)
      if (property.getName() != kOptLevelProperty &&
          property.getName() != kAssembleTimeProperty)
        properties.push_back(property);
  properties.push_back(
      b.getNamedAttr(kAssembleTimeProperty, b.getI64IntegerAttr(assembleMs)));
  return gpu::ObjectAttr::get(
      object.getContext(), object.getTarget(), gpu::CompilationTarget::Binary,
      b.getStringAttr(cubin), b.getDictionaryAttr(properties),
      object.getKernels());
}

/// Replaces the PTX objects of `binary` for NVVM targets by their cubins.
static LogicalResult assembleObjects(gpu::BinaryOp binary) {
  SmallVector<Attribute> objects;
  bool changed = false;
  for (Attribute attr : binary.getObjects()) {
    auto object = dyn_cast<gpu::ObjectAttr>(attr);
    auto target =
        object ? dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget()) : nullptr;
    if (!target || object.getFormat() != gpu::CompilationTarget::Assembly) {
      objects.push_back(attr);
      continue;
    }
    auto start = std::chrono::steady_clock::now();
    FailureOr<std::string> cubin =
        assemble(binary, target, object.getObject().getValue());
    if (failed(cubin))
      return failure();
    int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::steady_clock::now() - start)
                     .count();
    objects.push_back(getCubinObject(object, *cubin, ms));
    changed = true;
  }
  if (changed)
    binary.setObjectsAttr(ArrayAttr::get(binary.getContext(), objects));
  return success();
}

namespace {
struct AssembleCubinPass
    : tile::impl::TileAssembleCubinBase<AssembleCubinPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([](gpu::BinaryOp binary) {
      return failed(assembleObjects(binary)) ? WalkResult::interrupt()
                                             : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
