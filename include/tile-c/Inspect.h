//===- Inspect.h - C API: what the compiler made of a kernel ------*- C -*-===//
//
// The IR after each pass of the compile pipeline, the SASS of a cubin (the
// CUDA toolkit's nvdisasm), and the instruction mix of one kernel in its
// PTX or SASS. The PTX itself is mlirTileCompile with MlirTileOutputPtx.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_C_INSPECT_H
#define TILE_C_INSPECT_H

#include "tile-c/Compiler.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Compiles `module` (modified in place) like mlirTileCompile with
/// `options`, and hands `callback` the IR after each pass whose argument
/// is `afterPass` (e.g. "tile-infer-layouts", "convert-gpu-to-nvvm"), or
/// after every pass when `afterPass` is NULL, "" or "all". Each dump starts
/// with a line `// -----// IR Dump After <Pass> (<argument>) //----- //`;
/// a pass nested in gpu.module prints that gpu.module. Fails, with an error
/// on the module listing the pipeline's passes, when no pass of that
/// argument ran; and where the pipeline fails, after the dumps before it.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirTileCompilePrintIR(
    MlirModule module, const MlirTileCompileOptions *options,
    const char *afterPass, MlirStringCallback callback, void *userData);

/// Hands `callback` the compile pipeline of `options` as a textual pass
/// pipeline, nested passes in their `gpu.module(...)`: with each pass's
/// options when `withOptions` (what `tile-opt --pass-pipeline=...` takes),
/// else the pass arguments alone (what mlirTileCompilePrintIR selects by).
MLIR_CAPI_EXPORTED void
mlirTileCompilePipeline(MlirContext context,
                        const MlirTileCompileOptions *options, bool withOptions,
                        MlirStringCallback callback, void *userData);

/// Where the disassembler is: on success `callback` receives the path of
/// the nvdisasm that mlirTileDisassemble runs ($TILE_NVDISASM when set,
/// else the first of $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin
/// and PATH); on failure, a message saying where it looked.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirTileFindDisassembler(MlirStringCallback callback, void *userData);

/// The SASS of `cubin`, as `nvdisasm -c` prints it (each kernel in section
/// `.text.<kernel>`), to `callback`; on failure (no nvdisasm, not a cubin,
/// nvdisasm refused it) `callback` receives the reason instead.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirTileDisassemble(
    MlirStringRef cubin, MlirStringCallback callback, void *userData);

/// What text holds the code.
typedef enum MlirTileAssembly {
  MlirTileAssemblyPtx = 0,
  MlirTileAssemblySass = 1, ///< nvdisasm's text
} MlirTileAssembly;

/// A kernel's instructions that matter on Hopper, each counted once where
/// it appears in the code (not how often it runs).
typedef struct MlirTileInstructionMix {
  int64_t total;        ///< every instruction (SASS: NOPs excluded)
  int64_t wgmma;        ///< wgmma.mma_async / HGMMA, IGMMA, QGMMA, ...
  int64_t mma;          ///< warp-level mma.sync / HMMA, IMMA, ...
  int64_t tma;          ///< cp.async.bulk(.tensor) / UTMALDG, UTMASTG, UBLKCP
  int64_t mbarrier;     ///< mbarrier.* / SYNCS.*
  int64_t barrier;      ///< bar.*, barrier.* / BAR
  int64_t shuffle;      ///< shfl.* / SHFL
  int64_t localLoads;   ///< ld.local / LDL (SASS: spill reloads, local arrays)
  int64_t localStores;  ///< st.local / STL (SASS: spills, local arrays)
  int64_t globalLoads;  ///< ld.global / LDG
  int64_t globalStores; ///< st.global / STG
  int64_t sharedLoads;  ///< ld.shared, ldmatrix / LDS, LDSM
  int64_t sharedStores; ///< st.shared, stmatrix / STS, STSM
} MlirTileInstructionMix;

/// Counts the instructions of kernel `kernel` in `text` (PTX, or SASS as
/// mlirTileDisassemble gives it) into `*mix`. Fails, leaving `*mix` zero,
/// when `text` holds no such kernel.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirTileCountInstructions(MlirStringRef text, MlirTileAssembly kind,
                          MlirStringRef kernel, MlirTileInstructionMix *mix);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_INSPECT_H
