/*===- host_util.c - Host helpers shared by tile-run and tile-bench -------===*/

#define _POSIX_C_SOURCE 200809L

#include "host_util.h"

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

const char *tool_name = "tile-tool";

/* The failures this thread captured, one line each, truncated at the
 * buffer's end. */
static _Thread_local int error_capture;
static _Thread_local char last_error[8192];
static _Thread_local size_t last_error_len;

int tool_capture_errors(int on) {
  int was = error_capture;
  error_capture = on;
  return was;
}

int tool_errors_captured(void) { return error_capture; }

void tool_clear_error(void) {
  last_error_len = 0;
  last_error[0] = '\0';
}

void tool_error_append(const char *text, size_t n) {
  size_t room = sizeof last_error - 1 - last_error_len;
  if (n > room)
    n = room;
  memcpy(last_error + last_error_len, text, n);
  last_error_len += n;
  if (last_error_len && last_error[last_error_len - 1] != '\n' &&
      last_error_len < sizeof last_error - 1)
    last_error[last_error_len++] = '\n';
  last_error[last_error_len] = '\0';
}

const char *tool_last_error(void) { return last_error; }

/* Prints or captures one formatted message. */
static void report(const char *fmt, va_list ap) {
  if (!error_capture) {
    fprintf(stderr, "%s: ", tool_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    return;
  }
  char line[2048];
  int n = vsnprintf(line, sizeof line, fmt, ap);
  if (n > 0)
    tool_error_append(line,
                      (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

static void reportf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(fmt, ap);
  va_end(ap);
}

int tool_rt_fail(const char *what, tile_rt_status status) {
  reportf("%s: %s: %s", what, tile_rt_status_name(status),
          tile_rt_last_error());
  return 1;
}

int tool_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(fmt, ap);
  va_end(ap);
  return 1;
}

/*===--- Buffers and files ------------------------------------------------===*/

int tool_buffer_append(tool_buffer *b, const void *bytes, size_t n) {
  if (b->size + n + 1 > b->capacity) {
    size_t capacity = b->capacity ? b->capacity : 4096;
    while (capacity < b->size + n + 1)
      capacity *= 2;
    char *grown = realloc(b->data, capacity);
    if (!grown)
      return -1;
    b->data = grown;
    b->capacity = capacity;
  }
  if (n)
    memcpy(b->data + b->size, bytes, n);
  b->size += n;
  b->data[b->size] = '\0';
  return 0;
}

void tool_buffer_free(tool_buffer *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}

int tool_read_file(const char *path, tool_buffer *out) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return -tool_fail("cannot open '%s': %s", path, strerror(errno));
  char chunk[1 << 16];
  size_t n;
  int rc = 0;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    if (tool_buffer_append(out, chunk, n) != 0) {
      rc = -tool_fail("out of memory reading '%s'", path);
      break;
    }
  if (rc == 0 && ferror(f))
    rc = -tool_fail("cannot read '%s': %s", path, strerror(errno));
  fclose(f);
  return rc;
}

int tool_write_file(const char *path, const void *bytes, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return -tool_fail("cannot create '%s': %s", path, strerror(errno));
  int ok = fwrite(bytes, 1, n, f) == n;
  ok = (fclose(f) == 0) && ok;
  if (!ok)
    return -tool_fail("cannot write '%s': %s", path, strerror(errno));
  return 0;
}

int tool_make_dir(const char *path) {
  if (mkdir(path, 0777) == 0 || errno == EEXIST)
    return 0;
  return -tool_fail("cannot create directory '%s': %s", path, strerror(errno));
}

const char *tool_path_stem(char *buf, size_t n, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  if (len >= n)
    len = n - 1;
  memcpy(buf, base, len);
  buf[len] = '\0';
  return buf;
}

/*===--- Numbers ----------------------------------------------------------===*/

int tool_parse_i64(int64_t *out, const char *s, int64_t lo, int64_t hi) {
  if (!s || !*s)
    return -1;
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi)
    return -1;
  *out = v;
  return 0;
}

int tool_parse_double(double *out, const char *s) {
  if (!s || !*s)
    return -1;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno != 0 || *end != '\0' || !isfinite(v))
    return -1;
  *out = v;
  return 0;
}

