//===- tile-opt.cpp - The tile dialect's optimizer driver ---------------===//
//
// mlir-opt with the tile dialect, passes and pipelines registered. The input
// is read here rather than by MlirOptMain so that its nesting can be checked
// first (tile/Support/SourceNesting.h): a source nested too deeply for the
// parser gets an error instead of a stack overflow.
//
//===----------------------------------------------------------------------===//

#include "tile/InitAll.h"
#include "tile/Support/SourceNesting.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Prints an error at the bracket that nests too deeply, in the format of
/// the parser's own diagnostics; fails then.
static LogicalResult checkNesting(const llvm::MemoryBuffer &buffer) {
  // The context that reports the error is only made when there is one.
  if (!tile::findNestingOverflow(buffer.getBuffer()))
    return success();
  MLIRContext context(MLIRContext::Threading::DISABLED);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(buffer.getBuffer(),
                                       buffer.getBufferIdentifier(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  return tile::checkSourceNesting(buffer, &context);
}

int main(int argc, char **argv) {
  DialectRegistry registry;
  tile::registerAllDialects(registry);
  tile::registerAllPasses();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "tile-opt: the tile dialect optimizer\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();

  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleaveComma(registry.getDialectNames(), llvm::outs());
    llvm::outs() << "\n";
    return EXIT_SUCCESS;
  }
  if (config.shouldListPasses()) {
    printRegisteredPasses();
    return EXIT_SUCCESS;
  }

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  if (failed(checkNesting(*input)))
    return EXIT_FAILURE;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}
