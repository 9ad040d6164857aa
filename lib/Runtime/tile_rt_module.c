/*===- tile_rt_module.c - Load modules, look kernels up -------------------===*
 *
 * A module is the binary (cubin, or PTX for the driver to JIT) together with
 * its parsed kernel info; kernels are looked up by their info record's name.
 *
 *===----------------------------------------------------------------------===*/

#include "tile_rt_internal.h"

#include <stdlib.h>
#include <string.h>

/* How much of the JIT error log a failed load quotes. */
#define RT_JIT_LOG_BYTES 2048

static tile_rt_status rt_load_image(CUmodule *out, tile_rt_context *ctx,
                                    const void *image, size_t size) {
  /* PTX must be NUL-terminated; a copy with a NUL appended suits both. */
  char *copy = malloc(size + 1);
  if (!copy)
    return rt_error(TILE_RT_ERROR_OUT_OF_MEMORY, "out of host memory");
  memcpy(copy, image, size);
  copy[size] = '\0';
  char log[RT_JIT_LOG_BYTES] = "";
  CUjit_option options[2] = {CU_JIT_ERROR_LOG_BUFFER,
                             CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[2] = {log, (void *)(uintptr_t)sizeof log};
  CUresult r = ctx->cu->cuModuleLoadDataEx(out, copy, 2, options, values);
  free(copy);
  if (r != CUDA_SUCCESS) {
    log[sizeof log - 1] = '\0';
    tile_rt_status st = rt_cuda_error(r, "cuModuleLoadDataEx",
                                      "loading a %zu-byte image", size);
    if (log[0])
      rt_error(st, "%s; JIT log: %s", tile_rt_last_error(), log);
    return st;
  }
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_module_load(tile_rt_module **out, tile_rt_context *ctx,
                                   const void *image, size_t image_size,
                                   const char *kinfo, size_t kinfo_len) {
  if (!out || !ctx || !image || image_size == 0 || !kinfo)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_module_load: NULL or empty argument");
  *out = NULL;
  tile_rt_module *m = calloc(1, sizeof *m);
  if (!m)
    return rt_error(TILE_RT_ERROR_OUT_OF_MEMORY, "out of host memory");
  m->ctx = ctx;
  /* Parse first: a bad record is reported without touching the driver. */
  tile_rt_status st = tile_rt_kernel_info_parse(&m->info, kinfo, kinfo_len);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_kernel_info_count(&m->nkernels, m->info);
  if (st == TILE_RT_SUCCESS && m->nkernels > 0) {
    m->kernels = calloc((size_t)m->nkernels, sizeof *m->kernels);
    if (!m->kernels)
      st = rt_error(TILE_RT_ERROR_OUT_OF_MEMORY, "out of host memory");
  }
  for (int i = 0; st == TILE_RT_SUCCESS && i < m->nkernels; ++i) {
    m->kernels[i].module = m;
    st = tile_rt_kernel_info_get(&m->kernels[i].desc, m->info, i);
  }
  if (st == TILE_RT_SUCCESS)
    st = rt_bind(ctx);
  if (st == TILE_RT_SUCCESS)
    st = rt_load_image(&m->module, ctx, image, image_size);
  if (st != TILE_RT_SUCCESS) {
    tile_rt_kernel_info_free(m->info);
    free(m->kernels);
    free(m);
    return st;
  }
  rt_context_retain(ctx);
  *out = m;
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_module_free(tile_rt_module *module) {
  if (!module)
    return TILE_RT_SUCCESS;
  tile_rt_status st = rt_bind(module->ctx);
  if (st == TILE_RT_SUCCESS) {
    CUresult r = module->ctx->cu->cuModuleUnload(module->module);
    if (r != CUDA_SUCCESS)
      st = rt_cuda_error(r, "cuModuleUnload", NULL);
  }
  tile_rt_context *ctx = module->ctx;
  tile_rt_kernel_info_free(module->info);
  free(module->kernels);
  free(module);
  tile_rt_status released = rt_context_release(ctx);
  return st != TILE_RT_SUCCESS ? st : released;
}

tile_rt_status tile_rt_module_kernel_info(const tile_rt_kernel_info **out,
                                          const tile_rt_module *module) {
  if (!out || !module)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_module_kernel_info: NULL argument");
  *out = module->info;
  return TILE_RT_SUCCESS;
}

static tile_rt_status rt_func_attribute(int *out, const tile_rt_kernel *k,
                                        CUfunction_attribute attribute,
                                        const char *what) {
  CUresult r =
      k->module->ctx->cu->cuFuncGetAttribute(out, attribute, k->function);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuFuncGetAttribute", "kernel '%s' attribute %s",
                         k->desc->name, what);
  return TILE_RT_SUCCESS;
}

/* First lookup: find the function and allow it its dynamic shared memory. */
static tile_rt_status rt_prepare_kernel(tile_rt_kernel *k) {
  tile_rt_context *ctx = k->module->ctx;
  const rt_driver *cu = ctx->cu;
  const char *name = k->desc->name;
  CUfunction f;
  CUresult r = cu->cuModuleGetFunction(&f, k->module->module, name);
  if (r == CUDA_ERROR_NOT_FOUND)
    return rt_error(TILE_RT_ERROR_NOT_FOUND,
                    "kernel '%s' has a kernel info record but is not in the "
                    "binary (cuModuleGetFunction: CUDA_ERROR_NOT_FOUND)",
                    name);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuModuleGetFunction", "kernel '%s'", name);
  k->function = f;
  int static_smem = 0;
  tile_rt_status st =
      rt_func_attribute(&static_smem, k, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                        "SHARED_SIZE_BYTES");
  int64_t limit = ctx->info.max_smem_optin;
  int64_t wanted = (int64_t)k->desc->smem + static_smem;
  if (st == TILE_RT_SUCCESS && wanted > limit)
    st = rt_error(TILE_RT_ERROR_UNSUPPORTED,
                  "kernel '%s' needs %u bytes of dynamic shared memory (+%d "
                  "static), above the device's opt-in limit of %lld bytes per "
                  "block",
                  name, k->desc->smem, static_smem, (long long)limit);
  if (st == TILE_RT_SUCCESS) {
    r = cu->cuFuncSetAttribute(
        f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)k->desc->smem);
    if (r != CUDA_SUCCESS)
      st = rt_cuda_error(r, "cuFuncSetAttribute",
                         "kernel '%s' MAX_DYNAMIC_SHARED_SIZE_BYTES=%u", name,
                         k->desc->smem);
  }
  if (st != TILE_RT_SUCCESS)
    k->function = NULL;
  return st;
}

tile_rt_status tile_rt_module_get_kernel(tile_rt_kernel **out,
                                         tile_rt_module *module,
                                         const char *name) {
  if (!out || !module || !name)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_module_get_kernel: NULL argument");
  *out = NULL;
  const tile_rt_kernel_desc *desc;
  RT_TRY(tile_rt_kernel_info_find(&desc, module->info, name));
  tile_rt_kernel *k = &module->kernels[desc - module->kernels[0].desc];
  if (!k->function) {
    RT_TRY(rt_bind(module->ctx));
    RT_TRY(rt_prepare_kernel(k));
  }
  *out = k;
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_kernel_desc_of(const tile_rt_kernel_desc **out,
                                      const tile_rt_kernel *kernel) {
  if (!out || !kernel)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_kernel_desc_of: NULL argument");
  *out = kernel->desc;
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_kernel_attributes(tile_rt_kernel_attrs *out,
                                         const tile_rt_kernel *kernel) {
  if (!out || !kernel)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_kernel_attributes: NULL argument");
  memset(out, 0, sizeof *out);
  RT_TRY(rt_bind(kernel->module->ctx));
  struct {
    int *out;
    CUfunction_attribute attribute;
    const char *what;
  } wanted[] = {
      {&out->registers, CU_FUNC_ATTRIBUTE_NUM_REGS, "NUM_REGS"},
      {&out->static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
       "SHARED_SIZE_BYTES"},
      {&out->local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
       "LOCAL_SIZE_BYTES"},
      {&out->const_bytes, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES,
       "CONST_SIZE_BYTES"},
      {&out->max_threads_per_block, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
       "MAX_THREADS_PER_BLOCK"},
      {&out->max_dynamic_smem, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
       "MAX_DYNAMIC_SHARED_SIZE_BYTES"},
      {&out->ptx_version, CU_FUNC_ATTRIBUTE_PTX_VERSION, "PTX_VERSION"},
      {&out->binary_version, CU_FUNC_ATTRIBUTE_BINARY_VERSION,
       "BINARY_VERSION"},
  };
  for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; ++i)
    RT_TRY(rt_func_attribute(wanted[i].out, kernel, wanted[i].attribute,
                             wanted[i].what));
  return TILE_RT_SUCCESS;
}
