/*===- tile_rt_error.c - Status names and the thread's last error -------===*
 *
 * One thread-local message per thread, set by every failing call.
 *
 *===----------------------------------------------------------------------===*/

#include "tile_rt_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Long enough for a JIT log excerpt plus a kernel name and a quoted line. */
#define RT_MESSAGE_BYTES 4096

static _Thread_local char rt_message[RT_MESSAGE_BYTES];

const char *tile_rt_status_name(tile_rt_status status) {
  switch (status) {
  case TILE_RT_SUCCESS:
    return "SUCCESS";
  case TILE_RT_ERROR_NO_DRIVER:
    return "NO_DRIVER";
  case TILE_RT_ERROR_NO_DEVICE:
    return "NO_DEVICE";
  case TILE_RT_ERROR_CUDA:
    return "CUDA";
  case TILE_RT_ERROR_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case TILE_RT_ERROR_PARSE:
    return "PARSE";
  case TILE_RT_ERROR_NOT_FOUND:
    return "NOT_FOUND";
  case TILE_RT_ERROR_IO:
    return "IO";
  case TILE_RT_ERROR_OUT_OF_MEMORY:
    return "OUT_OF_MEMORY";
  case TILE_RT_ERROR_UNSUPPORTED:
    return "UNSUPPORTED";
  case TILE_RT_ERROR_TIMEOUT:
    return "TIMEOUT";
  }
  return "UNKNOWN";
}

const char *tile_rt_last_error(void) { return rt_message; }

static void rt_vformat(char *at, size_t room, const char *fmt, va_list ap) {
  if (room == 0)
    return;
  int n = vsnprintf(at, room, fmt, ap);
  if (n < 0)
    at[0] = '\0';
}

tile_rt_status rt_error(tile_rt_status status, const char *fmt, ...) {
  /* Format into a scratch buffer first: arguments may point into
   * rt_message itself (a message being wrapped with more context). */
  char scratch[RT_MESSAGE_BYTES];
  va_list ap;
  va_start(ap, fmt);
  rt_vformat(scratch, sizeof scratch, fmt, ap);
  va_end(ap);
  memcpy(rt_message, scratch, sizeof rt_message);
  return status;
}

static tile_rt_status rt_status_of(CUresult result) {
  switch (result) {
  case CUDA_ERROR_OUT_OF_MEMORY:
    return TILE_RT_ERROR_OUT_OF_MEMORY;
  case CUDA_ERROR_NO_DEVICE:
  case CUDA_ERROR_INVALID_DEVICE:
    return TILE_RT_ERROR_NO_DEVICE;
  case CUDA_ERROR_NOT_FOUND:
    return TILE_RT_ERROR_NOT_FOUND;
  case CUDA_ERROR_NOT_SUPPORTED:
    return TILE_RT_ERROR_UNSUPPORTED;
  default:
    return TILE_RT_ERROR_CUDA;
  }
}

tile_rt_status rt_cuda_error(CUresult result, const char *call, const char *fmt,
                             ...) {
  char scratch[RT_MESSAGE_BYTES];
  size_t used = 0;
  if (fmt) {
    va_list ap;
    va_start(ap, fmt);
    rt_vformat(scratch, sizeof scratch, fmt, ap);
    va_end(ap);
    used = strlen(scratch);
    if (used + 2 < sizeof scratch) {
      memcpy(scratch + used, ": ", 3);
      used += 2;
    }
  }
  const char *name = NULL, *text = NULL;
  const rt_driver *cu = rt_driver_loaded();
  if (cu) {
    if (cu->cuGetErrorName(result, &name) != CUDA_SUCCESS)
      name = NULL;
    if (cu->cuGetErrorString(result, &text) != CUDA_SUCCESS)
      text = NULL;
  }
  if (name)
    snprintf(scratch + used, sizeof scratch - used, "%s failed: %s (%s)", call,
             name, text ? text : "no description");
  else
    snprintf(scratch + used, sizeof scratch - used, "%s failed: CUresult %d",
             call, (int)result);
  memcpy(rt_message, scratch, sizeof rt_message);
  return rt_status_of(result);
}
