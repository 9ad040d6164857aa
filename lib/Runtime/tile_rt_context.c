/*===- tile_rt_context.c - Devices and primary contexts -------------------===*
 *
 * A context is the device's primary context (cuDevicePrimaryCtxRetain +
 * cuCtxSetCurrent): the one the CUDA runtime and libraries such as cuBLAS
 * use too, and the one API whose signature did not change in CUDA 13
 * (cuCtxCreate did).
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "tile_rt_internal.h"

#include <stdlib.h>
#include <string.h>

tile_rt_status tile_rt_device_count(int *out) {
  if (!out)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_device_count: NULL output");
  *out = 0;
  const rt_driver *cu;
  tile_rt_status st = rt_driver_get(&cu);
  if (st == TILE_RT_ERROR_NO_DEVICE)
    return TILE_RT_SUCCESS; /* a working driver that sees no GPU: 0 */
  if (st != TILE_RT_SUCCESS)
    return st;
  CUresult r = cu->cuDeviceGetCount(out);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuDeviceGetCount", NULL);
  return TILE_RT_SUCCESS;
}

static tile_rt_status rt_attribute(int *out, const rt_driver *cu,
                                   CUdevice_attribute attribute,
                                   const char *what, CUdevice device) {
  CUresult r = cu->cuDeviceGetAttribute(out, attribute, device);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuDeviceGetAttribute", "device attribute %s",
                         what);
  return TILE_RT_SUCCESS;
}

static tile_rt_status rt_read_device_info(tile_rt_device_info *info,
                                          const rt_driver *cu, CUdevice dev,
                                          int ordinal) {
  memset(info, 0, sizeof *info);
  info->ordinal = ordinal;
  CUresult r = cu->cuDeviceGetName(info->name, (int)sizeof info->name, dev);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuDeviceGetName", "device %d", ordinal);
  info->name[sizeof info->name - 1] = '\0';
  r = cu->cuDeviceTotalMem(&info->total_memory, dev);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuDeviceTotalMem", "device %d", ordinal);
  r = cu->cuDriverGetVersion(&info->driver_version);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuDriverGetVersion", "device %d", ordinal);
  struct {
    int *out;
    CUdevice_attribute attribute;
    const char *what;
  } wanted[] = {
      {&info->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
       "COMPUTE_CAPABILITY_MAJOR"},
      {&info->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
       "COMPUTE_CAPABILITY_MINOR"},
      {&info->sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
       "MULTIPROCESSOR_COUNT"},
      {&info->max_smem_optin,
       CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"},
      {&info->max_threads_per_block, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
       "MAX_THREADS_PER_BLOCK"},
      {&info->l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2_CACHE_SIZE"},
      {&info->clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, "CLOCK_RATE"},
  };
  for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; ++i) {
    tile_rt_status st = rt_attribute(wanted[i].out, cu, wanted[i].attribute,
                                     wanted[i].what, dev);
    if (st != TILE_RT_SUCCESS)
      return st;
  }
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_context_create(tile_rt_context **out, int ordinal) {
  if (!out)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_context_create: NULL output");
  *out = NULL;
  const rt_driver *cu;
  tile_rt_status st = rt_driver_get(&cu);
  if (st != TILE_RT_SUCCESS)
    return st;
  int count = 0;
  CUresult r = cu->cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuDeviceGetCount", NULL);
  if (ordinal < 0 || ordinal >= count)
    return rt_error(TILE_RT_ERROR_NO_DEVICE,
                    "no GPU with ordinal %d: the driver sees %d", ordinal,
                    count);
  tile_rt_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx)
    return rt_error(TILE_RT_ERROR_OUT_OF_MEMORY, "out of host memory");
  ctx->cu = cu;
  atomic_init(&ctx->refs, 1);
  r = cu->cuDeviceGet(&ctx->device, ordinal);
  if (r != CUDA_SUCCESS) {
    free(ctx);
    return rt_cuda_error(r, "cuDeviceGet", "device %d", ordinal);
  }
  r = cu->cuDevicePrimaryCtxRetain(&ctx->context, ctx->device);
  if (r != CUDA_SUCCESS) {
    free(ctx);
    return rt_cuda_error(r, "cuDevicePrimaryCtxRetain", "device %d", ordinal);
  }
  r = cu->cuCtxSetCurrent(ctx->context);
  if (r == CUDA_SUCCESS)
    st = rt_read_device_info(&ctx->info, cu, ctx->device, ordinal);
  else
    st = rt_cuda_error(r, "cuCtxSetCurrent", "device %d", ordinal);
  if (st != TILE_RT_SUCCESS) {
    cu->cuDevicePrimaryCtxRelease(ctx->device);
    free(ctx);
    return st;
  }
  *out = ctx;
  return TILE_RT_SUCCESS;
}

void rt_context_retain(tile_rt_context *ctx) {
  atomic_fetch_add_explicit(&ctx->refs, 1, memory_order_relaxed);
}

tile_rt_status rt_context_release(tile_rt_context *ctx) {
  if (atomic_fetch_sub_explicit(&ctx->refs, 1, memory_order_acq_rel) != 1)
    return TILE_RT_SUCCESS;
  CUresult r = ctx->cu->cuDevicePrimaryCtxRelease(ctx->device);
  int ordinal = ctx->info.ordinal;
  free(ctx);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuDevicePrimaryCtxRelease", "device %d", ordinal);
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_context_free(tile_rt_context *ctx) {
  if (!ctx)
    return TILE_RT_SUCCESS;
  return rt_context_release(ctx);
}

tile_rt_status tile_rt_context_device_info(tile_rt_device_info *out,
                                           const tile_rt_context *ctx) {
  if (!out || !ctx)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_context_device_info: NULL argument");
  *out = ctx->info;
  return TILE_RT_SUCCESS;
}

tile_rt_status rt_bind(tile_rt_context *ctx) {
  CUresult r = ctx->cu->cuCtxSetCurrent(ctx->context);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuCtxSetCurrent", "device %d", ctx->info.ordinal);
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_context_make_current(tile_rt_context *ctx) {
  if (!ctx)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_context_make_current: NULL context");
  return rt_bind(ctx);
}
