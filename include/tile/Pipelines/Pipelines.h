//===- Pipelines.h - Registered tile compilation pipelines ------*- C++ -*-===//

#ifndef TILE_PIPELINES_PIPELINES_H
#define TILE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include <string>

namespace mlir {
class OpPassManager;
namespace tile {

/// The default LLVM optimisation level. O3 produced the same PTX for the
/// kernels in kernels/ (within 5% of the lines) and the same speed on an
/// H200 (GEMM, GEMM+bias+GELU at 4096^3 and 8192^3, one run), and took 0.1 s
/// longer per kernel than O2.
inline constexpr int kDefaultOptLevel = 2;

/// Options of the `tile-to-ptx` and `tile-to-cubin` pipelines.
struct TileToBinaryOptions : public PassPipelineOptions<TileToBinaryOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target chip"), llvm::cl::init("sm_90a")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (the PTX ISA version, e.g. +ptx80)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<int> optLevel{*this, "opt-level",
                                    llvm::cl::desc("LLVM optimisation level"),
                                    llvm::cl::init(kDefaultOptLevel)};
  PassOptions::ListOption<std::string> kernels{
      *this, "kernels",
      llvm::cl::desc(
          "Compile only these kernels and instances (default: all)")};
  PassOptions::ListOption<std::string> bind{
      *this, "bind",
      llvm::cl::desc("NAME=VALUE bindings of the kernels' parameters")};
};

/// What the pipeline ends in.
enum class BinaryFormat { Ptx, Cubin, None };

/// tile-specialize, the preparation passes (addTilePreparationPasses) and
/// tile-estimate-resources: every kernel specialised and planned, with its
/// tile.resources, not lowered. The binary pipelines start with it.
void buildTileResourcesPipeline(OpPassManager &pm,
                                const TileToBinaryOptions &options);

/// Lowers tile kernels to NVVM/LLVM inside gpu.modules and, unless `format`
/// is None, serialises them into a gpu.binary holding PTX or a cubin.
void buildTileToBinaryPipeline(OpPassManager &pm,
                               const TileToBinaryOptions &options,
                               BinaryFormat format);

/// Registers `tile-to-llvm`, `tile-to-ptx` and `tile-to-cubin`.
void registerTilePipelines();

} // namespace tile
} // namespace mlir

#endif // TILE_PIPELINES_PIPELINES_H
