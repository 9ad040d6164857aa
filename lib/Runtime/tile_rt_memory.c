/*===- tile_rt_memory.c - Device memory ------------------------------------===*
 *
 * Synchronous allocation, copies and fills on the default stream.
 *
 *===----------------------------------------------------------------------===*/

#include "tile_rt_internal.h"

static tile_rt_status rt_check_ctx(tile_rt_context *ctx, const char *fn) {
  if (!ctx)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT, "%s: NULL context", fn);
  return rt_bind(ctx);
}

/* `bytes` from device address `ptr` stay within the address space. */
static tile_rt_status rt_check_span(const char *fn, tile_rt_deviceptr ptr,
                                    uint64_t bytes) {
  uint64_t end;
  if (rt_add_u64(&end, ptr, bytes))
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "%s: %llu bytes from 0x%llx wrap around the end of the "
                    "address space",
                    fn, (unsigned long long)bytes, (unsigned long long)ptr);
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_mem_alloc(tile_rt_deviceptr *out, tile_rt_context *ctx,
                                 size_t bytes) {
  if (!out)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_mem_alloc: NULL output");
  *out = 0;
  RT_TRY(rt_check_ctx(ctx, "tile_rt_mem_alloc"));
  if (bytes == 0)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_mem_alloc: zero bytes requested");
  CUdeviceptr p = 0;
  CUresult r = ctx->cu->cuMemAlloc(&p, bytes);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuMemAlloc", "allocating %zu bytes", bytes);
  rt_context_retain(ctx); /* until the allocation is freed */
  *out = (tile_rt_deviceptr)p;
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_mem_free(tile_rt_context *ctx, tile_rt_deviceptr ptr) {
  if (ptr == 0)
    return TILE_RT_SUCCESS;
  RT_TRY(rt_check_ctx(ctx, "tile_rt_mem_free"));
  CUresult r = ctx->cu->cuMemFree((CUdeviceptr)ptr);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuMemFree", "freeing 0x%llx",
                         (unsigned long long)ptr);
  return rt_context_release(ctx);
}

tile_rt_status tile_rt_mem_htod(tile_rt_context *ctx, tile_rt_deviceptr dst,
                                const void *src, size_t bytes) {
  RT_TRY(rt_check_ctx(ctx, "tile_rt_mem_htod"));
  if (bytes == 0)
    return TILE_RT_SUCCESS;
  if (!src || !dst)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_mem_htod: NULL pointer");
  RT_TRY(rt_check_span("tile_rt_mem_htod", dst, bytes));
  CUresult r = ctx->cu->cuMemcpyHtoD((CUdeviceptr)dst, src, bytes);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuMemcpyHtoD", "copying %zu bytes to 0x%llx",
                         bytes, (unsigned long long)dst);
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_mem_dtoh(tile_rt_context *ctx, void *dst,
                                tile_rt_deviceptr src, size_t bytes) {
  RT_TRY(rt_check_ctx(ctx, "tile_rt_mem_dtoh"));
  if (bytes == 0)
    return TILE_RT_SUCCESS;
  if (!src || !dst)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_mem_dtoh: NULL pointer");
  RT_TRY(rt_check_span("tile_rt_mem_dtoh", src, bytes));
  CUresult r = ctx->cu->cuMemcpyDtoH(dst, (CUdeviceptr)src, bytes);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuMemcpyDtoH", "copying %zu bytes from 0x%llx",
                         bytes, (unsigned long long)src);
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_mem_dtod(tile_rt_context *ctx, tile_rt_deviceptr dst,
                                tile_rt_deviceptr src, size_t bytes) {
  RT_TRY(rt_check_ctx(ctx, "tile_rt_mem_dtod"));
  if (bytes == 0)
    return TILE_RT_SUCCESS;
  if (!src || !dst)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_mem_dtod: NULL pointer");
  RT_TRY(rt_check_span("tile_rt_mem_dtod", src, bytes));
  RT_TRY(rt_check_span("tile_rt_mem_dtod", dst, bytes));
  CUresult r = ctx->cu->cuMemcpyDtoD((CUdeviceptr)dst, (CUdeviceptr)src, bytes);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuMemcpyDtoD",
                         "copying %zu bytes from 0x%llx to 0x%llx", bytes,
                         (unsigned long long)src, (unsigned long long)dst);
  return TILE_RT_SUCCESS;
}

/* The memsets of `count` elements of `width` bytes (1, 2 or 4): the checks
 * and the error report are shared, the driver call is the width's. */
static tile_rt_status rt_mem_set(tile_rt_context *ctx, const char *fn,
                                 tile_rt_deviceptr dst, unsigned width,
                                 uint32_t value, size_t count) {
  RT_TRY(rt_check_ctx(ctx, fn));
  if (count == 0)
    return TILE_RT_SUCCESS;
  if (!dst)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT, "%s: NULL pointer", fn);
  if (dst % width != 0)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "%s: 0x%llx is not %u-byte aligned", fn,
                    (unsigned long long)dst, width);
  uint64_t bytes;
  if (rt_mul_u64(&bytes, count, width))
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "%s: %zu words of %u bytes overflow 64 bits", fn, count,
                    width);
  RT_TRY(rt_check_span(fn, dst, bytes));
  CUresult r;
  const char *call;
  switch (width) {
  case 1:
    call = "cuMemsetD8";
    r = ctx->cu->cuMemsetD8((CUdeviceptr)dst, (unsigned char)value, count);
    break;
  case 2:
    call = "cuMemsetD16";
    r = ctx->cu->cuMemsetD16((CUdeviceptr)dst, (unsigned short)value, count);
    break;
  default:
    call = "cuMemsetD32";
    r = ctx->cu->cuMemsetD32((CUdeviceptr)dst, value, count);
    break;
  }
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, call, "setting %zu %s at 0x%llx", count,
                         width == 1 ? "bytes" : "words",
                         (unsigned long long)dst);
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_mem_set8(tile_rt_context *ctx, tile_rt_deviceptr dst,
                                uint8_t value, size_t count) {
  return rt_mem_set(ctx, "tile_rt_mem_set8", dst, 1, value, count);
}

tile_rt_status tile_rt_mem_set16(tile_rt_context *ctx, tile_rt_deviceptr dst,
                                 uint16_t value, size_t count) {
  return rt_mem_set(ctx, "tile_rt_mem_set16", dst, 2, value, count);
}

tile_rt_status tile_rt_mem_set32(tile_rt_context *ctx, tile_rt_deviceptr dst,
                                 uint32_t value, size_t count) {
  return rt_mem_set(ctx, "tile_rt_mem_set32", dst, 4, value, count);
}
