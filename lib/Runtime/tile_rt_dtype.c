/*===- tile_rt_dtype.c - Element types -------------------------------------===*
 *
 * The KernelABI.md dtype names and sizes.
 *
 *===----------------------------------------------------------------------===*/

#include "tile_rt_internal.h"

#include <string.h>

typedef struct rt_dtype_entry {
  const char *name;
  size_t size;
} rt_dtype_entry;

/* Indexed by tile_rt_dtype. */
static const rt_dtype_entry rt_dtypes[] = {
    [TILE_RT_F16] = {"f16", 2},
    [TILE_RT_BF16] = {"bf16", 2},
    [TILE_RT_F32] = {"f32", 4},
    [TILE_RT_F64] = {"f64", 8},
    [TILE_RT_I8] = {"i8", 1},
    [TILE_RT_I16] = {"i16", 2},
    [TILE_RT_I32] = {"i32", 4},
    [TILE_RT_I64] = {"i64", 8},
    [TILE_RT_F8E4M3FN] = {"f8E4M3FN", 1},
    [TILE_RT_F8E5M2] = {"f8E5M2", 1},
};

#define RT_NUM_DTYPES (sizeof rt_dtypes / sizeof rt_dtypes[0])

size_t tile_rt_dtype_size(tile_rt_dtype dtype) {
  if ((unsigned)dtype >= RT_NUM_DTYPES)
    return 0;
  return rt_dtypes[dtype].size;
}

const char *tile_rt_dtype_name(tile_rt_dtype dtype) {
  if ((unsigned)dtype >= RT_NUM_DTYPES)
    return "?";
  return rt_dtypes[dtype].name;
}

int rt_dtype_from_span(tile_rt_dtype *out, const char *name, size_t n) {
  for (size_t i = 0; i < RT_NUM_DTYPES; ++i) {
    if (strlen(rt_dtypes[i].name) == n &&
        memcmp(name, rt_dtypes[i].name, n) == 0) {
      *out = (tile_rt_dtype)i;
      return 0;
    }
  }
  return -1;
}

tile_rt_status tile_rt_dtype_from_name(tile_rt_dtype *out, const char *name) {
  if (!out)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_dtype_from_name: NULL output");
  if (name && rt_dtype_from_span(out, name, strlen(name)) == 0)
    return TILE_RT_SUCCESS;
  return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                  "unknown dtype '%s' (expected " RT_DTYPE_NAMES ")",
                  name ? name : "(null)");
}
