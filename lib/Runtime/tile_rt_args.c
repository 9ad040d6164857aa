/*===- tile_rt_args.c - Kernel arguments: build, check, compute the grid ---===*
 *
 * Host-only: everything here runs without a GPU, so that argument mistakes
 * are reported (and tested) before anything reaches the driver.
 *
 *===----------------------------------------------------------------------===*/

#include "tile_rt_internal.h"

#include <stdio.h>
#include <string.h>

/* CUDA launch limits (CUDA C Programming Guide, "Technical Specifications
 * per Compute Capability"): grid x up to 2^31-1, y and z up to 65535. */
#define RT_MAX_GRID_X 2147483647LL
#define RT_MAX_GRID_YZ 65535LL
/* The ABI wants 16-byte aligned memref pointers (vectorised accesses). */
#define RT_MEMREF_ALIGN 16

/*===--- Building arguments -----------------------------------------------===*/

tile_rt_status tile_rt_arg_memref(tile_rt_arg *out, tile_rt_dtype dtype,
                                  tile_rt_deviceptr ptr, int rank,
                                  const int64_t *sizes,
                                  const int64_t *strides) {
  if (!out || !sizes || !strides)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_arg_memref: NULL argument");
  if (rank < 1 || rank > TILE_RT_MAX_RANK)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "memref rank %d is outside 1..%d", rank, TILE_RT_MAX_RANK);
  if (tile_rt_dtype_size(dtype) == 0)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT, "invalid dtype %d",
                    (int)dtype);
  memset(out, 0, sizeof *out);
  out->kind = TILE_RT_ARG_MEMREF;
  out->u.memref.dtype = dtype;
  out->u.memref.rank = rank;
  out->u.memref.ptr = ptr;
  for (int i = 0; i < rank; ++i) {
    out->u.memref.sizes[i] = sizes[i];
    out->u.memref.strides[i] = strides[i];
  }
  return TILE_RT_SUCCESS;
}

/* A dense row-major view of `rank` sizes. */
static tile_rt_status rt_dense(tile_rt_arg *out, tile_rt_dtype dtype,
                               tile_rt_deviceptr ptr, int rank,
                               const int64_t *sizes) {
  int64_t strides[TILE_RT_MAX_RANK];
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; --i) {
    strides[i] = s;
    if (i > 0 && rt_mul_i64(&s, s, sizes[i]))
      return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                      "a dense rank-%d view: the stride of dimension %d "
                      "overflows i64 (sizes[%d] = %lld)",
                      rank, i - 1, i, (long long)sizes[i]);
  }
  return tile_rt_arg_memref(out, dtype, ptr, rank, sizes, strides);
}

tile_rt_status tile_rt_arg_memref_1d(tile_rt_arg *out, tile_rt_dtype dtype,
                                     tile_rt_deviceptr ptr, int64_t n) {
  const int64_t sizes[1] = {n};
  return rt_dense(out, dtype, ptr, 1, sizes);
}

tile_rt_status tile_rt_arg_memref_2d(tile_rt_arg *out, tile_rt_dtype dtype,
                                     tile_rt_deviceptr ptr, int64_t rows,
                                     int64_t cols, int64_t ld) {
  const int64_t sizes[2] = {rows, cols}, strides[2] = {ld, 1};
  return tile_rt_arg_memref(out, dtype, ptr, 2, sizes, strides);
}

tile_rt_status tile_rt_arg_memref_3d(tile_rt_arg *out, tile_rt_dtype dtype,
                                     tile_rt_deviceptr ptr, int64_t d0,
                                     int64_t d1, int64_t d2) {
  const int64_t sizes[3] = {d0, d1, d2};
  return rt_dense(out, dtype, ptr, 3, sizes);
}

tile_rt_status tile_rt_arg_memref_4d(tile_rt_arg *out, tile_rt_dtype dtype,
                                     tile_rt_deviceptr ptr, int64_t d0,
                                     int64_t d1, int64_t d2, int64_t d3) {
  const int64_t sizes[4] = {d0, d1, d2, d3};
  return rt_dense(out, dtype, ptr, 4, sizes);
}

