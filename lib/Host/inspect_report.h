/*===- inspect_report.h - What each compiled kernel uses --------*- C -*-===*
 *
 * tile-inspect's per-kernel summary: threads, registers, spills, shared
 * memory per pipeline stage and the instruction mix, from the cubin, the
 * kernel info, the planner's estimate, the PTX and (when there is) SASS.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_INSPECT_REPORT_H
#define TILE_TOOLS_INSPECT_REPORT_H

#include "host_util.h"

typedef struct inspect_inputs {
  const tool_buffer *cubin;
  const tool_buffer *kinfo;
  const tool_buffer *ptx;
  const tool_buffer *sass;    /* NULL: no disassembler */
  const tool_buffer *planned; /* mlirTileEstimateResources' lines */
  const tool_buffer *no_sass; /* why there is no SASS (when sass is NULL) */
} inspect_inputs;

/* Prints the summary of every kernel of the kernel info; 0, or 1 after
 * printing what went wrong. */
int inspect_print_resources(const inspect_inputs *in);

#endif /* TILE_TOOLS_INSPECT_REPORT_H */
