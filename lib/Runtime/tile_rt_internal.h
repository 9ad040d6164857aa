/*===- tile_rt_internal.h - Shared internals of the runtime ------*- C -*-===*
 *
 * The driver function table, the error helpers and the handle layouts shared
 * by the lib/Runtime/tile_rt_*.c files. Not installed, not public.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_RT_INTERNAL_H
#define TILE_RT_INTERNAL_H

#include "tile-rt/tile_rt.h"
#include "tile_rt_checked.h"

/* cuda.h is used for its types, enums and the versioned-name macros only;
 * nothing links libcuda. */
#include <cuda.h>

#include <stdatomic.h>

/// Returns from the enclosing function when `x` is not TILE_RT_SUCCESS.
#define RT_TRY(x)                                                              \
  do {                                                                         \
    tile_rt_status rt_try_ = (x);                                              \
    if (rt_try_ != TILE_RT_SUCCESS)                                            \
      return rt_try_;                                                          \
  } while (0)

/*===--- Errors (tile_rt_error.c) -----------------------------------------===*/

#if defined(__GNUC__)
#define RT_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define RT_PRINTF(fmt, args)
#endif

/// Sets the thread's last-error message and returns `status`.
tile_rt_status rt_error(tile_rt_status status, const char *fmt, ...)
    RT_PRINTF(2, 3);

/// Sets the message for a failed CUDA call `call` returning `result`:
/// "<context>: <call> failed: <NAME> (<description>)", and returns the status
/// the result maps to (OUT_OF_MEMORY, NO_DEVICE, NOT_FOUND, UNSUPPORTED or
/// CUDA). `fmt` (may be NULL) formats the context, e.g. the kernel.
tile_rt_status rt_cuda_error(CUresult result, const char *call, const char *fmt,
                             ...) RT_PRINTF(3, 4);

/*===--- Element types (tile_rt_dtype.c) ----------------------------------===*/

/* The dtype named by the n characters at `name` (not NUL-terminated: a
 * field of a kernel info line); 0 on success, -1 for an unknown name. */
int rt_dtype_from_span(tile_rt_dtype *out, const char *name, size_t n);

/* What an unknown dtype name should have been, for error messages. */
#define RT_DTYPE_NAMES                                                         \
  "f16, bf16, f32, f64, i8, i16, i32, i64, f8E4M3FN or f8E5M2"

/*===--- Contracts (tile_rt_contract.c) -----------------------------------===*/

/// Checks every shape contract of `desc` for `args` (memrefs of the ranks
/// the contracts read, already checked): TILE_RT_ERROR_INVALID_ARGUMENT
/// with the contract and the sizes it read when one fails.
tile_rt_status rt_check_contract_args(const tile_rt_kernel_desc *desc,
                                      const tile_rt_arg *args);

/*===--- The driver (tile_rt_driver.c) ------------------------------------===*/

/* Every driver entry point the runtime uses: X(name, return, parameters, how).
 * `name` is the cuda.h spelling; cuda.h's macros turn it into the versioned
 * symbol (cuMemAlloc -> cuMemAlloc_v2), and that is the name looked up. */
#define RT_REQUIRED 0       /* missing: the driver is unusable */
#define RT_OPTIONAL 1       /* missing: NULL; the feature reports UNSUPPORTED */
#define RT_PLAIN_FALLBACK 2 /* else try the unversioned name (same ABI) */

