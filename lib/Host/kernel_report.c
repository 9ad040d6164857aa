/*===- kernel_report.c - What each compiled kernel uses -------------------===*/

#include "kernel_report.h"

#include "host_util.h"

#include <stdio.h>
#include <string.h>

/* Launch limits a cubin can be checked against without a device (CUDA C
 * Programming Guide, "Technical Specifications per Compute Capability"). */
#define REPORT_MAX_REGS_PER_BLOCK 65536
/* Registers are allocated per warp, per thread in multiples of this. */
#define REPORT_REG_GRANULE 8
#define REPORT_WARP 32
/* sm_90: the most shared memory one block can opt in to (227 KB). */
#define REPORT_SM90_MAX_SMEM 232448

int tool_image_is_cubin(const void *image, size_t size) {
  return size >= 4 && memcmp(image, "\177ELF", 4) == 0;
}

static uint64_t round_up(uint64_t x, uint64_t to) {
  return (x + to - 1) / to * to;
}

/* Warnings for the limits the kernel breaks. */
static void warn_limits(const tile_rt_kernel_desc *d,
                        const tile_rt_kernel_resources *r) {
  uint64_t threads =
      (uint64_t)d->block[0] * (uint64_t)d->block[1] * (uint64_t)d->block[2];
  uint64_t regs = round_up((uint64_t)r->registers, REPORT_REG_GRANULE) *
                  round_up(threads, REPORT_WARP);
  if (regs > REPORT_MAX_REGS_PER_BLOCK)
    printf("  warning: %s cannot launch: %d registers x %llu threads need "
           "%llu registers per block, more than %d\n",
           d->name, r->registers, (unsigned long long)threads,
           (unsigned long long)regs, REPORT_MAX_REGS_PER_BLOCK);
  uint64_t smem = (uint64_t)r->static_smem + d->smem;
  if (r->sm == 90 && smem > REPORT_SM90_MAX_SMEM)
    printf("  warning: %s cannot launch on sm_90: %llu bytes of shared "
           "memory per block, more than %d\n",
           d->name, (unsigned long long)smem, REPORT_SM90_MAX_SMEM);
  const uint32_t *mt = r->max_threads;
  if (mt[0] &&
      (d->block[0] > mt[0] || d->block[1] > mt[1] || d->block[2] > mt[2]))
    printf("  warning: %s is compiled for at most %ux%ux%u threads but its "
           "kernel info launches %ux%ux%u\n",
           d->name, mt[0], mt[1], mt[2], d->block[0], d->block[1], d->block[2]);
}

int tool_print_cubin_resources(const void *image, size_t size,
                               const tile_rt_kernel_info *info) {
  if (!tool_image_is_cubin(image, size)) {
    printf("resources: the image is not a cubin (PTX): the driver compiles "
           "it when loading it\n");
    return 0;
  }
  int n, rc = 0;
  tile_rt_kernel_info_count(&n, info);
  for (int i = 0; i < n; ++i) {
    const tile_rt_kernel_desc *d;
    tile_rt_kernel_info_get(&d, info, i);
    tile_rt_kernel_resources r;
    tile_rt_status st =
        tile_rt_cubin_kernel_resources(&r, image, size, d->name);
    if (st != TILE_RT_SUCCESS) {
      rc = tool_rt_fail("reading the cubin", st);
      if (st != TILE_RT_ERROR_NOT_FOUND)
        break; /* the image, not the kernel: the others fail alike */
      continue;
    }
    printf("kernel %s: %d registers, %u bytes static + %u dynamic shared, "
           "%u bytes stack%s\n",
           d->name, r.registers, r.static_smem, d->smem, r.stack_bytes,
           r.frame_bytes ? " (local arrays or register spills)" : "");
    warn_limits(d, &r);
  }
  return rc;
}

int tool_print_driver_attributes(tile_rt_module *module, const void *image,
                                 size_t size) {
  const tile_rt_kernel_info *info;
  int n, rc = 0;
  tile_rt_module_kernel_info(&info, module);
  tile_rt_kernel_info_count(&n, info);
  for (int i = 0; i < n; ++i) {
    const tile_rt_kernel_desc *d;
    tile_rt_kernel *k;
    tile_rt_kernel_attrs at;
    tile_rt_kernel_info_get(&d, info, i);
    tile_rt_status st = tile_rt_module_get_kernel(&k, module, d->name);
    if (st == TILE_RT_SUCCESS)
      st = tile_rt_kernel_attributes(&at, k);
    if (st != TILE_RT_SUCCESS) {
      rc = tool_rt_fail(d->name, st);
      continue;
    }
    printf("kernel %s on the GPU: %d registers, %d bytes static shared, %d "
           "bytes local memory, sm_%d binary\n",
           d->name, at.registers, at.static_smem, at.local_bytes,
           at.binary_version);
    tile_rt_kernel_resources r;
    if (!tool_image_is_cubin(image, size) ||
        tile_rt_cubin_kernel_resources(&r, image, size, d->name) !=
            TILE_RT_SUCCESS)
      continue;
    if (at.registers != r.registers || at.static_smem != (int)r.static_smem ||
        at.local_bytes != (int)r.stack_bytes)
      printf("  note: the cubin says %d registers, %u bytes static shared, "
             "%u bytes stack\n",
             r.registers, r.static_smem, r.stack_bytes);
  }
  return rc;
}