static tile_rt_status rt_scalar(tile_rt_arg *out, tile_rt_arg_kind kind) {
  if (!out)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_arg_*: NULL output");
  memset(out, 0, sizeof *out);
  out->kind = kind;
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_arg_i32(tile_rt_arg *out, int32_t value) {
  RT_TRY(rt_scalar(out, TILE_RT_ARG_I32));
  out->u.i32 = value;
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_arg_i64(tile_rt_arg *out, int64_t value) {
  RT_TRY(rt_scalar(out, TILE_RT_ARG_I64));
  out->u.i64 = value;
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_arg_f32(tile_rt_arg *out, float value) {
  RT_TRY(rt_scalar(out, TILE_RT_ARG_F32));
  out->u.f32 = value;
  return TILE_RT_SUCCESS;
}

/*===--- Checking arguments against a kernel record -----------------------===*/

int rt_memref_span(uint64_t *out, const tile_rt_memref *m) {
  uint64_t last = 0; /* the offset of the last element, in elements */
  for (int i = 0; i < m->rank; ++i) {
    if (m->sizes[i] == 0) {
      *out = 0;
      return 0;
    }
    uint64_t step;
    if (rt_mul_u64(&step, (uint64_t)(m->sizes[i] - 1),
                   (uint64_t)m->strides[i]) ||
        rt_add_u64(&last, last, step))
      return 1;
  }
  return rt_add_u64(&last, last, 1) ||
         rt_mul_u64(out, last, tile_rt_dtype_size(m->dtype));
}

/* The view starts at its pointer and stays in the address space: strides
 * are non-negative, a non-empty view has a pointer, and pointer + extent
 * does not wrap. */
static tile_rt_status rt_check_view(const tile_rt_kernel_desc *desc, int index,
                                    const tile_rt_memref *m) {
  for (int i = 0; i < m->rank; ++i)
    if (m->strides[i] < 0)
      return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                      "kernel '%s' argument %d: strides[%d] = %lld is "
                      "negative; a view may not reach before its pointer",
                      desc->name, index, i, (long long)m->strides[i]);
  uint64_t span, end;
  if (rt_memref_span(&span, m))
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' argument %d: the view's extent in bytes "
                    "(from its sizes and strides) overflows 64 bits",
                    desc->name, index);
  if (span > 0 && m->ptr == 0)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' argument %d: NULL pointer for a view of "
                    "%llu bytes",
                    desc->name, index, (unsigned long long)span);
  if (rt_add_u64(&end, m->ptr, span))
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' argument %d: the view's %llu bytes from "
                    "pointer 0x%llx wrap around the end of the address space",
                    desc->name, index, (unsigned long long)span,
                    (unsigned long long)m->ptr);
  return TILE_RT_SUCCESS;
}

/* "memref<?x?xf16>" for a param, into `buf`. */
static const char *rt_param_type(char *buf, size_t n,
                                 const tile_rt_param_desc *d) {
  if (d->kind == TILE_RT_PARAM_SCALAR) {
    snprintf(buf, n, "%s scalar", tile_rt_dtype_name(d->dtype));
    return buf;
  }
  size_t used = (size_t)snprintf(buf, n, "memref<");
  for (int i = 0; i < d->rank && used < n; ++i)
    used += (size_t)snprintf(buf + used, n - used, "?x");
  if (used < n)
    snprintf(buf + used, n - used, "%s>", tile_rt_dtype_name(d->dtype));
  return buf;
}

static const char *rt_arg_type(char *buf, size_t n, const tile_rt_arg *a) {
  switch (a->kind) {
  case TILE_RT_ARG_MEMREF: {
    tile_rt_param_desc d;
    memset(&d, 0, sizeof d);
    d.kind = TILE_RT_PARAM_MEMREF;
    d.dtype = a->u.memref.dtype;
    d.rank = a->u.memref.rank;
    return rt_param_type(buf, n, &d);
  }
  case TILE_RT_ARG_I32:
    return "i32 scalar";
  case TILE_RT_ARG_I64:
    return "i64 scalar";
  case TILE_RT_ARG_F32:
    return "f32 scalar";
  }
  return "invalid argument kind";
}

static tile_rt_arg_kind rt_scalar_kind(tile_rt_dtype dtype) {
  return dtype == TILE_RT_I32   ? TILE_RT_ARG_I32
         : dtype == TILE_RT_I64 ? TILE_RT_ARG_I64
                                : TILE_RT_ARG_F32;
}

