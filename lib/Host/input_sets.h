/*===- input_sets.h - Device inputs repeated to defeat the L2 -----*- C -*-===*
 *
 * A problem's input tensors on the GPU, in `nsets` identical sets laid out
 * back to back, so that launches rotating among the sets read their inputs
 * from DRAM rather than from the L2 the previous launch warmed
 * (docs/Performance.md, its opening). Every tensor starts on a 256-byte
 * boundary (TMA wants 16).
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_INPUT_SETS_H
#define TILE_TOOLS_INPUT_SETS_H

#include "tile-rt/tile_rt.h"

#include <stddef.h>

/* Rotating inputs through more than this many bytes keeps them out of the
 * H200's 50 MB L2 between launches. */
#define TOOL_ROTATE_BYTES ((size_t)128 << 20)
/* The most tensors one set holds. */
#define TOOL_MAX_INPUTS 8

/// The input sets of one problem; owns the device memory.
typedef struct tool_input_sets {
  tile_rt_context *ctx;
  int count;                      ///< Tensors per set.
  size_t bytes[TOOL_MAX_INPUTS];  ///< Size of each tensor.
  size_t offset[TOOL_MAX_INPUTS]; ///< Where each starts within a set.
  size_t stride;                  ///< Bytes from one set to the next.
  int nsets;                      ///< At least 1.
  tile_rt_deviceptr base;
} tool_input_sets;

/// Allocates sets of `count` tensors of `bytes[i]` bytes each (> 0), as many
/// sets as cover `rotate_bytes` (0: one set). Returns 0, or 1 after printing
/// why not.
int tool_input_sets_init(tool_input_sets *s, tile_rt_context *ctx,
                         const size_t *bytes, int count, size_t rotate_bytes);

/// Uploads `host[i]` (bytes[i] each) into set 0 and copies set 0 to the
/// others. Returns 0, or 1 after printing why not.
int tool_input_sets_upload(tool_input_sets *s, const void *const *host);

/// The device address of tensor `tensor` of set `set`.
tile_rt_deviceptr tool_input_sets_at(const tool_input_sets *s, int set,
                                     int tensor);

/// The bytes all sets take together.
size_t tool_input_sets_total(const tool_input_sets *s);

/// Frees the device memory. A zeroed `s` is a no-op.
void tool_input_sets_free(tool_input_sets *s);

#endif /* TILE_TOOLS_INPUT_SETS_H */
