//===- tile_cxx_consumer.cpp - Use the installed dialect from C++ ---------===//
//
// Parses FILE.mlir, lists its tile.kernel ops and runs PIPELINE on it.
// Usage: tile-cxx-consumer FILE.mlir PIPELINE
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: tile-cxx-consumer FILE.mlir PIPELINE\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  mlir::tile::registerAllDialects(registry);
  mlir::tile::registerAllPasses();
  mlir::MLIRContext context(registry);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  module->walk([](mlir::tile::KernelOp kernel) {
    llvm::outs() << "kernel " << kernel.getSymName() << "\n";
  });

  mlir::PassManager pm(&context);
  if (mlir::failed(mlir::parsePassPipeline(argv[2], pm)) ||
      mlir::failed(pm.run(*module)))
    return 1;
  module->walk([](mlir::Operation *op) {
    if (op->getName().getStringRef() == "gpu.binary")
      llvm::outs() << "binary "
                   << mlir::SymbolTable::getSymbolName(op).getValue() << "\n";
  });
  return 0;
}
