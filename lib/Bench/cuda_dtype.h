/*===- cuda_dtype.h - Runtime dtypes as CUDA library data types ---*- C -*-===*
 *
 * The cudaDataType that cuBLAS and cuBLASLt take for a tile_rt dtype, shared
 * by both loaders.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_CUDA_DTYPE_H
#define TILE_TOOLS_CUDA_DTYPE_H

#include "tile-rt/tile_rt.h"

#include <library_types.h>

/// f16 and bf16 as themselves; everything else the benchmarks use is f32.
static inline cudaDataType tool_cuda_data_type(tile_rt_dtype t) {
  switch (t) {
  case TILE_RT_F16:
    return CUDA_R_16F;
  case TILE_RT_BF16:
    return CUDA_R_16BF;
  default:
    return CUDA_R_32F;
  }
}

#endif /* TILE_TOOLS_CUDA_DTYPE_H */