#define RT_DRIVER_FUNCTIONS(X)                                                 \
  X(cuGetErrorName, CUresult, (CUresult, const char **), RT_REQUIRED)          \
  X(cuGetErrorString, CUresult, (CUresult, const char **), RT_REQUIRED)        \
  X(cuInit, CUresult, (unsigned int), RT_REQUIRED)                             \
  X(cuDriverGetVersion, CUresult, (int *), RT_REQUIRED)                        \
  X(cuDeviceGetCount, CUresult, (int *), RT_REQUIRED)                          \
  X(cuDeviceGet, CUresult, (CUdevice *, int), RT_REQUIRED)                     \
  X(cuDeviceGetName, CUresult, (char *, int, CUdevice), RT_REQUIRED)           \
  X(cuDeviceGetAttribute, CUresult, (int *, CUdevice_attribute, CUdevice),     \
    RT_REQUIRED)                                                               \
  X(cuDeviceTotalMem, CUresult, (size_t *, CUdevice), RT_REQUIRED)             \
  X(cuDevicePrimaryCtxRetain, CUresult, (CUcontext *, CUdevice), RT_REQUIRED)  \
  X(cuDevicePrimaryCtxRelease, CUresult, (CUdevice), RT_REQUIRED)              \
  X(cuCtxSetCurrent, CUresult, (CUcontext), RT_REQUIRED)                       \
  X(cuCtxSynchronize, CUresult, (void), RT_REQUIRED)                           \
  X(cuModuleLoadDataEx, CUresult,                                              \
    (CUmodule *, const void *, unsigned int, CUjit_option *, void **),         \
    RT_REQUIRED)                                                               \
  X(cuModuleUnload, CUresult, (CUmodule), RT_REQUIRED)                         \
  X(cuModuleGetFunction, CUresult, (CUfunction *, CUmodule, const char *),     \
    RT_REQUIRED)                                                               \
  X(cuFuncSetAttribute, CUresult, (CUfunction, CUfunction_attribute, int),     \
    RT_REQUIRED)                                                               \
  X(cuFuncGetAttribute, CUresult, (int *, CUfunction_attribute, CUfunction),   \
    RT_REQUIRED)                                                               \
  X(cuLaunchKernel, CUresult,                                                  \
    (CUfunction, unsigned int, unsigned int, unsigned int, unsigned int,       \
     unsigned int, unsigned int, unsigned int, CUstream, void **, void **),    \
    RT_REQUIRED)                                                               \
  X(cuLaunchKernelEx, CUresult,                                                \
    (const CUlaunchConfig *, CUfunction, void **, void **), RT_OPTIONAL)       \
  X(cuTensorMapEncodeTiled, CUresult,                                          \
    (CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,                   \
     const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,               \
     const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,            \
     CUtensorMapL2promotion, CUtensorMapFloatOOBfill),                         \
    RT_OPTIONAL)                                                               \
  X(cuMemAlloc, CUresult, (CUdeviceptr *, size_t), RT_REQUIRED)                \
  X(cuMemFree, CUresult, (CUdeviceptr), RT_REQUIRED)                           \
  X(cuMemcpyHtoD, CUresult, (CUdeviceptr, const void *, size_t), RT_REQUIRED)  \
  X(cuMemcpyDtoH, CUresult, (void *, CUdeviceptr, size_t), RT_REQUIRED)        \
  X(cuMemcpyDtoD, CUresult, (CUdeviceptr, CUdeviceptr, size_t), RT_REQUIRED)   \
  X(cuMemsetD8, CUresult, (CUdeviceptr, unsigned char, size_t), RT_REQUIRED)   \
  X(cuMemsetD16, CUresult, (CUdeviceptr, unsigned short, size_t), RT_REQUIRED) \
  X(cuMemsetD32, CUresult, (CUdeviceptr, unsigned int, size_t), RT_REQUIRED)   \
  X(cuStreamCreate, CUresult, (CUstream *, unsigned int), RT_REQUIRED)         \
  X(cuStreamDestroy, CUresult, (CUstream), RT_REQUIRED)                        \
  X(cuStreamQuery, CUresult, (CUstream), RT_REQUIRED)                          \
  X(cuStreamIsCapturing, CUresult, (CUstream, CUstreamCaptureStatus *),        \
    RT_REQUIRED)                                                               \
  X(cuEventCreate, CUresult, (CUevent *, unsigned int), RT_REQUIRED)           \
  X(cuEventDestroy, CUresult, (CUevent), RT_REQUIRED)                          \
  X(cuEventRecord, CUresult, (CUevent, CUstream), RT_REQUIRED)                 \
  X(cuEventQuery, CUresult, (CUevent), RT_REQUIRED)                            \
  X(cuEventElapsedTime, CUresult, (float *, CUevent, CUevent),                 \
    RT_PLAIN_FALLBACK)

#define RT_DRIVER_MEMBER(name, ret, params, how) ret(CUDAAPI *name) params;
/// Pointers to the driver's entry points, filled once per process.
typedef struct rt_driver {
  RT_DRIVER_FUNCTIONS(RT_DRIVER_MEMBER)
} rt_driver;
#undef RT_DRIVER_MEMBER

