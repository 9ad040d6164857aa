/*===- tile_rt_tensormap.c - TMA descriptors: check the rules, encode -----===*
 *
 * Builds the cuTensorMapEncodeTiled operands of a `param tensormap` line over
 * a memref argument (docs/KernelABI.md) and checks the TMA rules first, so
 * that a bad view gives a message naming the kernel, the argument and the
 * value instead of the driver's bare CUDA_ERROR_INVALID_VALUE.
 *
 *===----------------------------------------------------------------------===*/

#include "tile_rt_internal.h"

#include <string.h>

/* The TMA rules, from the cuTensorMapEncodeTiled reference (CUDA Driver API,
 * "Tensor Map Object Management"): */
#define RT_TMA_BASE_ALIGN 16             /* globalAddress alignment */
#define RT_TMA_STRIDE_ALIGN 16           /* globalStrides[i] % 16 == 0 */
#define RT_TMA_STRIDE_LIMIT (1ULL << 40) /* globalStrides[i] < 2^40 */
#define RT_TMA_DIM_LIMIT (1ULL << 32)    /* 0 < globalDim[i] <= 2^32 */
#define RT_TMA_BOX_LIMIT 256             /* 0 < boxDim[i] <= 256 */
#define RT_TMA_INNER_BOX_ALIGN 16        /* boxDim[0] * elemsize % 16 == 0 */

static CUtensorMapDataType rt_tma_dtype(tile_rt_dtype dtype) {
  switch (dtype) {
  case TILE_RT_F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case TILE_RT_BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case TILE_RT_F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case TILE_RT_F64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  case TILE_RT_I8: /* TMA moves bits: the unsigned type of the same width */
  case TILE_RT_F8E4M3FN:
  case TILE_RT_F8E5M2:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case TILE_RT_I16:
    return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  case TILE_RT_I32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case TILE_RT_I64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64;
  }
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

static CUtensorMapSwizzle rt_tma_swizzle(int bytes) {
  switch (bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

/* The byte stride of memref dimension `md`: a positive multiple of 16
 * below 2^40, computed without wrapping (2^62 + 4 f32 elements is not 16
 * bytes). */
static tile_rt_status rt_tma_stride(cuuint64_t *out,
                                    const tile_rt_kernel_desc *desc, int param,
                                    int md, int64_t stride, size_t esize) {
  const char *k = desc->name;
  int arg = desc->params[param].arg;
  uint64_t bytes = 0;
  if (stride > 0 && rt_mul_u64(&bytes, (uint64_t)stride, esize))
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' argument %d (tensormap param %d): "
                    "strides[%d] = %lld elements overflows 64 bits in bytes, "
                    "TMA needs a positive multiple of %d bytes below 2^40",
                    k, arg, param, md, (long long)stride, RT_TMA_STRIDE_ALIGN);
  if (stride <= 0 || bytes % RT_TMA_STRIDE_ALIGN != 0 ||
      bytes >= RT_TMA_STRIDE_LIMIT)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' argument %d (tensormap param %d): "
                    "strides[%d] = %lld elements = %llu bytes, TMA needs a "
                    "positive multiple of %d bytes below 2^40",
                    k, arg, param, md, (long long)stride,
                    (unsigned long long)bytes, RT_TMA_STRIDE_ALIGN);
  *out = bytes;
  return TILE_RT_SUCCESS;
}

tile_rt_status rt_tensormap_shape_of(rt_tensormap_shape *out,
                                     const tile_rt_kernel_desc *desc, int param,
                                     const tile_rt_memref *m) {
  const tile_rt_param_desc *d = &desc->params[param];
  const char *k = desc->name;
  int arg = d->arg;
  size_t esize = tile_rt_dtype_size(d->dtype);
  if (m->dtype != d->dtype || m->rank != d->rank)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' argument %d (tensormap param %d): expected "
                    "%s rank %d, got %s rank %d",
                    k, arg, param, tile_rt_dtype_name(d->dtype), d->rank,
                    tile_rt_dtype_name(m->dtype), m->rank);
  if (m->ptr % RT_TMA_BASE_ALIGN != 0)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' argument %d (tensormap param %d): base "
                    "address 0x%llx is not %d-byte aligned (TMA)",
                    k, arg, param, (unsigned long long)m->ptr,
                    RT_TMA_BASE_ALIGN);
  int r = d->rank;
  if (m->strides[r - 1] != 1)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' argument %d (tensormap param %d): innermost "
                    "stride is %lld elements, TMA needs 1",
                    k, arg, param, (long long)m->strides[r - 1]);
  memset(out, 0, sizeof *out);
  out->dtype = rt_tma_dtype(d->dtype);
  out->rank = (cuuint32_t)r;
  out->swizzle = rt_tma_swizzle(d->swizzle);
  for (int i = 0; i < r; ++i) {
    /* Dimension i of the map (innermost first) is memref dimension r-1-i. */
    int md = r - 1 - i;
    int64_t size = m->sizes[md];
    if (size <= 0 || (uint64_t)size > RT_TMA_DIM_LIMIT)
      return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                      "kernel '%s' argument %d (tensormap param %d): "
                      "sizes[%d] = %lld, TMA needs 1..2^32",
                      k, arg, param, md, (long long)size);
    out->dims[i] = (cuuint64_t)size;
    if (d->box[i] < 1 || d->box[i] > RT_TMA_BOX_LIMIT)
      return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                      "kernel '%s' argument %d (tensormap param %d): box "
                      "dimension %d is %u, TMA needs 1..%d",
                      k, arg, param, i, d->box[i], RT_TMA_BOX_LIMIT);
    out->box[i] = d->box[i];
    out->element_strides[i] = 1;
    if (i == 0)
      continue;
    RT_TRY(rt_tma_stride(&out->strides[i - 1], desc, param, md, m->strides[md],
                         esize));
  }
  size_t inner = d->box[0] * esize;
  if (inner % RT_TMA_INNER_BOX_ALIGN != 0)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' argument %d (tensormap param %d): inner box "
                    "row is %zu bytes, TMA needs a multiple of %d",
                    k, arg, param, inner, RT_TMA_INNER_BOX_ALIGN);
  if (d->swizzle != 0 && inner > (size_t)d->swizzle)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' argument %d (tensormap param %d): inner box "
                    "row is %zu bytes, above the %d-byte swizzle span (TMA)",
                    k, arg, param, inner, d->swizzle);
  return TILE_RT_SUCCESS;
}

tile_rt_status rt_tensormap_encode(CUtensorMap *map, const rt_driver *cu,
                                   const tile_rt_kernel_desc *desc, int param,
                                   const rt_tensormap_shape *s,
                                   tile_rt_deviceptr base) {
  if (!cu->cuTensorMapEncodeTiled)
    return rt_error(TILE_RT_ERROR_UNSUPPORTED,
                    "kernel '%s' uses a TMA descriptor, but the CUDA driver "
                    "has no cuTensorMapEncodeTiled (needs CUDA 12)",
                    desc->name);
  /* KernelABI.md: element strides 1, no interleave, L2 promotion 256B,
   * out-of-bound elements read as zero. */
  CUresult r = cu->cuTensorMapEncodeTiled(
      map, s->dtype, s->rank, (void *)(uintptr_t)base, s->dims, s->strides,
      s->box, s->element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, s->swizzle,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuTensorMapEncodeTiled",
                         "kernel '%s' argument %d (tensormap param %d)",
                         desc->name, desc->params[param].arg, param);
  return TILE_RT_SUCCESS;
}
