//===- CompilePipeline.h - The C API's compile options as a pipeline ----===//
//
// One place that turns MlirTileCompileOptions into the pass pipeline, for
// mlirTileCompile and the inspection entry points.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CAPI_COMPILEPIPELINE_H
#define TILE_LIB_CAPI_COMPILEPIPELINE_H

#include "tile-c/Compiler.h"
#include "tile/Pipelines/Pipelines.h"

namespace mlir {
class OpPassManager;
namespace tile {

/// Sets the pipeline `options` from `cOptions` (NULL: the defaults).
void setPipelineOptions(TileToBinaryOptions &options,
                        const MlirTileCompileOptions *cOptions);

/// Adds the compile pipeline of `cOptions` (NULL: the defaults) to `pm`.
void buildCompilePipeline(OpPassManager &pm,
                          const MlirTileCompileOptions *cOptions);

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_CAPI_COMPILEPIPELINE_H
