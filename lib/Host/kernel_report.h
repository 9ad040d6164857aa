/*===- kernel_report.h - What each compiled kernel uses ------------*- C -*-===*
 *
 * tile-run's per-kernel resource lines: from the cubin itself (registers,
 * static + dynamic shared memory, stack), which needs no GPU, and, once the
 * module is loaded, from the driver, checked against the cubin.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_KERNEL_REPORT_H
#define TILE_TOOLS_KERNEL_REPORT_H

#include "tile-rt/tile_rt.h"

#include <stddef.h>

/// Whether `image` is an ELF file (a cubin) rather than PTX text.
int tool_image_is_cubin(const void *image, size_t size);

/// For each kernel of `info`, prints what the cubin `image` says it uses:
///   kernel NAME: R registers, S bytes static + D dynamic shared, K bytes
///   stack
/// (D from the kernel info), then a warning line for each launch limit of
/// the image's SM it breaks. For a PTX image, one line saying that the
/// driver decides at load. Returns 0, or 1 after printing why the cubin
/// could not be read.
int tool_print_cubin_resources(const void *image, size_t size,
                               const tile_rt_kernel_info *info);

/// For each kernel of the loaded `module`, prints the driver's attributes
/// (cuFuncGetAttribute) and, for a cubin `image`, any that differ from what
/// the cubin says. Returns 0, or 1 after printing what failed.
int tool_print_driver_attributes(tile_rt_module *module, const void *image,
                                 size_t size);

#endif /* TILE_TOOLS_KERNEL_REPORT_H */
