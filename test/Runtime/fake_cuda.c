/*===- fake_cuda.c - A fake libcuda for host-only runtime tests ----------===*
 *
 * See fake_cuda.h. Device memory is host memory; time advances 1.25 ms per
 * launch. Built three ways (FAKE_CUDA_VARIANT): 0, a current driver; 1, an
 * old one without cuTensorMapEncodeTiled and cuEventElapsedTime_v2; 2, a
 * broken one without cuLaunchKernel.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "fake_cuda.h"

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FAKE_CUDA_VARIANT
#define FAKE_CUDA_VARIANT 0
#endif

#define FAKE_EXPORT __attribute__((visibility("default")))

/* The simulated time one launch takes, in milliseconds. */
#define FAKE_LAUNCH_MS 1.25f

static int initialised;
static int device_count = 1;
static int hang;
static int fail_next_launch;
static float clock_ms;
static size_t expected_size[FAKE_CUDA_MAX_PARAMS];
static int expected_count;
static fake_cuda_launch last;
/* The primary context's lifetime: retains not yet released, and what lives
 * in it. A call that needs the context after its last release is counted
 * (and fails), so that tests see a wrong free order even where it does not
 * crash. */
static int primary_refs;
static int live_modules, live_allocations, live_streams, live_events;
static int calls_after_release;

/* The controls (see fake_cuda.h), declared here for -Wmissing-prototypes. */
FAKE_EXPORT void fake_cuda_expect_params(const size_t *sizes, int n);
FAKE_EXPORT const fake_cuda_launch *fake_cuda_last_launch(void);
FAKE_EXPORT void fake_cuda_set_hang(int h);
FAKE_EXPORT void fake_cuda_set_capturing(void *stream);
FAKE_EXPORT void fake_cuda_fail_next_launch(int result);
FAKE_EXPORT void fake_cuda_lifetime(fake_cuda_lifetime_counts *out);

FAKE_EXPORT void fake_cuda_expect_params(const size_t *sizes, int n) {
  expected_count = n < FAKE_CUDA_MAX_PARAMS ? n : FAKE_CUDA_MAX_PARAMS;
  memcpy(expected_size, sizes, (size_t)expected_count * sizeof *sizes);
}
FAKE_EXPORT const fake_cuda_launch *fake_cuda_last_launch(void) {
  return &last;
}
FAKE_EXPORT void fake_cuda_set_hang(int h) { hang = h; }
/* The one stream that reports itself capturing (NULL: none). */
static void *capturing_stream;
static int capturing_set;
FAKE_EXPORT void fake_cuda_set_capturing(void *stream) {
  capturing_stream = stream;
  capturing_set = 1;
}
FAKE_EXPORT void fake_cuda_fail_next_launch(int result) {
  fail_next_launch = result;
}
FAKE_EXPORT void fake_cuda_lifetime(fake_cuda_lifetime_counts *out) {
  out->primary_refs = primary_refs;
  out->modules = live_modules;
  out->allocations = live_allocations;
  out->streams = live_streams;
  out->events = live_events;
  out->calls_after_release = calls_after_release;
}

/* With $FAKE_CUDA_REPORT_AT_EXIT set, the counts when the process exits
 * (after an interpreter's shutdown, say) go to stderr. */
__attribute__((destructor)) static void fake_cuda_report_at_exit(void) {
  if (!getenv("FAKE_CUDA_REPORT_AT_EXIT"))
    return;
  fprintf(stderr,
          "fake-cuda at exit: primary refs %d, modules %d, allocations %d, "
          "streams %d, events %d, calls after release %d\n",
          primary_refs, live_modules, live_allocations, live_streams,
          live_events, calls_after_release);
}

/* Fails the calling entry point when the primary context is released. */
#define FAKE_NEED_CONTEXT()                                                    \
  do {                                                                         \
    if (primary_refs == 0) {                                                   \
      ++calls_after_release;                                                   \
      return CUDA_ERROR_CONTEXT_IS_DESTROYED;                                  \
    }                                                                          \
  } while (0)

/*===--- Errors -----------------------------------------------------------===*/

static const struct {
  CUresult code;
  const char *name, *text;
} errors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED",
     "initialization error"},
    {CUDA_ERROR_STUB_LIBRARY, "CUDA_ERROR_STUB_LIBRARY",
     "CUDA driver is a stub library"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE",
     "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE",
     "device kernel image is invalid"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
    {CUDA_ERROR_CONTEXT_IS_DESTROYED, "CUDA_ERROR_CONTEXT_IS_DESTROYED",
     "context is destroyed"},
};