double tool_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int tool_compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double tool_median(double *values, int n) {
  if (n <= 0)
    return 0;
  qsort(values, (size_t)n, sizeof *values, tool_compare_doubles);
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/* IEEE 754 binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits. */
uint16_t tool_f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  uint32_t a = x & 0x7fffffffu;
  if (a >= 0x7f800000u) /* inf, or NaN kept quiet with its top payload */
    return sign | 0x7c00u |
           (a > 0x7f800000u ? (uint16_t)(0x200u | ((a >> 13) & 0x3ffu)) : 0);
  if (a >= 0x477ff000u) /* >= 65520: rounds to infinity */
    return sign | 0x7c00u;
  if (a < 0x38800000u) { /* below 2^-14: a subnormal half (or zero) */
    if (a < 0x33000000u) /* below 2^-25: rounds to zero */
      return sign;
    uint32_t e = a >> 23, m = (a & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126 - e; /* units of 2^-24 */
    uint32_t r = m >> shift, rem = m & ((1u << shift) - 1),
             half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1u)))
      ++r;
    return sign | (uint16_t)r;
  }
  uint32_t h = (a - 0x38000000u) >> 13, rem = a & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
    ++h; /* a carry into the exponent is still the right encoding */
  return sign | (uint16_t)h;
}

float tool_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
  if (e == 0x1f) {
    x = sign | 0x7f800000u | (m << 13);
  } else if (e != 0) {
    x = sign | ((e + 112) << 23) | (m << 13);
  } else if (m == 0) {
    x = sign;
  } else { /* subnormal: normalise */
    e = 113;
    while (!(m & 0x400u)) {
      m <<= 1;
      --e;
    }
    x = sign | (e << 23) | ((m & 0x3ffu) << 13);
  }
  float f;
  memcpy(&f, &x, sizeof f);
  return f;
}

/* bfloat16: the top 16 bits of a binary32. */
uint16_t tool_f32_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return (uint16_t)((x >> 16) | 0x40u); /* quiet NaN */
  x += 0x7fffu + ((x >> 16) & 1u);
  return (uint16_t)(x >> 16);
}

float tool_bf16_to_f32(uint16_t b) {
  uint32_t x = (uint32_t)b << 16;
  float f;
  memcpy(&f, &x, sizeof f);
  return f;
}

/* An f8E4M3FN value: 1 sign, 4 exponent (bias 7) and 3 mantissa bits;
 * exponent 0 is subnormal, S.1111.111 is NaN, and there is no infinity. */
static double f8e4m3fn_to_double(uint8_t x) {
  int exponent = (x >> 3) & 0xf, mantissa = x & 7;
  double sign = x & 0x80 ? -1.0 : 1.0;
  if (exponent == 0xf && mantissa == 7)
    return NAN;
  if (exponent == 0)
    return sign * ldexp(mantissa / 8.0, -6);
  return sign * ldexp(1.0 + mantissa / 8.0, exponent - 7);
}

double tool_element(const void *data, tile_rt_dtype dtype, size_t i) {
  switch (dtype) {
  case TILE_RT_F8E4M3FN:
    return f8e4m3fn_to_double(((const uint8_t *)data)[i]);
  case TILE_RT_F8E5M2: /* the top byte of an f16 */
    return tool_f16_to_f32((uint16_t)(((const uint8_t *)data)[i] << 8));
  case TILE_RT_F16:
    return tool_f16_to_f32(((const uint16_t *)data)[i]);
  case TILE_RT_BF16:
    return tool_bf16_to_f32(((const uint16_t *)data)[i]);
  case TILE_RT_F32:
    return ((const float *)data)[i];
  case TILE_RT_F64:
    return ((const double *)data)[i];
  case TILE_RT_I8:
    return ((const int8_t *)data)[i];
  case TILE_RT_I16:
    return ((const int16_t *)data)[i];
  case TILE_RT_I32:
    return ((const int32_t *)data)[i];
  case TILE_RT_I64:
    return (double)((const int64_t *)data)[i];
  }
  return NAN;
}

void tool_nan_pattern(tile_rt_dtype dtype, uint32_t *pattern, int *width) {
  switch (dtype) {
  case TILE_RT_F16:
    *pattern = 0x7e007e00u, *width = 2;
    return;
  case TILE_RT_BF16:
    *pattern = 0x7fc07fc0u, *width = 2;
    return;
  case TILE_RT_F32:
    *pattern = 0x7fc00000u, *width = 4;
    return;
  default:
    *pattern = 0xffffffffu, *width = 0;
    return;
  }
}

tile_rt_status tool_poison(tile_rt_context *ctx, tile_rt_deviceptr dst,
                           tile_rt_dtype dtype, size_t count) {
  uint32_t pattern;
  int width;
  tool_nan_pattern(dtype, &pattern, &width);
  if (width == 2)
    return tile_rt_mem_set16(ctx, dst, (uint16_t)pattern, count);
  if (width == 4)
    return tile_rt_mem_set32(ctx, dst, pattern, count);
  /* All-ones bytes: a NaN for f64, -1 for the integers. */
  return tile_rt_mem_set8(ctx, dst, 0xff, count * tile_rt_dtype_size(dtype));
}

