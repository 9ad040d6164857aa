/*===- cubin_test.c - Kernel resources read from a cubin ------------------===*
 *
 * tile-rt-cubin-test FILE.cubin KERNEL...
 *   prints what tile_rt_cubin_kernel_resources reads for each KERNEL;
 * tile-rt-cubin-test --malformed FILE.cubin KERNEL
 *   breaks a good image in specific ways and prints each status and message,
 *   then truncates it to every length and flips random bytes, and counts the
 *   outcomes: a malformed image must be an error, never a crash.
 * (checked by cubin.test).
 *
 *===----------------------------------------------------------------------===*/

#include "test_util.h"

#include <stdint.h>
#include <string.h>

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    printf("FATAL cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *data = malloc(n > 0 ? (size_t)n : 1);
  if (!data || n <= 0 || fread(data, 1, (size_t)n, f) != (size_t)n) {
    printf("FATAL cannot read %s\n", path);
    exit(1);
  }
  fclose(f);
  *size = (size_t)n;
  return data;
}

static void print_resources(const unsigned char *image, size_t size,
                            const char *kernel) {
  tile_rt_kernel_resources r;
  tile_rt_status st = tile_rt_cubin_kernel_resources(&r, image, size, kernel);
  if (st != TILE_RT_SUCCESS) {
    printf("%s: %s: %s\n", kernel, tile_rt_status_name(st),
           tile_rt_last_error());
    return;
  }
  printf("%s: sm_%d, %d registers, %u bytes static smem (+%u reserved), "
         "%u bytes frame, %u bytes stack, %u param bytes, %d barriers, "
         "threads %ux%ux%u\n",
         kernel, r.sm, r.registers, r.static_smem, r.reserved_smem,
         r.frame_bytes, r.stack_bytes, r.param_bytes, r.barriers,
         r.max_threads[0], r.max_threads[1], r.max_threads[2]);
}

/*===--- Finding what to break in a good image ----------------------------===*/