FAKE_EXPORT CUresult cuGetErrorName(CUresult e, const char **s) {
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; ++i)
    if (errors[i].code == e) {
      *s = errors[i].name;
      return CUDA_SUCCESS;
    }
  *s = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuGetErrorString(CUresult e, const char **s) {
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; ++i)
    if (errors[i].code == e) {
      *s = errors[i].text;
      return CUDA_SUCCESS;
    }
  *s = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}

/*===--- Driver and device ------------------------------------------------===*/

FAKE_EXPORT CUresult cuInit(unsigned int flags) {
  (void)flags;
  const char *r = getenv("FAKE_CUDA_INIT_RESULT");
  const char *n = getenv("FAKE_CUDA_DEVICE_COUNT");
  if (n)
    device_count = atoi(n);
  if (r && atoi(r) != 0)
    return (CUresult)atoi(r);
  initialised = 1;
  return CUDA_SUCCESS;
}

#define FAKE_NEED_INIT()                                                       \
  do {                                                                         \
    if (!initialised)                                                          \
      return CUDA_ERROR_NOT_INITIALIZED;                                       \
  } while (0)

FAKE_EXPORT CUresult cuDriverGetVersion(int *v) {
  *v = 13000;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGetCount(int *n) {
  FAKE_NEED_INIT();
  *n = device_count;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal) {
  FAKE_NEED_INIT();
  if (ordinal < 0 || ordinal >= device_count)
    return CUDA_ERROR_INVALID_DEVICE;
  *d = ordinal;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
  (void)d;
  strncpy(name, "Fake H200", (size_t)len);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a,
                                          CUdevice d) {
  (void)d;
  switch (a) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *v = 9;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *v = 0;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *v = 132;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *v = 232448;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *v = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
    *v = 52428800;
    break;
  case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
    *v = 1980000;
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceTotalMem(size_t *bytes, CUdevice d) {
  (void)d;
  *bytes = (size_t)143771 << 20;
  return CUDA_SUCCESS;
}

static int fake_context_storage;

FAKE_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) {
  FAKE_NEED_INIT();
  (void)d;
  *c = (CUcontext)&fake_context_storage;
  ++primary_refs;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice d) {
  (void)d;
  FAKE_NEED_CONTEXT();
  --primary_refs;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxSetCurrent(CUcontext c) {
  if (c != (CUcontext)&fake_context_storage)
    return CUDA_ERROR_INVALID_VALUE;
  FAKE_NEED_CONTEXT();
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxSynchronize(void) {
  return hang ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS;
}

/*===--- Modules and functions --------------------------------------------===*/

typedef struct fake_function {
  char name[256];
  int static_smem;
  int max_dynamic_smem;
} fake_function;

typedef struct fake_module {
  int count;
  fake_function functions[16];
} fake_module;

FAKE_EXPORT CUresult cuModuleLoadDataEx(CUmodule *m, const void *image,
                                        unsigned int n, CUjit_option *options,
                                        void **values) {
  const char *text = image;
  if (strncmp(text, "FAKECUBIN", 9) != 0) {
    for (unsigned i = 0; i < n; ++i)
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
        strcpy(values[i], "ptxas fatal: not a FAKECUBIN image");
    return CUDA_ERROR_INVALID_IMAGE;
  }
  FAKE_NEED_CONTEXT();
  fake_module *fm = calloc(1, sizeof *fm);
  ++live_modules;
  const char *at = text + 9;
  while (*at == ' ' && fm->count < 16) {
    ++at;
    fake_function *f = &fm->functions[fm->count++];
    size_t len = strcspn(at, " @");
    memcpy(f->name, at, len < 255 ? len : 255);
    at += len;
    if (*at == '@') {
      char *end;
      f->static_smem = (int)strtol(at + 1, &end, 10);
      at += end - at;
    }
  }
  *m = (CUmodule)fm;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuModuleUnload(CUmodule m) {
  FAKE_NEED_CONTEXT();
  --live_modules;
  free(m);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuModuleGetFunction(CUfunction *f, CUmodule m,
                                         const char *name) {
  fake_module *fm = (fake_module *)m;
  for (int i = 0; i < fm->count; ++i)
    if (strcmp(fm->functions[i].name, name) == 0) {
      *f = (CUfunction)&fm->functions[i];
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}

FAKE_EXPORT CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a,
                                        int v) {
  if (a != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    return CUDA_ERROR_INVALID_VALUE;
  ((fake_function *)f)->max_dynamic_smem = v;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a,
                                        CUfunction f) {
  fake_function *ff = (fake_function *)f;
  switch (a) {
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    *v = 168;
    break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *v = ff->static_smem;
    break;
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    *v = 0;
    break;
  case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
    *v = 0;
    break;
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *v = 384;
    break;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    *v = ff->max_dynamic_smem;
    break;
  case CU_FUNC_ATTRIBUTE_PTX_VERSION:
    *v = 80;
    break;
  case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
    *v = 90;
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

#if FAKE_CUDA_VARIANT != 2
/* Records a launch as the driver would accept it. */
static CUresult record_launch(CUfunction f, const unsigned grid[3],
                              const unsigned block[3],
                              const unsigned cluster[3], unsigned smem,
                              CUstream s, void **params) {
  if (fail_next_launch) {
    CUresult r = (CUresult)fail_next_launch;
    fail_next_launch = 0;
    return r;
  }
  fake_function *ff = (fake_function *)f;
  if ((int)smem > ff->max_dynamic_smem && smem > 48 * 1024)
    return CUDA_ERROR_INVALID_VALUE;
  ++last.count;
  last.stream = (uintptr_t)s;
  strcpy(last.function, ff->name);
  for (int i = 0; i < 3; ++i) {
    last.grid[i] = grid[i];
    last.block[i] = block[i];
    last.cluster[i] = cluster[i];
  }
  last.smem = smem;
  size_t used = 0;
  last.nparams = 0;
  for (int i = 0; i < expected_count; ++i) {
    if (used + expected_size[i] > sizeof last.bytes)
      break;
    last.offset[i] = used;
    last.size[i] = expected_size[i];
    last.address[i] = (uintptr_t)params[i];
    memcpy(last.bytes + used, params[i], expected_size[i]);
    used += expected_size[i];
    ++last.nparams;
  }
  clock_ms += FAKE_LAUNCH_MS;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy,
                                    unsigned gz, unsigned bx, unsigned by,
                                    unsigned bz, unsigned smem, CUstream s,
                                    void **params, void **extra) {
  if (extra)
    return CUDA_ERROR_INVALID_VALUE;
  const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  const unsigned one[3] = {1, 1, 1};
  return record_launch(f, grid, block, one, smem, s, params);
}

#if FAKE_CUDA_VARIANT == 0
/* As a real driver: a cluster dimension must divide the grid's. The old
 * driver (variant 1) has no cuLaunchKernelEx. */
FAKE_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *config,
                                      CUfunction f, void **params,
                                      void **extra) {
  if (extra || !config)
    return CUDA_ERROR_INVALID_VALUE;
  const unsigned grid[3] = {config->gridDimX, config->gridDimY,
                            config->gridDimZ};
  const unsigned block[3] = {config->blockDimX, config->blockDimY,
                             config->blockDimZ};
  unsigned cluster[3] = {1, 1, 1};
  for (unsigned i = 0; i < config->numAttrs; ++i)
    if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
      cluster[0] = config->attrs[i].value.clusterDim.x;
      cluster[1] = config->attrs[i].value.clusterDim.y;
      cluster[2] = config->attrs[i].value.clusterDim.z;
    }
  for (int i = 0; i < 3; ++i)
    if (cluster[i] == 0 || grid[i] % cluster[i] != 0)
      return CUDA_ERROR_INVALID_CLUSTER_SIZE;
  return record_launch(f, grid, block, cluster, config->sharedMemBytes,
                       config->hStream, params);
}
#endif
#endif

#if FAKE_CUDA_VARIANT == 0
static uint64_t pack10(const cuuint32_t *v, cuuint32_t n) {
  uint64_t w = 0;
  for (cuuint32_t i = 0; i < n; ++i)
    w |= (uint64_t)(v[i] & 0x3ff) << (10 * i);
  return w;
}

FAKE_EXPORT CUresult cuTensorMapEncodeTiled(
    CUtensorMap *map, CUtensorMapDataType dtype, cuuint32_t rank, void *base,
    const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
    const cuuint32_t *estrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
    CUtensorMapFloatOOBfill oob) {
  if (((uintptr_t)map % 64) != 0 || rank < 1 || rank > 5)
    return CUDA_ERROR_INVALID_VALUE;
  memset(map, 0, sizeof *map);
  cuuint64_t *w = map->opaque;
  w[FAKE_MAP_ADDRESS] = (cuuint64_t)(uintptr_t)base;
  w[FAKE_MAP_DTYPE] = (cuuint64_t)dtype;
  w[FAKE_MAP_RANK] = rank;
  for (cuuint32_t i = 0; i < rank; ++i)
    w[FAKE_MAP_DIMS + i] = dims[i];
  for (cuuint32_t i = 0; i + 1 < rank; ++i)
    w[FAKE_MAP_STRIDES + i] = strides[i];
  w[FAKE_MAP_BOX] = pack10(box, rank);
  w[FAKE_MAP_ESTRIDES] = pack10(estrides, rank);
  w[FAKE_MAP_MODES] = (cuuint64_t)interleave | (cuuint64_t)swizzle << 8 |
                      (cuuint64_t)l2 << 16 | (cuuint64_t)oob << 24;
  w[FAKE_MAP_MAGIC] = FAKE_MAP_MAGIC_VALUE;
  return CUDA_SUCCESS;
}
#endif

/*===--- Memory -----------------------------------------------------------===*/

/* Allocations above this fail, to exercise the out-of-memory path. */
#define FAKE_MAX_ALLOC ((size_t)1 << 36)

FAKE_EXPORT CUresult cuMemAlloc(CUdeviceptr *p, size_t n) {
  FAKE_NEED_CONTEXT();
  if (n > FAKE_MAX_ALLOC)
    return CUDA_ERROR_OUT_OF_MEMORY;
  void *m = aligned_alloc(256, (n + 255) / 256 * 256);
  if (!m)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *p = (CUdeviceptr)(uintptr_t)m;
  ++live_allocations;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemFree(CUdeviceptr p) {
  FAKE_NEED_CONTEXT();
  --live_allocations;
  free((void *)(uintptr_t)p);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) {
  memcpy((void *)(uintptr_t)d, s, n);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n) {
  memcpy(d, (const void *)(uintptr_t)s, n);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyDtoD(CUdeviceptr d, CUdeviceptr s, size_t n) {
  memmove((void *)(uintptr_t)d, (const void *)(uintptr_t)s, n);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemsetD8(CUdeviceptr d, unsigned char v, size_t n) {
  memset((void *)(uintptr_t)d, v, n);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemsetD16(CUdeviceptr d, unsigned short v, size_t n) {
  unsigned short *p = (unsigned short *)(uintptr_t)d;
  for (size_t i = 0; i < n; ++i)
    p[i] = v;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemsetD32(CUdeviceptr d, unsigned int v, size_t n) {
  unsigned int *p = (unsigned int *)(uintptr_t)d;
  for (size_t i = 0; i < n; ++i)
    p[i] = v;
  return CUDA_SUCCESS;
}

/*===--- Streams and events -----------------------------------------------===*/

static int fake_stream_storage[8];
static int fake_streams;

FAKE_EXPORT CUresult cuStreamCreate(CUstream *s, unsigned int flags) {
  (void)flags;
  FAKE_NEED_CONTEXT();
  *s = (CUstream)&fake_stream_storage[fake_streams++ % 8];
  ++live_streams;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuStreamDestroy(CUstream s) {
  (void)s;
  FAKE_NEED_CONTEXT();
  --live_streams;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuStreamQuery(CUstream s) {
  /* A real driver fails the query and invalidates the capture. */
  if (capturing_set && (void *)s == capturing_stream)
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  return hang ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuStreamIsCapturing(CUstream s,
                                         CUstreamCaptureStatus *status) {
  *status = capturing_set && (void *)s == capturing_stream
                ? CU_STREAM_CAPTURE_STATUS_ACTIVE
                : CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}

typedef struct fake_event {
  float at_ms;
  int recorded;
} fake_event;

FAKE_EXPORT CUresult cuEventCreate(CUevent *e, unsigned int flags) {
  (void)flags;
  FAKE_NEED_CONTEXT();
  *e = (CUevent)calloc(1, sizeof(fake_event));
  ++live_events;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuEventDestroy(CUevent e) {
  FAKE_NEED_CONTEXT();
  --live_events;
  free(e);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuEventRecord(CUevent e, CUstream s) {
  (void)s;
  ((fake_event *)e)->at_ms = clock_ms;
  ((fake_event *)e)->recorded = 1;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuEventQuery(CUevent e) {
  (void)e;
  return hang ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

static CUresult fake_elapsed(float *ms, CUevent a, CUevent b) {
  if (!((fake_event *)a)->recorded || !((fake_event *)b)->recorded)
    return CUDA_ERROR_INVALID_VALUE; /* the driver's answer, too */
  *ms = ((fake_event *)b)->at_ms - ((fake_event *)a)->at_ms;
  return CUDA_SUCCESS;
}

#if FAKE_CUDA_VARIANT == 0
FAKE_EXPORT CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
  return fake_elapsed(ms, a, b);
}
#else
/* Old drivers export only the unversioned symbol. */
#undef cuEventElapsedTime
FAKE_EXPORT CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b);
FAKE_EXPORT CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
  return fake_elapsed(ms, a, b);
}
#endif
