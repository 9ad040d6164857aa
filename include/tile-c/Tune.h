//===- Tune.h - C API: the configurations a tuner tries ----------*- C -*-===//
//
// Enumerates a parametric kernel's tuning space and gives each configuration
// its verdict (constraints, specialisation, the sm_90a plan, the device's
// limits) without compiling anything.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_C_TUNE_H
#define TILE_C_TUNE_H

#include "tile-c/Compiler.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What becomes of one configuration.
typedef enum MlirTileCandidateStatus {
  MlirTileCandidateViable = 0,       ///< Fits: compile it.
  MlirTileCandidateConstraint = 1,   ///< Breaks a `where` constraint.
  MlirTileCandidateContract = 2,     ///< Refuses the problem's shapes.
  MlirTileCandidateRefused = 3,      ///< Specialising or planning failed.
  MlirTileCandidateSharedMemory = 4, ///< Over the shared memory limit.
  MlirTileCandidateThreads = 5,      ///< Over the threads-per-block limit.
} MlirTileCandidateStatus;

/// One configuration and its verdict; the strings live for the callback.
typedef struct MlirTileCandidate {
  /// The tuned parameters, space-separated `NAME=VALUE` (what to pass to
  /// mlirTileCompile as bindings, with the fixed ones).
  MlirStringRef config;
  MlirTileCandidateStatus status;
  /// "viable", "constraint", "contract", "refused", "shared-memory" or
  /// "threads".
  MlirStringRef statusName;
  /// Why it is dropped (empty when viable).
  MlirStringRef message;
  /// What it needs when it was planned (viable, shared-memory, threads);
  /// else 0.
  int64_t sharedBytes;
  int64_t threads;
} MlirTileCandidate;

typedef void (*MlirTileCandidateCallback)(const MlirTileCandidate *candidate,
                                          void *userData);

/// The limits a configuration must fit: from the device (the opt-in shared
/// memory per block and the threads per block) or given for an offline
/// target. A value <= 0 means sm_90a's.
typedef struct MlirTileTuningLimits {
  int64_t sharedBytes;
  int64_t threads;
} MlirTileTuningLimits;

/// Enumerates the tuning space of kernel or instance `kernel` in `module`
/// (not modified). `options->bindings` fix parameters for every
/// configuration (with the instance's own). `axes` holds `numAxes` strings
/// `NAME=V1,V2,...` that replace a parameter's candidates or add a
/// parameter without candidates. The parameters tuned are the integer and
/// boolean ones with candidates that nothing binds. `argShapes`, when not
/// empty, gives the problem: each kernel argument's shape as `AxB`, the
/// arguments separated by `;` (a scalar's entry empty); a configuration
/// whose shape contracts refuse it is dropped as "contract". `axesCallback`
/// (may be NULL) first receives the space as text: a line `axis NAME=V1,V2,...`
/// per tuned parameter, `default NAME=VALUE` per tuned parameter (the kernel's
/// default: together, the configuration the kernel runs with when nothing is
/// tuned), then `fixed NAME=VALUE` for every other parameter (bound, or its
/// default); then `callback` receives one candidate at a time, the last axis
/// varying fastest (with a NULL `callback`, the space is only described). On a
/// bad kernel name, binding or axis, diagnostics go to the context's handlers
/// and the result is failure.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirTileEnumerateCandidates(
    MlirModule module, MlirStringRef kernel,
    const MlirTileCompileOptions *options, const char *const *axes,
    size_t numAxes, MlirStringRef argShapes, const MlirTileTuningLimits *limits,
    MlirStringCallback axesCallback, MlirTileCandidateCallback callback,
    void *userData);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_TUNE_H