/*===--- Random inputs ----------------------------------------------------===*/

static uint64_t tool_splitmix(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void tool_rng_seed(tool_rng *rng, uint64_t seed, uint64_t stream) {
  rng->state =
      seed * 0x9e3779b97f4a7c15ULL ^ (stream + 1) * 0xd1b54a32d192ed03ULL;
  (void)tool_splitmix(&rng->state);
}

double tool_rng_uniform(tool_rng *rng, double lo, double hi) {
  /* 53 random bits -> [0, 1) */
  double u = (double)(tool_splitmix(&rng->state) >> 11) * 0x1.0p-53;
  return lo + (hi - lo) * u;
}

int tool_fill_uniform(void *dst, float *rounded, tile_rt_dtype dtype, size_t n,
                      tool_rng *rng, double lo, double hi) {
  for (size_t i = 0; i < n; ++i) {
    float v = (float)tool_rng_uniform(rng, lo, hi);
    switch (dtype) {
    case TILE_RT_F16: {
      uint16_t h = tool_f32_to_f16(v);
      ((uint16_t *)dst)[i] = h;
      v = tool_f16_to_f32(h);
      break;
    }
    case TILE_RT_BF16: {
      uint16_t b = tool_f32_to_bf16(v);
      ((uint16_t *)dst)[i] = b;
      v = tool_bf16_to_f32(b);
      break;
    }
    case TILE_RT_F32:
      ((float *)dst)[i] = v;
      break;
    default:
      return -1;
    }
    if (rounded)
      rounded[i] = v;
  }
  return 0;
}

/*===--- Kernel records ---------------------------------------------------===*/

/* "memref<?x?xf16>" into buf. */
static const char *tool_memref_type(char *buf, size_t n, int rank,
                                    tile_rt_dtype dtype) {
  size_t used = (size_t)snprintf(buf, n, "memref<");
  for (int i = 0; i < rank && used < n; ++i)
    used += (size_t)snprintf(buf + used, n - used, "?x");
  if (used < n)
    snprintf(buf + used, n - used, "%s>", tile_rt_dtype_name(dtype));
  return buf;
}

void tool_print_kernel(const tile_rt_kernel_desc *k) {
  printf("kernel %s: block %ux%ux%u, smem %u bytes, grid", k->name, k->block[0],
         k->block[1], k->block[2], k->smem);
  static const char axis[3] = {'x', 'y', 'z'};
  for (int a = 0; a < 3; ++a) {
    const tile_rt_grid_rule *g = &k->grid[a];
    if (!g->present)
      printf(" %c=1", axis[a]);
    else if (g->arg < 0)
      printf(" %c=%lld", axis[a], (long long)g->tile);
    else
      printf(" %c=ceil(arg%d.size[%d]/%lld)", axis[a], g->arg, g->dim,
             (long long)g->tile);
  }
  printf("\n  params:");
  char type[64];
  for (int i = 0; i < k->nparams; ++i) {
    const tile_rt_param_desc *d = &k->params[i];
    printf("%s", i ? ", " : " ");
    if (d->kind == TILE_RT_PARAM_MEMREF) {
      printf("arg%d %s", d->arg,
             tool_memref_type(type, sizeof type, d->rank, d->dtype));
    } else if (d->kind == TILE_RT_PARAM_SCALAR) {
      printf("arg%d %s", d->arg, tile_rt_dtype_name(d->dtype));
    } else {
      printf("tensormap(arg%d %s box", d->arg, tile_rt_dtype_name(d->dtype));
      for (int b = 0; b < d->rank; ++b)
        printf("%c%u", b ? 'x' : ' ', d->box[b]);
      printf(" swizzle %d)", d->swizzle);
    }
  }
  printf("%s\n", k->nparams ? "" : " none");
}

void *tool_dlopen_first(const char *const *names, size_t count, char *path,
                        size_t path_size, char *tried, size_t tried_size) {
  for (size_t i = 0; i < count; ++i) {
    if (!names[i] || !*names[i])
      continue;
    void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (lib) {
      snprintf(path, path_size, "%s", names[i]);
      return lib;
    }
    const char *why = dlerror();
    size_t used = strlen(tried);
    snprintf(tried + used, tried_size - used, "\n  %s: %s", names[i],
             why ? why : "not found");
  }
  return NULL;
}
