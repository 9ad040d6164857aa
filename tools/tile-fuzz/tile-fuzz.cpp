//===- tile-fuzz.cpp - libFuzzer target: parse, verify, lower -------------===//
//
// Every input is MLIR text. It is parsed (through the same nesting check as
// every tile entry point), verified, and lowered by the `tile-to-llvm`
// pipeline: specialisation, layout inference, resource planning, the tile
// lowering and the upstream conversions down to LLVM/NVVM, or on to PTX.
// The input's `// tile-fuzz:` lines are the compile options (bindings, the
// kernels to compile, PTX: Directives.h), which reach the pipeline as
// tile-opt's `bind=` and Python's `params=` do. Diagnostics are the
// expected outcome for most inputs and are dropped; a crash, a hang, a
// sanitizer report or a leak is a finding. A quarter of the mutations are
// structured (hostile bindings, nested regions: StructuredMutator.h), the
// rest libFuzzer's own. docs/Robustness.md says how to run it; test/Fuzz
// runs it briefly in CI.
//
//===----------------------------------------------------------------------===//

#include "Directives.h"
#include "StructuredMutator.h"

#include "tile/InitAll.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Support/SourceNesting.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>

using namespace mlir;

static DialectRegistry &registry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry;
    tile::registerAllDialects(*r);
    return r;
  }();
  return *registry;
}

namespace {
/// Verifies the IR after every pass that succeeded and aborts, with the
/// verifier's message, when it is invalid: a pass that leaves broken IR
/// (an operand of an erased op, a use outside its region) may crash a
/// later pass or the caller, or may not, so the fuzzer makes it a finding
/// every time.
struct AbortOnInvalidIR : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    ScopedDiagnosticHandler print(op->getContext(), [](Diagnostic &d) {
      llvm::errs() << d << "\n";
      return success();
    });
    if (succeeded(verify(op)))
      return;
    llvm::errs() << "tile-fuzz: " << pass->getArgument()
                 << " succeeded but left invalid IR\n";
    abort();
  }
};
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  tile::registerAllPasses();
  (void)registry();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A context per input: nothing one input interns or loads affects the
  // next, so every finding reproduces from its input alone.
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler drop(&context,
                               [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = tile::parseModule(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), &context);
  if (!module)
    return 0;
  tile::TileToBinaryOptions options;
  tile::BinaryFormat format = tile::BinaryFormat::None;
  tile::fuzz::readDirectives(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), options,
      format);
  PassManager pm(&context);
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<AbortOnInvalidIR>());
  tile::buildTileToBinaryPipeline(pm, options, format);
  (void)pm.run(*module);
  return 0;
}

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::mt19937 rng(seed);
  if (rng() % 4 == 0) {
    std::optional<std::string> mutated = tile::fuzz::mutateStructured(
        llvm::StringRef(reinterpret_cast<const char *>(data), size), rng);
    if (mutated && mutated->size() <= maxSize) {
      std::memcpy(data, mutated->data(), mutated->size());
      return mutated->size();
    }
  }
  return LLVMFuzzerMutate(data, size, maxSize);
}