/// Loads and initialises the driver once per process ($TILE_RT_LIBCUDA, else
/// libcuda.so.1; then cuInit(0)) and returns the table in `*out`. Every later
/// call repeats the first outcome: NO_DRIVER, NO_DEVICE or SUCCESS, with the
/// same message.
tile_rt_status rt_driver_get(const rt_driver **out);

/// The table once rt_driver_get has succeeded, else NULL (for error paths).
const rt_driver *rt_driver_loaded(void);

/*===--- Handles ----------------------------------------------------------===*/

struct tile_rt_context {
  const rt_driver *cu;
  CUdevice device;
  CUcontext context;
  tile_rt_device_info info;
  /// The caller's reference (until tile_rt_context_free) plus one per
  /// module, stream, event and device allocation made from the context:
  /// the primary context is released, and the handle freed, at zero, so
  /// that the handles may be freed in any order.
  atomic_int refs;
  /// The kernel most recently launched, named in watchdog messages (a copy:
  /// its module may be gone by then).
  char last_kernel[TILE_RT_MAX_NAME + 1];
};

struct tile_rt_stream {
  tile_rt_context *ctx;
  CUstream stream;
  int borrowed; /* wrapped (tile_rt_stream_wrap): not ours to destroy */
};

struct tile_rt_event {
  tile_rt_context *ctx;
  CUevent event;
};

struct tile_rt_kernel {
  tile_rt_module *module;
  const tile_rt_kernel_desc *desc;
  CUfunction function; /* NULL until first looked up */
};

struct tile_rt_module {
  tile_rt_context *ctx;
  CUmodule module;
  tile_rt_kernel_info *info;
  int nkernels;
  tile_rt_kernel *kernels; /* one per info record, in order */
};

/// Makes `ctx` current on this thread (cheap when it already is).
tile_rt_status rt_bind(tile_rt_context *ctx);

/// Takes a reference to `ctx` for a handle made from it.
void rt_context_retain(tile_rt_context *ctx);

/// Drops a reference to `ctx`; the last one releases the primary context
/// and frees `ctx` (the status is that of cuDevicePrimaryCtxRelease).
tile_rt_status rt_context_release(tile_rt_context *ctx);

/*===--- Tensor maps (tile_rt_tensormap.c) --------------------------------===*/

/// The cuTensorMapEncodeTiled operands for tensormap param `param` (index in
/// desc->params) over `memref`, after checking the TMA rules.
typedef struct rt_tensormap_shape {
  CUtensorMapDataType dtype;
  cuuint32_t rank;
  cuuint64_t dims[TILE_RT_MAX_RANK];        /* innermost first */
  cuuint64_t strides[TILE_RT_MAX_RANK - 1]; /* bytes, dims 1.. */
  cuuint32_t box[TILE_RT_MAX_RANK];
  cuuint32_t element_strides[TILE_RT_MAX_RANK];
  CUtensorMapSwizzle swizzle;
} rt_tensormap_shape;

/// Checks the TMA rules for tensormap param `param` of `desc` over `memref`
/// (host only) and fills `*out`; INVALID_ARGUMENT naming the kernel, the
/// argument and the offending value otherwise.
tile_rt_status rt_tensormap_shape_of(rt_tensormap_shape *out,
                                     const tile_rt_kernel_desc *desc, int param,
                                     const tile_rt_memref *memref);

/// Encodes `shape` over `base` into `*map` with cuTensorMapEncodeTiled.
tile_rt_status rt_tensormap_encode(CUtensorMap *map, const rt_driver *cu,
                                   const tile_rt_kernel_desc *desc, int param,
                                   const rt_tensormap_shape *shape,
                                   tile_rt_deviceptr base);

/*===--- Small helpers ----------------------------------------------------===*/

/// The bytes `m` spans from its pointer into `*out` (0 when a size is 0),
/// for a view already checked to have non-negative sizes and strides.
/// Returns 1 when that does not fit in 64 bits, else 0.
int rt_memref_span(uint64_t *out, const tile_rt_memref *m);

/// Monotonic seconds.
double rt_now_seconds(void);

/// Sleeps `seconds` (fractional).
void rt_sleep_seconds(double seconds);

#endif /* TILE_RT_INTERNAL_H */
