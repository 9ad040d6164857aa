/*===- tile_rt_driver.c - Load libcuda at run time ------------------------===*
 *
 * The runtime never links libcuda: it opens it with dlopen on first use, so
 * that programs built on it start, and report the absence cleanly, on
 * machines without a driver. $TILE_RT_LIBCUDA overrides the library path
 * (tests point it at a missing file or at a fake driver).
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "tile_rt_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Expand a cuda.h name first, so that cuMemAlloc is looked up as the
 * cuMemAlloc_v2 symbol cuda.h maps it to. */
#define RT_STR2(x) #x
#define RT_STR(x) RT_STR2(x)

/* Type-check the table against cuda.h's prototypes: a conditional between
 * two function pointer types that differ is a compile error (-Werror), and
 * sizeof keeps it unevaluated. */
#define RT_DRIVER_CHECK(name, ret, params, how)                                \
  (void)sizeof(0 ? table->name : &name);
static void rt_driver_check_signatures(rt_driver *table) {
  RT_DRIVER_FUNCTIONS(RT_DRIVER_CHECK)
  (void)table;
}
#undef RT_DRIVER_CHECK

typedef struct rt_symbol {
  const char *versioned; /* what cuda.h maps the name to */
  const char *plain;     /* the name as written */
  size_t offset;         /* of the pointer in rt_driver */
  int how;
} rt_symbol;

#define RT_DRIVER_SYMBOL(name, ret, params, how)                               \
  {RT_STR(name), #name, offsetof(rt_driver, name), how},
static const rt_symbol rt_symbols[] = {RT_DRIVER_FUNCTIONS(RT_DRIVER_SYMBOL)};
#undef RT_DRIVER_SYMBOL

static pthread_once_t rt_once = PTHREAD_ONCE_INIT;
static rt_driver rt_table;
static const rt_driver *rt_ready;
static tile_rt_status rt_load_status;
static char rt_load_message[1024];

static void rt_fail(tile_rt_status status) {
  rt_load_status = status;
  /* Keep the message rt_error/rt_cuda_error just wrote, for later calls. */
  strncpy(rt_load_message, tile_rt_last_error(), sizeof rt_load_message - 1);
}

static void rt_driver_load(void) {
  rt_driver_check_signatures(&rt_table);
  const char *path = getenv("TILE_RT_LIBCUDA");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    rt_fail(rt_error(TILE_RT_ERROR_NO_DRIVER,
                     "no CUDA driver: cannot load '%s': %s", path,
                     why ? why : "unknown dlopen error"));
    return;
  }
  for (size_t i = 0; i < sizeof rt_symbols / sizeof rt_symbols[0]; ++i) {
    const rt_symbol *s = &rt_symbols[i];
    void *fn = dlsym(lib, s->versioned);
    if (!fn && s->how == RT_PLAIN_FALLBACK)
      fn = dlsym(lib, s->plain);
    if (!fn && s->how != RT_OPTIONAL) {
      rt_fail(rt_error(TILE_RT_ERROR_NO_DRIVER,
                       "unusable CUDA driver '%s': it lacks %s (a driver "
                       "older than the CUDA 12 API?)",
                       path, s->versioned));
      dlclose(lib);
      return;
    }
    /* POSIX guarantees data and function pointers convert through dlsym. */
    memcpy((char *)&rt_table + s->offset, &fn, sizeof fn);
  }
  CUresult r = rt_table.cuInit(0);
  if (r != CUDA_SUCCESS) {
    rt_ready = &rt_table; /* for cuGetErrorName in the message */
    tile_rt_status st = rt_cuda_error(r, "cuInit", "CUDA driver '%s'", path);
    rt_ready = NULL;
    if (r == CUDA_ERROR_NO_DEVICE || r == CUDA_ERROR_INVALID_DEVICE)
      st = TILE_RT_ERROR_NO_DEVICE;
    else
      st = TILE_RT_ERROR_NO_DRIVER; /* stub library, version mismatch, ... */
    rt_fail(st);
    return;
  }
  rt_ready = &rt_table;
  rt_load_status = TILE_RT_SUCCESS;
}

tile_rt_status rt_driver_get(const rt_driver **out) {
  pthread_once(&rt_once, rt_driver_load);
  *out = rt_ready;
  if (rt_load_status != TILE_RT_SUCCESS)
    return rt_error(rt_load_status, "%s", rt_load_message);
  return TILE_RT_SUCCESS;
}

const rt_driver *rt_driver_loaded(void) { return rt_ready; }

double rt_now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void rt_sleep_seconds(double seconds) {
  if (seconds <= 0)
    return;
  struct timespec t;
  t.tv_sec = (time_t)seconds;
  t.tv_nsec = (long)((seconds - (double)t.tv_sec) * 1e9);
  nanosleep(&t, NULL);
}
