/*===- tile_rt_launch.c - Marshal parameters and launch -------------------===*
 *
 * Lays the kernel parameters out exactly as docs/KernelABI.md says: for each
 * argument in order, a memref as its u64 pointer, i64 sizes and i64 strides,
 * a scalar by value; then each tensor map, by value, as 128-byte CUtensorMap
 * storage (aligned as cuda.h declares it, at least the 64 bytes the
 * `.param .align 64 .b8 [128]` parameter needs).
 *
 *===----------------------------------------------------------------------===*/

#include "tile_rt_internal.h"

#include <stdio.h>
#include <string.h>

/* Kernel parameter slots: a rank-r memref takes 1 + 2r. */
#define RT_MAX_SLOTS (TILE_RT_MAX_PARAMS * (1 + 2 * TILE_RT_MAX_RANK))

_Static_assert(_Alignof(CUtensorMap) >= 64,
               "tensor map parameters need 64-byte aligned storage");

typedef union rt_word {
  uint64_t u64;
  int64_t i64;
  int32_t i32;
  float f32;
} rt_word;

typedef struct rt_params {
  void *slot[RT_MAX_SLOTS];
  int nslots;
  rt_word word[RT_MAX_SLOTS];
  CUtensorMap map[TILE_RT_MAX_PARAMS];
  int nmaps;
} rt_params;

static void *rt_push(rt_params *p, rt_word w) {
  p->word[p->nslots] = w;
  p->slot[p->nslots] = &p->word[p->nslots];
  return p->slot[p->nslots++];
}

static tile_rt_status rt_marshal(rt_params *p, const rt_driver *cu,
                                 const tile_rt_kernel_desc *desc,
                                 const tile_rt_arg *args) {
  p->nslots = p->nmaps = 0;
  for (int i = 0; i < desc->nparams; ++i) {
    const tile_rt_param_desc *d = &desc->params[i];
    const tile_rt_arg *a = &args[d->arg];
    rt_word w;
    memset(&w, 0, sizeof w);
    switch (d->kind) {
    case TILE_RT_PARAM_MEMREF:
      w.u64 = a->u.memref.ptr;
      rt_push(p, w);
      for (int k = 0; k < d->rank; ++k) {
        w.i64 = a->u.memref.sizes[k];
        rt_push(p, w);
      }
      for (int k = 0; k < d->rank; ++k) {
        w.i64 = a->u.memref.strides[k];
        rt_push(p, w);
      }
      break;
    case TILE_RT_PARAM_SCALAR:
      if (d->dtype == TILE_RT_I32)
        w.i32 = a->u.i32;
      else if (d->dtype == TILE_RT_I64)
        w.i64 = a->u.i64;
      else
        w.f32 = a->u.f32;
      rt_push(p, w);
      break;
    case TILE_RT_PARAM_TENSORMAP: {
      rt_tensormap_shape shape;
      RT_TRY(rt_tensormap_shape_of(&shape, desc, i, &a->u.memref));
      CUtensorMap *map = &p->map[p->nmaps++];
      RT_TRY(rt_tensormap_encode(map, cu, desc, i, &shape, a->u.memref.ptr));
      p->slot[p->nslots++] = map;
      break;
    }
    }
  }
  return TILE_RT_SUCCESS;
}

/* Names the launched kernel in later watchdog messages. */
static void rt_note_last_kernel(tile_rt_context *ctx, const char *name) {
  size_t n = strlen(name);
  if (n > TILE_RT_MAX_NAME)
    n = TILE_RT_MAX_NAME;
  memcpy(ctx->last_kernel, name, n);
  ctx->last_kernel[n] = '\0';
}

/* Checks, marshals and launches on `stream`, a CUstream of the kernel's
 * context (NULL: the legacy default stream). */
static tile_rt_status rt_launch_on(tile_rt_kernel *kernel,
                                   const tile_rt_arg *args, int nargs,
                                   CUstream stream) {
  const tile_rt_kernel_desc *desc = kernel->desc;
  tile_rt_context *ctx = kernel->module->ctx;
  RT_TRY(tile_rt_kernel_desc_check_args(desc, args, nargs));
  uint32_t grid[3];
  RT_TRY(tile_rt_kernel_desc_grid(grid, desc, args, nargs));
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return TILE_RT_SUCCESS; /* an empty problem: nothing to run */
  RT_TRY(rt_bind(ctx));
  /* cuLaunchKernel copies the parameters, so stack storage suffices. */
  rt_params params;
  RT_TRY(rt_marshal(&params, ctx->cu, desc, args));
  int clustered =
      desc->cluster[0] > 1 || desc->cluster[1] > 1 || desc->cluster[2] > 1;
  CUresult r;
  if (!clustered) {
    r = ctx->cu->cuLaunchKernel(kernel->function, grid[0], grid[1], grid[2],
                                desc->block[0], desc->block[1], desc->block[2],
                                desc->smem, stream, params.slot, NULL);
  } else {
    if (!ctx->cu->cuLaunchKernelEx)
      return rt_error(TILE_RT_ERROR_UNSUPPORTED,
                      "kernel '%s' is launched in clusters of %u x %u x %u "
                      "blocks, and the CUDA driver has no cuLaunchKernelEx",
                      desc->name, desc->cluster[0], desc->cluster[1],
                      desc->cluster[2]);
    CUlaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = desc->cluster[0];
    attr.value.clusterDim.y = desc->cluster[1];
    attr.value.clusterDim.z = desc->cluster[2];
    CUlaunchConfig config;
    memset(&config, 0, sizeof config);
    config.gridDimX = grid[0];
    config.gridDimY = grid[1];
    config.gridDimZ = grid[2];
    config.blockDimX = desc->block[0];
    config.blockDimY = desc->block[1];
    config.blockDimZ = desc->block[2];
    config.sharedMemBytes = desc->smem;
    config.hStream = stream;
    config.attrs = &attr;
    config.numAttrs = 1;
    r = ctx->cu->cuLaunchKernelEx(&config, kernel->function, params.slot, NULL);
  }
  if (r != CUDA_SUCCESS) {
    char cluster[64] = "";
    if (clustered)
      snprintf(cluster, sizeof cluster, ", cluster %u x %u x %u",
               desc->cluster[0], desc->cluster[1], desc->cluster[2]);
    return rt_cuda_error(r, clustered ? "cuLaunchKernelEx" : "cuLaunchKernel",
                         "kernel '%s' (grid %u x %u x %u, block %u x %u x "
                         "%u%s, smem %u)",
                         desc->name, grid[0], grid[1], grid[2], desc->block[0],
                         desc->block[1], desc->block[2], cluster, desc->smem);
  }
  rt_note_last_kernel(ctx, desc->name);
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_launch(tile_rt_kernel *kernel, const tile_rt_arg *args,
                              int nargs, tile_rt_stream *stream) {
  if (!kernel)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_launch: NULL kernel");
  if (stream && stream->ctx != kernel->module->ctx)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s': the stream belongs to another context",
                    kernel->desc->name);
  return rt_launch_on(kernel, args, nargs, stream ? stream->stream : NULL);
}

tile_rt_status tile_rt_launch_native(tile_rt_kernel *kernel,
                                     const tile_rt_arg *args, int nargs,
                                     void *cu_stream) {
  if (!kernel)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_launch_native: NULL kernel");
  return rt_launch_on(kernel, args, nargs, (CUstream)cu_stream);
}
