//===- Inspect.cpp - C API: what the compiler made of a kernel ----------===//

#include "tile-c/Inspect.h"
#include "CompilePipeline.h"
#include "tile/Support/Disassembler.h"
#include "tile/Support/InstructionMix.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>
#include <mutex>

using namespace mlir;

namespace {
/// Hands the IR after the selected passes to a C callback.
class CallbackIRPrinter : public PassManager::IRPrinterConfig {
public:
  CallbackIRPrinter(StringRef afterPass, MlirStringCallback callback,
                    void *userData)
      : afterPass(afterPass), callback(callback), userData(userData) {}

  void printAfterIfEnabled(Pass *pass, Operation *op,
                           PrintCallbackFn print) override {
    (void)op;
    StringRef argument = pass->getArgument();
    if (!afterPass.empty() && argument != afterPass)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    matched = true;
    std::string text;
    llvm::raw_string_ostream os(text);
    print(os);
    if (callback)
      callback(wrap(StringRef(text)), userData);
  }

  bool matched = false;

private:
  std::string afterPass;
  MlirStringCallback callback;
  void *userData;
  std::mutex mutex;
};
} // namespace

/// The pipeline of `pm` as text, with each pass's options (`{...}`) when
/// `withOptions`, else only the pass arguments and their nesting.
static std::string pipelineText(PassManager &pm, bool withOptions) {
  std::string text;
  llvm::raw_string_ostream os(text);
  pm.printAsTextualPipeline(os);
  if (withOptions)
    return text;
  std::string bare;
  int depth = 0;
  for (char c : text) {
    if (c == '{')
      ++depth;
    else if (c == '}')
      --depth;
    else if (depth == 0)
      bare.push_back(c);
  }
  return bare;
}

MlirLogicalResult mlirTileCompilePrintIR(MlirModule cModule,
                                         const MlirTileCompileOptions *options,
                                         const char *afterPass,
                                         MlirStringCallback callback,
                                         void *userData) {
  ModuleOp module = unwrap(cModule);
  StringRef selected = afterPass ? afterPass : "";
  if (selected == "all")
    selected = "";
  PassManager pm(module.getContext());
  tile::buildCompilePipeline(pm, options);
  auto printer =
      std::make_unique<CallbackIRPrinter>(selected, callback, userData);
  CallbackIRPrinter *config = printer.get();
  pm.enableIRPrinting(std::move(printer));
  LogicalResult result = pm.run(module);
  if (!config->matched && !selected.empty()) {
    module.emitError("no pass '")
        << selected << "' ran in the compile pipeline"
        << (succeeded(result) ? "" : " before it failed")
        << "; its passes are: " << pipelineText(pm, /*withOptions=*/false);
    return mlirLogicalResultFailure();
  }
  return wrap(result);
}

void mlirTileCompilePipeline(MlirContext context,
                             const MlirTileCompileOptions *options,
                             bool withOptions, MlirStringCallback callback,
                             void *userData) {
  PassManager pm(unwrap(context));
  tile::buildCompilePipeline(pm, options);
  std::string text = pipelineText(pm, withOptions);
  if (callback)
    callback(wrap(StringRef(text)), userData);
}

/// Sends `value` or the error's message to `callback`.
template <typename T>
static MlirLogicalResult report(llvm::Expected<T> value,
                                MlirStringCallback callback, void *userData) {
  if (!value) {
    std::string message = llvm::toString(value.takeError());
    if (callback)
      callback(wrap(StringRef(message)), userData);
    return mlirLogicalResultFailure();
  }
  if (callback)
    callback(wrap(StringRef(*value)), userData);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult mlirTileFindDisassembler(MlirStringCallback callback,
                                           void *userData) {
  return report(tile::findDisassembler(), callback, userData);
}

MlirLogicalResult mlirTileDisassemble(MlirStringRef cubin,
                                      MlirStringCallback callback,
                                      void *userData) {
  return report(tile::disassemble(unwrap(cubin)), callback, userData);
}

MlirLogicalResult mlirTileCountInstructions(MlirStringRef text,
                                            MlirTileAssembly kind,
                                            MlirStringRef kernel,
                                            MlirTileInstructionMix *mix) {
  std::memset(mix, 0, sizeof *mix);
  std::optional<tile::InstructionMix> counted = tile::countInstructions(
      unwrap(text),
      kind == MlirTileAssemblySass ? tile::AssemblyKind::Sass
                                   : tile::AssemblyKind::Ptx,
      unwrap(kernel));
  if (!counted)
    return mlirLogicalResultFailure();
  const tile::InstructionMix &m = *counted;
  *mix = MlirTileInstructionMix{m.total,       m.wgmma,        m.mma,
                                m.tma,         m.mbarrier,     m.barrier,
                                m.shuffle,     m.localLoads,   m.localStores,
                                m.globalLoads, m.globalStores, m.sharedLoads,
                                m.sharedStores};
  return mlirLogicalResultSuccess();
}
