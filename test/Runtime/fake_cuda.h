/*===- fake_cuda.h - A fake libcuda for host-only runtime tests -*- C -*-===*
 *
 * fake_cuda.c builds into shared libraries that export the Driver API entry
 * points the runtime looks up, so that the runtime's loading, marshalling and
 * error paths run (and are checked) on machines without a GPU. The runtime
 * opens one through $TILE_RT_LIBCUDA; a test that opens the same library
 * reads what the runtime passed to the "driver" through the controls below.
 *
 * Environment, read by cuInit:
 *   FAKE_CUDA_INIT_RESULT   the CUresult cuInit returns (default 0)
 *   FAKE_CUDA_DEVICE_COUNT  what cuDeviceGetCount reports (default 1)
 * Module images are text: "FAKECUBIN name name@static_smem ...".
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_RT_FAKE_CUDA_H
#define TILE_RT_FAKE_CUDA_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of parameters one launch may record. */
#define FAKE_CUDA_PARAM_BYTES 8192
#define FAKE_CUDA_MAX_PARAMS 256

/// What the last cuLaunchKernel (or cuLaunchKernelEx) received.
typedef struct fake_cuda_launch {
  int count;        ///< Launches so far.
  uintptr_t stream; ///< The CUstream it was launched on (0: default).
  char function[256];
  unsigned grid[3], block[3], smem;
  int nparams; ///< Parameters copied, as announced by fake_cuda_expect_params.
  size_t offset[FAKE_CUDA_MAX_PARAMS]; ///< Of each parameter in `bytes`.
  size_t size[FAKE_CUDA_MAX_PARAMS];
  uintptr_t address[FAKE_CUDA_MAX_PARAMS]; ///< Where the runtime kept it.
  unsigned char bytes[FAKE_CUDA_PARAM_BYTES];
  unsigned cluster[3]; ///< Blocks per cluster (1 1 1 from cuLaunchKernel).
} fake_cuda_launch;

/* The controls the library exports (tests look them up with dlsym in the
 * instance the runtime opened):
 *
 * void fake_cuda_expect_params(const size_t *sizes, int n);
 *   Announces the byte size of each kernel parameter of the next launches
 *   (a real driver reads them from the binary).
 * const fake_cuda_launch *fake_cuda_last_launch(void);
 *   The last launch's record.
 * void fake_cuda_set_hang(int hang);
 *   While `hang` is non-zero, cuStreamQuery / cuEventQuery report
 *   CUDA_ERROR_NOT_READY (a kernel that never finishes) and
 *   cuCtxSynchronize fails with CUDA_ERROR_ILLEGAL_ADDRESS.
 * void fake_cuda_set_capturing(void *stream);
 *   Makes cuStreamIsCapturing report `stream` (NULL: the default stream) as
 *   capturing a graph, and cuStreamQuery on it fail as a real driver's does.
 * void fake_cuda_fail_next_launch(int result);
 *   Makes the next cuLaunchKernel (or cuLaunchKernelEx) fail with `result`.
 * void fake_cuda_lifetime(fake_cuda_lifetime_counts *out);
 *   What is alive now (see below). Once the primary context's retains are
 *   all released, the calls that need it (set current, load and unload,
 *   allocate and free, streams, events) fail with
 *   CUDA_ERROR_CONTEXT_IS_DESTROYED and are counted.
 *
 * With $FAKE_CUDA_REPORT_AT_EXIT set, the same counts go to stderr when the
 * process exits: "fake-cuda at exit: primary refs 0, modules 0, ...".
 */

/// The lifetime counts of fake_cuda_lifetime.
typedef struct fake_cuda_lifetime_counts {
  int primary_refs; ///< cuDevicePrimaryCtxRetain calls not yet released.
  int modules;      ///< Loaded, not unloaded.
  int allocations;  ///< cuMemAlloc'd, not freed.
  int streams;
  int events;
  int calls_after_release; ///< Calls made on the released context.
} fake_cuda_lifetime_counts;

/* A tensor map the fake encodes: 16 words holding its operands. */
enum {
  FAKE_MAP_ADDRESS = 0,
  FAKE_MAP_DTYPE = 1,
  FAKE_MAP_RANK = 2,
  FAKE_MAP_DIMS = 3,      /* 5 words, innermost first */
  FAKE_MAP_STRIDES = 8,   /* 4 words, bytes */
  FAKE_MAP_BOX = 12,      /* 5 x 10 bits */
  FAKE_MAP_ESTRIDES = 13, /* 5 x 10 bits */
  FAKE_MAP_MODES = 14,    /* interleave | swizzle << 8 | l2 << 16 | oob << 24 */
  FAKE_MAP_MAGIC = 15,
};
#define FAKE_MAP_MAGIC_VALUE 0x46414b454d4150ULL /* "FAKEMAP" */

#endif /* TILE_RT_FAKE_CUDA_H */