static uint32_t get32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p) {
  return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static void put16(unsigned char *p, uint16_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v) {
  put16(p, (uint16_t)v);
  put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(unsigned char *p, uint64_t v) {
  put32(p, (uint32_t)v);
  put32(p + 4, (uint32_t)(v >> 32));
}

/* The header of the section called `name` (the image is a good one). */
static unsigned char *section_header(unsigned char *image, const char *name) {
  uint64_t shoff = get64(image + 40);
  unsigned shnum = image[60] | image[61] << 8;
  unsigned shstrndx = image[62] | image[63] << 8;
  const unsigned char *names =
      image + get64(image + shoff + (uint64_t)shstrndx * 64 + 24);
  for (unsigned i = 0; i < shnum; ++i) {
    unsigned char *h = image + shoff + (uint64_t)i * 64;
    if (strcmp((const char *)names + get32(h), name) == 0)
      return h;
  }
  printf("FATAL no section %s\n", name);
  exit(1);
}

static unsigned char *section_bytes(unsigned char *image, const char *name) {
  return image + get64(section_header(image, name) + 24);
}

/* The first record of attribute `attr` in section `name`. */
static unsigned char *record(unsigned char *image, const char *name,
                             unsigned attr) {
  unsigned char *h = section_header(image, name);
  unsigned char *p = image + get64(h + 24);
  uint64_t size = get64(h + 32);
  for (uint64_t at = 0; at + 4 <= size;) {
    if (p[at + 1] == attr)
      return p + at;
    at += 4 + (p[at] == 4 ? (uint64_t)(p[at + 2] | p[at + 3] << 8) : 0);
  }
  printf("FATAL no attribute 0x%02x in %s\n", attr, name);
  exit(1);
}

/*===--- Malformed images -------------------------------------------------===*/

typedef void (*breaker)(unsigned char *image, size_t *size, const char *k);

static void bad_magic(unsigned char *image, size_t *size, const char *k) {
  (void)size, (void)k;
  image[1] = 'X';
}
static void ptx_text(unsigned char *image, size_t *size, const char *k) {
  (void)k;
  memcpy(image, "//\n.version 8.0\n", 16);
  *size = 16;
}
static void short_header(unsigned char *image, size_t *size, const char *k) {
  (void)image, (void)k;
  *size = 40;
}
static void elf32(unsigned char *image, size_t *size, const char *k) {
  (void)size, (void)k;
  image[4] = 1;
}
static void not_cuda(unsigned char *image, size_t *size, const char *k) {
  (void)size, (void)k;
  put16(image + 18, 62); /* EM_X86_64 */
}
static void bad_shentsize(unsigned char *image, size_t *size, const char *k) {
  (void)size, (void)k;
  put16(image + 58, 40);
}
static void shoff_past_end(unsigned char *image, size_t *size, const char *k) {
  (void)k;
  put64(image + 40, *size - 64);
}
static void huge_shnum(unsigned char *image, size_t *size, const char *k) {
  (void)size, (void)k;
  put16(image + 60, 0xff00);
}
static void bad_shstrndx(unsigned char *image, size_t *size, const char *k) {
  (void)size, (void)k;
  put16(image + 62, 0x7fff);
}
static void name_out_of_bounds(unsigned char *image, size_t *size,
                               const char *k) {
  (void)size, (void)k;
  put32(section_header(image, ".nv.info"), 0x7fffffff);
}
static void strtab_past_end(unsigned char *image, size_t *size, const char *k) {
  (void)k;
  put64(section_header(image, ".strtab") + 32, *size);
}
static void unterminated_name(unsigned char *image, size_t *size,
                              const char *k) {
  (void)k;
  /* The name table ends in the middle of the first section's name. */
  (void)size;
  uint32_t at = get32(image + get64(image + 40) + 64);
  put64(section_header(image, ".shstrtab") + 32, at + 2);
}
static void symtab_entsize(unsigned char *image, size_t *size, const char *k) {
  (void)size, (void)k;
  put64(section_header(image, ".symtab") + 56, 20);
}
static void info_past_end(unsigned char *image, size_t *size, const char *k) {
  (void)k;
  put64(section_header(image, ".nv.info") + 24, *size - 8);
}
static void sval_overrun(unsigned char *image, size_t *size, const char *k) {
  (void)size, (void)k;
  put16(record(image, ".nv.info", 0x2f) + 2, 0xfff0);
}
static void unknown_format(unsigned char *image, size_t *size, const char *k) {
  (void)size, (void)k;
  record(image, ".nv.info", 0x2f)[0] = 0x07;
}
static void regcount_as_hval(unsigned char *image, size_t *size,
                             const char *k) {
  (void)size, (void)k;
  record(image, ".nv.info", 0x2f)[0] = 0x03;
}
static void regcount_symbol(unsigned char *image, size_t *size, const char *k) {
  (void)size, (void)k;
  put32(record(image, ".nv.info", 0x2f) + 4, 9999);
}
static void truncated_record(unsigned char *image, size_t *size,
                             const char *k) {
  (void)size, (void)k;
  unsigned char *h = section_header(image, ".nv.info");
  put64(h + 32, get64(h + 32) + 2);
}
static void no_regcount(unsigned char *image, size_t *size, const char *k) {
  (void)size, (void)k;
  /* Every REGCOUNT record becomes one of an attribute nobody reads. */
  unsigned char *h = section_header(image, ".nv.info");
  unsigned char *p = section_bytes(image, ".nv.info");
  uint64_t n = get64(h + 32);
  for (uint64_t at = 0; at + 4 <= n;) {
    if (p[at + 1] == 0x2f)
      p[at + 1] = 0x7e;
    at += 4 + (p[at] == 4 ? (uint64_t)(p[at + 2] | p[at + 3] << 8) : 0);
  }
}
static void shared_too_big(unsigned char *image, size_t *size, const char *k) {
  (void)size;
  char name[300];
  snprintf(name, sizeof name, ".nv.shared.%s", k);
  put64(section_header(image, name) + 32, (uint64_t)1 << 33);
}

static void run_breaker(const unsigned char *good, size_t size,
                        const char *kernel, const char *label, breaker b) {
  unsigned char *copy = malloc(size);
  memcpy(copy, good, size);
  size_t n = size;
  b(copy, &n, kernel);
  tile_rt_kernel_resources r;
  tile_rt_status st = tile_rt_cubin_kernel_resources(&r, copy, n, kernel);
  printf("%s: %s%s%s\n", label, tile_rt_status_name(st), st ? ": " : "",
         st ? tile_rt_last_error() : "");
  free(copy);
}

/* splitmix64, for reproducible byte flips. */
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Counts outcomes; anything but SUCCESS, PARSE or NOT_FOUND is reported. */
static void tally(int counts[3], int *other, tile_rt_status st) {
  if (st == TILE_RT_SUCCESS)
    ++counts[0];
  else if (st == TILE_RT_ERROR_PARSE)
    ++counts[1];
  else if (st == TILE_RT_ERROR_NOT_FOUND)
    ++counts[2];
  else
    ++*other;
}

static void malformed(const unsigned char *good, size_t size,
                      const char *kernel) {
  static const struct {
    const char *label;
    breaker b;
  } cases[] = {
      {"bad magic", bad_magic},
      {"PTX text", ptx_text},
      {"short header", short_header},
      {"ELF32", elf32},
      {"not CUDA", not_cuda},
      {"section header size", bad_shentsize},
      {"section headers past the end", shoff_past_end},
      {"too many sections", huge_shnum},
      {"name table index", bad_shstrndx},
      {"section name out of bounds", name_out_of_bounds},
      {"string table past the end", strtab_past_end},
      {"unterminated section name", unterminated_name},
      {"symbol size", symtab_entsize},
      {".nv.info past the end", info_past_end},
      {"SVAL overrun", sval_overrun},
      {"unknown format", unknown_format},
      {"REGCOUNT as HVAL", regcount_as_hval},
      {"REGCOUNT symbol", regcount_symbol},
      {"truncated record", truncated_record},
      {"no REGCOUNT", no_regcount},
      {"shared section too big", shared_too_big},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    run_breaker(good, size, kernel, cases[i].label, cases[i].b);

  tile_rt_kernel_resources r;
  report("NULL output",
         tile_rt_cubin_kernel_resources(NULL, good, size, kernel));
  report("NULL image", tile_rt_cubin_kernel_resources(&r, NULL, size, kernel));
  report("no kernel name", tile_rt_cubin_kernel_resources(&r, good, size, ""));
  report("unknown kernel",
         tile_rt_cubin_kernel_resources(&r, good, size, "nope"));
  report("a device function", tile_rt_cubin_kernel_resources(
                                  &r, good, size, "$res_call$res_callee"));

  /* Every prefix: the section headers come last, so all must fail. */
  int counts[3] = {0, 0, 0}, other = 0;
  unsigned char *copy = malloc(size);
  for (size_t n = 0; n < size; ++n) {
    memcpy(copy, good, n); /* a fresh buffer of exactly n bytes */
    tally(counts, &other, tile_rt_cubin_kernel_resources(&r, copy, n, kernel));
  }
  printf("prefixes: %d SUCCESS, %d PARSE, %d NOT_FOUND, %d other\n", counts[0],
         counts[1], counts[2], other);

  /* Random corruption: 1 to 8 bytes flipped, many times. */
  int flips = 0;
  memset(counts, 0, sizeof counts);
  other = 0;
  uint64_t state = 12345;
  for (int t = 0; t < 20000; ++t) {
    memcpy(copy, good, size);
    int k = 1 + (int)(next_random(&state) % 8);
    for (int j = 0; j < k; ++j)
      copy[next_random(&state) % size] ^=
          (unsigned char)(1 + next_random(&state) % 255);
    tally(counts, &other,
          tile_rt_cubin_kernel_resources(&r, copy, size, kernel));
    ++flips;
  }
  printf("byte flips: %d images, %d other than SUCCESS, PARSE or NOT_FOUND\n",
         flips, other);
  free(copy);
}

int main(int argc, char **argv) {
  int bad = argc > 1 && strcmp(argv[1], "--malformed") == 0;
  if (argc < 3 + bad) {
    printf("usage: tile-rt-cubin-test [--malformed] FILE.cubin KERNEL...\n");
    return 2;
  }
  size_t size;
  unsigned char *image = read_file(argv[1 + bad], &size);
  if (bad)
    malformed(image, size, argv[2 + bad]);
  else
    for (int i = 2; i < argc; ++i)
      print_resources(image, size, argv[i]);
  free(image);
  return 0;
}