static tile_rt_status rt_check_one(const tile_rt_kernel_desc *desc, int index,
                                   const tile_rt_param_desc *d,
                                   const tile_rt_arg *a) {
  char want[64], got[64];
  int match;
  if (d->kind == TILE_RT_PARAM_MEMREF)
    match = a->kind == TILE_RT_ARG_MEMREF && a->u.memref.dtype == d->dtype &&
            a->u.memref.rank == d->rank;
  else
    match = a->kind == rt_scalar_kind(d->dtype);
  if (!match)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' argument %d: expected %s, got %s", desc->name,
                    index, rt_param_type(want, sizeof want, d),
                    rt_arg_type(got, sizeof got, a));
  if (d->kind != TILE_RT_PARAM_MEMREF)
    return TILE_RT_SUCCESS;
  const tile_rt_memref *m = &a->u.memref;
  if (m->ptr % RT_MEMREF_ALIGN != 0)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' argument %d: pointer 0x%llx is not %d-byte "
                    "aligned",
                    desc->name, index, (unsigned long long)m->ptr,
                    RT_MEMREF_ALIGN);
  for (int i = 0; i < m->rank; ++i)
    if (m->sizes[i] < 0)
      return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                      "kernel '%s' argument %d: sizes[%d] = %lld is negative",
                      desc->name, index, i, (long long)m->sizes[i]);
  if (m->strides[m->rank - 1] != 1)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' argument %d: the innermost stride must be 1, "
                    "got %lld",
                    desc->name, index, (long long)m->strides[m->rank - 1]);
  return rt_check_view(desc, index, m);
}

tile_rt_status tile_rt_kernel_desc_check_args(const tile_rt_kernel_desc *desc,
                                              const tile_rt_arg *args,
                                              int nargs) {
  if (!desc || (!args && nargs > 0))
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_kernel_desc_check_args: NULL argument");
  if (nargs != desc->nargs)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' takes %d arguments, got %d", desc->name,
                    desc->nargs, nargs);
  for (int i = 0; i < desc->nparams; ++i) {
    const tile_rt_param_desc *d = &desc->params[i];
    if (d->kind == TILE_RT_PARAM_TENSORMAP) {
      if (d->arg < 0 || d->arg >= nargs ||
          args[d->arg].kind != TILE_RT_ARG_MEMREF)
        return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                        "kernel '%s' param %d: tensormap over argument %d, "
                        "which is not a memref",
                        desc->name, i, d->arg);
      rt_tensormap_shape shape;
      RT_TRY(rt_tensormap_shape_of(&shape, desc, i, &args[d->arg].u.memref));
    } else {
      RT_TRY(rt_check_one(desc, d->arg, d, &args[d->arg]));
    }
  }
  return rt_check_contract_args(desc, args);
}

/*===--- The grid ---------------------------------------------------------===*/

tile_rt_status tile_rt_kernel_desc_grid(uint32_t grid[3],
                                        const tile_rt_kernel_desc *desc,
                                        const tile_rt_arg *args, int nargs) {
  if (!grid || !desc || (!args && nargs > 0))
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_kernel_desc_grid: NULL argument");
  static const char axis_name[3] = {'x', 'y', 'z'};
  for (int axis = 0; axis < 3; ++axis) {
    const tile_rt_grid_rule *g = &desc->grid[axis];
    int64_t extent = 1;
    if (g->present && g->arg < 0) {
      extent = g->tile;
    } else if (g->present) {
      if (g->arg >= nargs)
        return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                        "kernel '%s': grid %c reads argument %d, but only %d "
                        "arguments were given",
                        desc->name, axis_name[axis], g->arg, nargs);
      if (args[g->arg].kind != TILE_RT_ARG_MEMREF ||
          args[g->arg].u.memref.rank <= g->dim)
        return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                        "kernel '%s': grid %c reads sizes[%d] of argument %d, "
                        "which is not a memref of rank > %d",
                        desc->name, axis_name[axis], g->dim, g->arg, g->dim);
      int64_t size = args[g->arg].u.memref.sizes[g->dim];
      if (size < 0)
        return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                        "kernel '%s': grid %c reads sizes[%d] of argument %d, "
                        "which is negative (%lld)",
                        desc->name, axis_name[axis], g->dim, g->arg,
                        (long long)size);
      extent = size / g->tile + (size % g->tile != 0);
    }
    /* Launched in clusters: whole clusters only. A desc built by hand may
     * leave the field 0, which means 1. */
    int64_t cluster = desc->cluster[axis] > 1 ? desc->cluster[axis] : 1;
    extent = (extent + cluster - 1) / cluster * cluster;
    int64_t limit = axis == 0 ? RT_MAX_GRID_X : RT_MAX_GRID_YZ;
    if (extent > limit)
      return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                      "kernel '%s': grid %c extent %lld exceeds the CUDA "
                      "limit %lld",
                      desc->name, axis_name[axis], (long long)extent,
                      (long long)limit);
    grid[axis] = (uint32_t)extent;
  }
  return TILE_RT_SUCCESS;
}
