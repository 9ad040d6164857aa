//===- tile-fuzz.cpp - libFuzzer target: parse, verify, lower -------------===//
//
// Every input is MLIR text. It is parsed (through the same nesting check as
// every tile entry point), verified, and lowered by the `tile-to-llvm`
// pipeline: specialisation, layout inference, resource planning, the tile
// lowering and the upstream conversions down to LLVM/NVVM. Diagnostics are
// the expected outcome for most inputs and are dropped; a crash, a hang, a
// sanitizer report or a leak is a finding. docs/Robustness.md says how to
// run it; test/Fuzz runs it briefly in CI.
//
//===----------------------------------------------------------------------===//

#include "tile/InitAll.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Support/SourceNesting.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include <cstddef>
#include <cstdint>

using namespace mlir;

static DialectRegistry &registry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry;
    tile::registerAllDialects(*r);
    return r;
  }();
  return *registry;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  tile::registerAllPasses();
  (void)registry();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A context per input: nothing one input interns or loads affects the
  // next, so every finding reproduces from its input alone.
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler drop(&context, [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = tile::parseModule(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), &context);
  if (!module)
    return 0;
  PassManager pm(&context);
  tile::TileToBinaryOptions options;
  tile::buildTileToBinaryPipeline(pm, options, tile::BinaryFormat::None);
  (void)pm.run(*module);
  return 0;
}
