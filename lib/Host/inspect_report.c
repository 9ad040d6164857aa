/*===- inspect_report.c - What each compiled kernel uses -----------------===*/

#define _POSIX_C_SOURCE 200809L

#include "inspect_report.h"

#include "tile-c/Inspect.h"
#include "tile-rt/tile_rt.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Threads of one warpgroup (the unit of wgmma on sm_90). */
#define WARPGROUP_THREADS 128

typedef struct planned_kernel {
  long long shared, stages, stage_bytes, pipelined, threads;
  char grid[256];
} planned_kernel;

/* The estimate's line for `name`:
 * kernel <name> shared <b> stages <s> stage_bytes <b> pipelined_bytes <p>
 * threads <n> grid <r> */
static int find_planned(planned_kernel *p, const tool_buffer *text,
                        const char *name) {
  const char *s = text->data, *end = s + text->size;
  size_t n = strlen(name);
  while (s < end) {
    const char *eol = memchr(s, '\n', (size_t)(end - s));
    if (!eol)
      eol = end;
    if ((size_t)(eol - s) > 7 + n && strncmp(s, "kernel ", 7) == 0 &&
        strncmp(s + 7, name, n) == 0 && s[7 + n] == ' ') {
      char line[512];
      size_t len = (size_t)(eol - s) < sizeof line - 1 ? (size_t)(eol - s)
                                                       : sizeof line - 1;
      memcpy(line, s, len);
      line[len] = '\0';
      int used = 0;
      const char *rest = line + 7 + n;
      if (sscanf(rest,
                 " shared %lld stages %lld stage_bytes %lld pipelined_bytes "
                 "%lld threads %lld grid %n",
                 &p->shared, &p->stages, &p->stage_bytes, &p->pipelined,
                 &p->threads, &used) == 5 &&
          used > 0) {
        snprintf(p->grid, sizeof p->grid, "%s", rest + used);
        return 0;
      }
      return -1;
    }
    s = eol + 1;
  }
  return -1;
}

static void print_mix(const char *what, const MlirTileInstructionMix *m) {
  printf("  %-9s %" PRId64 " instructions: wgmma %" PRId64 ", mma %" PRId64
         ", tma %" PRId64 ", mbarrier %" PRId64 ", barrier %" PRId64
         ", shuffle %" PRId64 ", local ld/st %" PRId64 "/%" PRId64
         ", global ld/st %" PRId64 "/%" PRId64 ", shared ld/st %" PRId64
         "/%" PRId64 "\n",
         what, m->total, m->wgmma, m->mma, m->tma, m->mbarrier, m->barrier,
         m->shuffle, m->localLoads, m->localStores, m->globalLoads,
         m->globalStores, m->sharedLoads, m->sharedStores);
}

static MlirStringRef ref(const tool_buffer *b) {
  return (MlirStringRef){b->data, b->size};
}

static int print_kernel(const inspect_inputs *in,
                        const tile_rt_kernel_desc *d) {
  tile_rt_kernel_resources r;
  tile_rt_status st = tile_rt_cubin_kernel_resources(&r, in->cubin->data,
                                                     in->cubin->size, d->name);
  if (st != TILE_RT_SUCCESS)
    return tool_rt_fail("reading the cubin", st);
  planned_kernel p;
  if (find_planned(&p, in->planned, d->name) != 0)
    return tool_fail("the resource estimate has no line for kernel '%s'",
                     d->name);
  unsigned threads = d->block[0] * d->block[1] * d->block[2];
  MlirStringRef name = mlirStringRefCreateFromCString(d->name);
  MlirTileInstructionMix ptx, sass;
  if (mlirLogicalResultIsFailure(mlirTileCountInstructions(
          ref(in->ptx), MlirTileAssemblyPtx, name, &ptx)))
    return tool_fail("the PTX has no entry '%s'", d->name);
  int have_sass =
      in->sass && mlirLogicalResultIsSuccess(mlirTileCountInstructions(
                      ref(in->sass), MlirTileAssemblySass, name, &sass));

  printf("kernel %s\n", d->name);
  printf("  threads   %u per block", threads);
  if (threads % WARPGROUP_THREADS == 0)
    printf(" (%u warpgroups)", threads / WARPGROUP_THREADS);
  printf(", grid %s", p.grid);
  if (d->cluster[0] * d->cluster[1] * d->cluster[2] > 1)
    printf(" in clusters of %u x %u x %u", d->cluster[0], d->cluster[1],
           d->cluster[2]);
  printf("\n");
  printf("  registers %d per thread\n", r.registers);
  if (have_sass)
    printf("  spills    %u bytes stack frame; SASS: %" PRId64
           " local stores, %" PRId64 " local loads%s\n",
           r.frame_bytes, sass.localStores, sass.localLoads,
           r.frame_bytes || sass.localStores ? "" : " (none)");
  else
    printf("  spills    %u bytes stack frame%s\n", r.frame_bytes,
           r.frame_bytes ? " (register spills or local arrays)" : " (none)");
  printf("  shared    %u static + %u dynamic bytes", r.static_smem, d->smem);
  if (p.stages > 1 && p.pipelined == p.stages * p.stage_bytes)
    printf("; dynamic: %lld stages x %lld + %lld other", p.stages,
           p.stage_bytes, p.shared - p.pipelined);
  else if (p.stages > 1)
    printf("; dynamic: %lld in pipelines of different depths (up to %lld "
           "stages) + %lld other",
           p.pipelined, p.stages, p.shared - p.pipelined);
  printf("\n");
  print_mix("PTX", &ptx);
  if (have_sass)
    print_mix("SASS", &sass);
  else if (in->sass)
    printf("  SASS      not shown: nvdisasm's output has no section "
           ".text.%s\n",
           d->name);
  else
    printf("  SASS      not shown: %.*s\n", (int)in->no_sass->size,
           (const char *)in->no_sass->data);
  return 0;
}

int inspect_print_resources(const inspect_inputs *in) {
  tile_rt_kernel_info *info = NULL;
  tile_rt_status st =
      tile_rt_kernel_info_parse(&info, in->kinfo->data, in->kinfo->size);
  if (st != TILE_RT_SUCCESS)
    return tool_rt_fail("reading the kernel info", st);
  int n = 0, rc = 0;
  tile_rt_kernel_info_count(&n, info);
  for (int i = 0; i < n && rc == 0; ++i) {
    const tile_rt_kernel_desc *d;
    tile_rt_kernel_info_get(&d, info, i);
    rc = print_kernel(in, d);
  }
  tile_rt_kernel_info_free(info);
  return rc;
}
