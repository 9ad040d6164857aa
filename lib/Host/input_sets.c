/*===- input_sets.c - Device inputs repeated to defeat the L2 -------------===*/

#include "input_sets.h"

#include "host_util.h"

#include <string.h>

/* Device tensors start on this boundary. */
#define SETS_ALIGN 256
/* At most this many sets. */
#define SETS_MAX 4096

static size_t sets_align(size_t bytes) {
  return (bytes + SETS_ALIGN - 1) / SETS_ALIGN * SETS_ALIGN;
}

int tool_input_sets_init(tool_input_sets *s, tile_rt_context *ctx,
                         const size_t *bytes, int count, size_t rotate_bytes) {
  memset(s, 0, sizeof *s);
  if (count <= 0 || count > TOOL_MAX_INPUTS)
    return tool_fail("input sets of %d tensors (1 to %d)", count,
                     TOOL_MAX_INPUTS);
  s->ctx = ctx;
  s->count = count;
  for (int i = 0; i < count; ++i) {
    if (bytes[i] == 0)
      return tool_fail("input tensor %d is empty", i);
    s->bytes[i] = bytes[i];
    s->offset[i] = s->stride;
    s->stride += sets_align(bytes[i]);
  }
  s->nsets = 1;
  if (rotate_bytes > s->stride) {
    size_t sets = rotate_bytes / s->stride + 1;
    s->nsets = sets > SETS_MAX ? SETS_MAX : (int)sets;
  }
  tile_rt_status st =
      tile_rt_mem_alloc(&s->base, ctx, tool_input_sets_total(s));
  if (st != TILE_RT_SUCCESS) {
    s->base = 0;
    return tool_rt_fail("allocating the inputs", st);
  }
  return 0;
}

int tool_input_sets_upload(tool_input_sets *s, const void *const *host) {
  tile_rt_status st = TILE_RT_SUCCESS;
  for (int i = 0; st == TILE_RT_SUCCESS && i < s->count; ++i)
    st = tile_rt_mem_htod(s->ctx, tool_input_sets_at(s, 0, i), host[i],
                          s->bytes[i]);
  for (int set = 1; st == TILE_RT_SUCCESS && set < s->nsets; ++set)
    st = tile_rt_mem_dtod(s->ctx, s->base + (size_t)set * s->stride, s->base,
                          s->stride);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("uploading the inputs", st);
}

tile_rt_deviceptr tool_input_sets_at(const tool_input_sets *s, int set,
                                     int tensor) {
  return s->base + (size_t)set * s->stride + s->offset[tensor];
}

size_t tool_input_sets_total(const tool_input_sets *s) {
  return (size_t)s->nsets * s->stride;
}

void tool_input_sets_free(tool_input_sets *s) {
  if (s->ctx)
    tile_rt_mem_free(s->ctx, s->base);
  memset(s, 0, sizeof *s);
}
