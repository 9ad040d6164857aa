//===- Compiler.h - C API: compile tile IR to a GPU binary --------*- C -*-===//
//
// Compiles a module holding `tile.kernel`s to a cubin (or PTX) in process and
// hands back the bytes and the kernels' launch metadata through callbacks.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_C_COMPILER_H
#define TILE_C_COMPILER_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What the compiler produces.
typedef enum MlirTileOutputFormat {
  MlirTileOutputCubin = 0, ///< ELF for the target chip, assembled by ptxas.
  MlirTileOutputPtx = 1,   ///< PTX text, for the driver to JIT.
} MlirTileOutputFormat;

/// Options of one compilation. Null strings mean the defaults
/// (chip "sm_90a", features "+ptx80", opt level 2, cubin, no bindings,
/// every kernel).
typedef struct MlirTileCompileOptions {
  const char *chip;
  const char *features;
  int optLevel;
  MlirTileOutputFormat format;
  /// `numBindings` "NAME=VALUE" strings binding the parameters of the
  /// parametric kernels compiled (tile-specialize's `bind`); not owned.
  const char *const *bindings;
  size_t numBindings;
  /// When `numKernels` > 0, compile only these kernels and instances
  /// (tile-specialize's `kernels`); not owned.
  const char *const *kernels;
  size_t numKernels;
} MlirTileCompileOptions;

/// Fills `options` with the defaults.
MLIR_CAPI_EXPORTED void
mlirTileCompileOptionsInitDefault(MlirTileCompileOptions *options);

/// Lowers every `tile.kernel` of `module` (modified in place) down to a GPU
/// binary. On success, `binaryCallback` receives the binary bytes and
/// `metadataCallback` the kernel launch metadata text (format in
/// docs/KernelABI.md); each may be called several times with consecutive
/// chunks. On failure, diagnostics go to the context's handlers and the
/// result is failure. The callbacks do not own the bytes they are given.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirTileCompile(MlirModule module, const MlirTileCompileOptions *options,
                MlirStringCallback binaryCallback,
                MlirStringCallback metadataCallback, void *userData);

/// mlirTileCompile through the compile cache in `cacheDirectory` (NULL: the
/// default directory of tile-c/Cache.h; an empty string: no cache). The key
/// is the module's text, the options, the compiler's build and the ptxas it
/// runs; on a hit the callbacks receive the cached bytes and nothing is
/// compiled (`module` is then left as it was). `*hit` (may be NULL) says
/// which happened. A corrupted entry is reported as a warning on the
/// module, ignored and rewritten; a failed store is a warning too.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirTileCompileCached(
    MlirModule module, const MlirTileCompileOptions *options,
    const char *cacheDirectory, MlirStringCallback binaryCallback,
    MlirStringCallback metadataCallback, void *userData, bool *hit);

/// Specialises the kernels of `module` (modified in place) with the
/// bindings and selection of `options` and plans each for its chip without
/// lowering it (no LLVM, no ptxas): `callback` receives one line per kernel,
///   `kernel <name> shared <bytes> stages <s> stage_bytes <b>
///    pipelined_bytes <p> threads <n> grid <rule>`
/// where `shared` counts every tile with all its pipeline stages, barriers
/// and reduction scratch, `stages` is the deepest pipeline (1: none),
/// `stage_bytes` what one stage of the pipelined tiles takes,
/// `pipelined_bytes` all their stages (`stages * stage_bytes` when their
/// depths agree), and `grid` is the launch rule (`[C[1] / 256, ...]`).
/// On failure (a binding refused, shared memory over the chip's limit, ...)
/// diagnostics go to the context's handlers and the result is failure.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirTileEstimateResources(
    MlirModule module, const MlirTileCompileOptions *options,
    MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_COMPILER_H
