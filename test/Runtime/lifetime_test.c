/*===- lifetime_test.c - Freeing handles in any order on a fake GPU -------===*
 *
 * A context freed while modules, streams, events and device memory made from
 * it are alive stays alive until the last of them is freed: those frees
 * still work, and the primary context is released once, after them
 * (lifetime.test). The fake driver counts what is alive and every call made
 * on a released context; the sanitizer build also sees any use after free.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "fake_cuda.h"
#include "test_util.h"

#include <dlfcn.h>
#include <string.h>

static void (*fake_cuda_lifetime)(fake_cuda_lifetime_counts *);
static void (*fake_cuda_set_hang)(int);

static void bind_fake(const char *path) {
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  void *f = lib ? dlsym(lib, "fake_cuda_lifetime") : NULL;
  void *h = lib ? dlsym(lib, "fake_cuda_set_hang") : NULL;
  if (!f || !h) {
    printf("FATAL: cannot use %s: %s\n", path, dlerror());
    exit(1);
  }
  memcpy(&fake_cuda_lifetime, &f, sizeof f);
  memcpy(&fake_cuda_set_hang, &h, sizeof h);
}

static void print_alive(const char *when) {
  fake_cuda_lifetime_counts c;
  fake_cuda_lifetime(&c);
  printf("%s: primary refs %d, modules %d, allocations %d, streams %d, "
         "events %d, calls after release %d\n",
         when, c.primary_refs, c.modules, c.allocations, c.streams, c.events,
         c.calls_after_release);
}

static const char image[] = "FAKECUBIN scale";
static const char kinfo[] = "tile-kernel-info 1\n"
                            "kernel scale\n"
                            "block 256 1 1\n"
                            "smem 0\n"
                            "param memref 0 f32 1\n"
                            "end\n";

/* Everything made from one context; the context freed first, then `order`
 * names the order of the rest: 'm' module, 's' stream, 'e' event, 'b'
 * device memory. */
static void free_context_first(const char *order) {
  printf("-- context first, then %s\n", order);
  tile_rt_context *ctx;
  MUST(tile_rt_context_create(&ctx, 0));
  tile_rt_module *mod;
  MUST(tile_rt_module_load(&mod, ctx, image, sizeof image, kinfo,
                           strlen(kinfo)));
  tile_rt_stream *stream;
  MUST(tile_rt_stream_create(&stream, ctx));
  tile_rt_event *event;
  MUST(tile_rt_event_create(&event, ctx));
  tile_rt_deviceptr buf;
  MUST(tile_rt_mem_alloc(&buf, ctx, 4096));
  print_alive("all alive");
  report("free context", tile_rt_context_free(ctx));
  print_alive("context freed");
  /* What was made from it still works. */
  tile_rt_kernel *k;
  report("get kernel", tile_rt_module_get_kernel(&k, mod, "scale"));
  tile_rt_arg arg;
  MUST(tile_rt_arg_memref_1d(&arg, TILE_RT_F32, buf, 1024));
  report("launch", tile_rt_launch(k, &arg, 1, stream));
  report("record", tile_rt_event_record(event, stream));
  for (const char *c = order; *c; ++c) {
    switch (*c) {
    case 'm':
      report("free module", tile_rt_module_free(mod));
      break;
    case 's':
      report("free stream", tile_rt_stream_free(stream));
      break;
    case 'e':
      report("free event", tile_rt_event_free(event));
      break;
    case 'b':
      report("free memory", tile_rt_mem_free(ctx, buf));
      break;
    }
  }
  print_alive("all freed");
}

int main(void) {
  setenv("TILE_RT_LIBCUDA", TILE_RT_FAKE_CUDA, 1);
  bind_fake(TILE_RT_FAKE_CUDA);
  free_context_first("mseb");
  free_context_first("bems");

  /* The usual order still releases the context at once; the watchdog still
   * names the last kernel launched once its module is gone. */
  printf("-- context last\n");
  tile_rt_context *ctx;
  MUST(tile_rt_context_create(&ctx, 0));
  tile_rt_module *mod;
  MUST(tile_rt_module_load(&mod, ctx, image, sizeof image, kinfo,
                           strlen(kinfo)));
  tile_rt_deviceptr buf;
  MUST(tile_rt_mem_alloc(&buf, ctx, 4096));
  tile_rt_kernel *k;
  MUST(tile_rt_module_get_kernel(&k, mod, "scale"));
  tile_rt_arg arg;
  MUST(tile_rt_arg_memref_1d(&arg, TILE_RT_F32, buf, 1024));
  MUST(tile_rt_launch(k, &arg, 1, NULL));
  report("free module", tile_rt_module_free(mod));
  print_alive("module freed");
  fake_cuda_set_hang(1);
  report("hung sync", tile_rt_context_synchronize(ctx, 0.01));
  fake_cuda_set_hang(0);
  report("free memory", tile_rt_mem_free(ctx, buf));
  report("free context", tile_rt_context_free(ctx));
  print_alive("context freed");

  return 0;
}
