/* Shared by the host tests of tile-tune's internals: a fake space's text
 * and the description of an H200, so that no GPU is needed. */
#ifndef TILE_TEST_TUNE_TEST_UTIL_H
#define TILE_TEST_TUNE_TEST_UTIL_H

#include "tune_internal.h"

#include <stdio.h>
#include <string.h>

/* Sets `b` to `text`, with its NUL when `nul` (as space_text keeps it). */
static inline void set_text(tool_buffer *b, const char *text, int nul) {
  b->size = 0;
  tool_buffer_append(b, text, strlen(text) + (nul ? 1 : 0));
}

/* An H200 as the driver describes it (CUDA 13.0). */
static inline tile_rt_device_info fake_h200(void) {
  tile_rt_device_info gpu;
  memset(&gpu, 0, sizeof gpu);
  snprintf(gpu.name, sizeof gpu.name, "NVIDIA H200");
  gpu.cc_major = 9;
  gpu.sm_count = 132;
  gpu.driver_version = 13000;
  return gpu;
}

#endif
