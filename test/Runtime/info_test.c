/*===- info_test.c - Kernel info parsing, valid and malformed -------------===*
 *
 * Prints the parsed records of valid texts and the status and message of
 * each malformed one (checked by info.test).
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "test_util.h"

#include <string.h>
#include <time.h>

static void print_desc(const tile_rt_kernel_desc *k) {
  printf("kernel %s block %u %u %u smem %u nargs %d nparams %d\n", k->name,
         k->block[0], k->block[1], k->block[2], k->smem, k->nargs, k->nparams);
  if (k->cluster[0] != 1 || k->cluster[1] != 1 || k->cluster[2] != 1)
    printf("  cluster %u %u %u\n", k->cluster[0], k->cluster[1], k->cluster[2]);
  for (int a = 0; a < 3; ++a) {
    const tile_rt_grid_rule *g = &k->grid[a];
    if (g->present)
      printf("  grid %d: arg %d dim %d tile %lld\n", a, g->arg, g->dim,
             (long long)g->tile);
    else
      printf("  grid %d: absent\n", a);
  }
  for (int i = 0; i < k->nparams; ++i) {
    const tile_rt_param_desc *p = &k->params[i];
    static const char *const kind[] = {"memref", "scalar", "tensormap"};
    printf("  param %d: %s arg %d %s rank %d", i, kind[p->kind], p->arg,
           tile_rt_dtype_name(p->dtype), p->rank);
    /* Only memrefs have an access; another param with one is a bug. */
    static const char *const access[] = {"unknown", "read", "write",
                                         "readwrite"};
    if (p->kind == TILE_RT_PARAM_MEMREF || p->access != TILE_RT_ACCESS_UNKNOWN)
      printf(" access %s", (unsigned)p->access < 4 ? access[p->access] : "?");
    if (p->kind == TILE_RT_PARAM_TENSORMAP) {
      printf(" box");
      for (int d = 0; d < p->rank; ++d)
        printf(" %u", p->box[d]);
      printf(" swizzle %d", p->swizzle);
    }
    if (p->name[0])
      printf(" name %s", p->name);
    printf("\n");
  }
  /* Each contract as the source states it, then its simple form. */
  for (int i = 0; i < k->ncontracts; ++i) {
    const tile_rt_contract *c = &k->contracts[i];
    char text[256];
    tile_rt_contract_format(text, sizeof text, k, i);
    printf("  contract %d: %s (%d items, %d left)", i, text, c->nterms,
           c->nlhs);
    if (c->arg >= 0)
      printf(" simple arg %d dim %d rel %d bound_arg %d bound_dim %d bound "
             "%lld names '%s' '%s'",
             c->arg, c->dim, (int)c->relation, c->bound_arg, c->bound_dim,
             (long long)c->bound, c->arg_name, c->bound_name);
    printf("\n");
  }
}

static void parse_and_print(const char *label, const char *text, size_t len) {
  tile_rt_kernel_info *info = NULL;
  if (report(label, tile_rt_kernel_info_parse(&info, text, len)) !=
      TILE_RT_SUCCESS) {
    if (info)
      printf("%s: output not cleared on failure\n", label);
    return;
  }
  int n = -1;
  MUST(tile_rt_kernel_info_count(&n, info));
  printf("%s: %d kernels\n", label, n);
  for (int i = 0; i < n; ++i) {
    const tile_rt_kernel_desc *k;
    MUST(tile_rt_kernel_info_get(&k, info, i));
    print_desc(k);
  }
  MUST(tile_rt_kernel_info_free(info));
}

static const char gemm_info[] =
    "tile-kernel-info 1\n"
    "kernel gemm_f16\n"
    "block 384 1 1\n"
    "smem 197632\n"
    "grid 0 2 1 256\n"
    "grid 1 2 0 128\n"
    "param memref 0 f16 2\n"
    "param memref 1 f16 2\n"
    "param memref 2 f32 2\n"
    "param scalar 3 f32\n"
    "param tensormap 0 f16 2 box 64 128 swizzle 128\n"
    "param tensormap 1 f16 2 box 64 256 swizzle 128\n"
    "end\n"
    "kernel softmax\n"
    "block 128 2 1\n"
    "smem 0\n"
    "grid 0 -1 0 132\n"
    "param memref 0 bf16 3\n"
    "param scalar 1 i64\n"
    "param scalar 2 i32\n"
    "end\n";

/* Access lines: after the params, before the contracts; argument 4 has
 * none (unknown). The second record has an access line for argument 0 as
 * well: what the first set does not carry over. */
static const char access_info[] =
    "tile-kernel-info 1\n"
    "kernel gemm_inplace\n"
    "block 128 1 1\n"
    "smem 0\n"
    "grid 0 2 1 64\n"
    "param memref 0 f16 2\n"
    "param memref 1 f16 2\n"
    "param memref 2 f32 2\n"
    "param scalar 3 i32\n"
    "param memref 4 f32 1\n"
    "param tensormap 0 f16 2 box 64 64 swizzle 128\n"
    "access 0 read\n"
    "access 1 readwrite\n"
    "access 2 write\n"
    "require 1 0 eq 0 1 0 B A\n"
    "end\n"
    "kernel copy\n"
    "block 32 1 1\n"
    "smem 0\n"
    "param memref 0 i8 1\n"
    "param memref 1 i8 1\n"
    "access 1 write\n"
    "access 0 read\n"
    "end\n";

/* Contracts with arithmetic, each side postfix; the form of older
 * compilers beside them. */
static const char contract_info[] =
    "tile-kernel-info 1\n"
    "kernel gqa\n"
    "block 128 1 1\n"
    "smem 0\n"
    "param memref 0 f16 4\n"
    "param memref 1 f16 4\n"
    "param scalar 2 f32\n"
    "require eq 0:1:Q,1:1:K,mod 0\n"
    "require le 0:3:Q 2,64,*\n"
    "require lt 0:2:Q,1,- 1:2:K,3,1:1:-,+,*\n"
    "require gt 0:2:Q,7,floordiv,0:2:-,2,ceildiv,- -5\n"
    "require ge 0:0:Q 1:0:K\n"
    "require 1 3 eq 0 3 0 K Q\n"
    "end\n";

/* A malformed text and what the test calls it. */
typedef struct bad_case {
  const char *label;
  const char *text;
} bad_case;

#define HDR "tile-kernel-info 1\n"
#define K "kernel k\nblock 128 1 1\nsmem 0\n"
#define M2 "param memref 0 f16 2\n"

static const bad_case bad[] = {
    {"empty", ""},
    {"version", "tile-kernel-info 2\nkernel k\n"},
    {"no-header", "kernel k\nblock 1 1 1\nsmem 0\nend\n"},
    {"unknown-kind", HDR K "blok 1 1 1\nend\n"},
    {"block-fields", HDR "kernel k\nblock 128 1\nsmem 0\nend\n"},
    {"block-zero", HDR "kernel k\nblock 0 1 1\nsmem 0\nend\n"},
    {"block-threads", HDR "kernel k\nblock 1024 2 1\nsmem 0\nend\n"},
    {"block-z", HDR "kernel k\nblock 1 1 65\nsmem 0\nend\n"},
    {"double-space", HDR "kernel k\nblock 128  1 1\nsmem 0\nend\n"},
    {"trailing-space", HDR "kernel k\nblock 128 1 1 \nsmem 0\nend\n"},
    {"crlf", HDR "kernel k\r\nblock 128 1 1\nsmem 0\nend\n"},
    {"tab", HDR "kernel k\nblock\t128 1 1\nsmem 0\nend\n"},
    {"smem-text", HDR "kernel k\nblock 128 1 1\nsmem 12a\nend\n"},
    {"smem-negative", HDR "kernel k\nblock 128 1 1\nsmem -4\nend\n"},
    {"smem-plus", HDR "kernel k\nblock 128 1 1\nsmem +4\nend\n"},
    {"smem-huge",
     HDR "kernel k\nblock 128 1 1\nsmem 99999999999999999999\nend\n"},
    {"block-twice", HDR K "block 128 1 1\nend\n"},
    {"cluster-zero", HDR K "cluster 0 1 1\nend\n"},
    {"cluster-large", HDR K "cluster 4 4 1\nend\n"},
    {"cluster-fields", HDR K "cluster 2 1\nend\n"},
    {"cluster-twice", HDR K "cluster 2 1 1\ncluster 2 1 1\nend\n"},
    {"smem-twice", HDR K "smem 0\nend\n"},
    {"grid-axis", HDR K M2 "grid 3 0 0 64\nend\n"},
    {"grid-twice", HDR K M2 "grid 0 0 0 64\ngrid 0 0 1 64\nend\n"},
    {"grid-scalar", HDR K "param scalar 0 i32\ngrid 0 0 0 64\nend\n"},
    {"grid-no-arg", HDR K M2 "grid 1 1 0 64\nend\n"},
    {"grid-dim", HDR K "grid 0 0 2 64\n" M2 "end\n"},
    {"grid-tile", HDR K M2 "grid 0 0 0 0\nend\n"},
    {"grid-arg", HDR K M2 "grid 0 -2 0 4\nend\n"},
    {"require-fields", HDR K M2 "require 0 0 eq -1 0 4 A\nend\n"},
    {"require-new-relation", HDR K M2 "require ne 0:0:A 4\nend\n"},
    {"require-operands", HDR K M2 "require eq 0:0:A,mod 4\nend\n"},
    {"require-leaves", HDR K M2 "require eq 0:0:A,4 4\nend\n"},
    {"require-item", HDR K M2 "require eq 0:0:A,x,+ 4\nend\n"},
    {"require-item-arg", HDR K M2 "require eq 64:0:A 4\nend\n"},
    {"require-item-name", HDR K M2 "require eq 0:0:A-B 4\nend\n"},
    {"require-empty-item", HDR K M2 "require eq 0:0:A,,+ 4\nend\n"},
    {"require-two-names", HDR K M2 "require eq 0:0:A 0:1:B\nend\n"},
    {"require-items",
     HDR K M2 "require eq 1,1,+,1,+,1,+,1,+,1,+,1,+,1,+,1,+,1,+,1,+,1,+,1,+ "
              "0:0:A\nend\n"},
    {"require-new-dim", HDR K M2 "require eq 0:2:A 4\nend\n"},
    {"require-relation", HDR K M2 "require 0 0 lt -1 0 4 A -\nend\n"},
    {"require-name", HDR K M2 "require 0 0 le -1 0 4 1A -\nend\n"},
    {"require-arg", HDR K M2 "require 1 0 le -1 0 4 A -\nend\n"},
    {"require-dim", HDR K M2 "require 0 2 le -1 0 4 A -\nend\n"},
    {"require-bound-big",
     HDR K M2 "require 0 0 le -1 0 9223372036854775808 A -\nend\n"},
    {"require-bound-arg", HDR K M2 "require 0 0 eq 3 0 0 A B\nend\n"},
    {"param-order", HDR K "param memref 1 f16 2\nend\n"},
    {"param-kind", HDR K "param pointer 0 f16\nend\n"},
    {"param-short", HDR K "param\nend\n"},
    {"scalar-dtype", HDR K "param scalar 0 f16\nend\n"},
    {"dtype", HDR K "param memref 0 f8 2\nend\n"},
    {"rank", HDR K "param memref 0 f16 6\nend\n"},
    {"rank-zero", HDR K "param memref 0 f16 0\nend\n"},
    {"memref-fields", HDR K "param memref 0 f16\nend\n"},
    {"tmap-not-memref", HDR K
     "param scalar 0 i32\nparam tensormap 0 i32 1 box 4 swizzle 0\nend\n"},
    {"tmap-undeclared",
     HDR K M2 "param tensormap 1 f16 2 box 64 64 swizzle 0\nend\n"},
    {"tmap-dtype",
     HDR K M2 "param tensormap 0 bf16 2 box 64 64 swizzle 128\nend\n"},
    {"tmap-rank", HDR K M2 "param tensormap 0 f16 1 box 64 swizzle 128\nend\n"},
    {"tmap-box-word",
     HDR K M2 "param tensormap 0 f16 2 boxes 64 64 swizzle 128\nend\n"},
    {"tmap-swizzle-word",
     HDR K M2 "param tensormap 0 f16 2 box 64 64 swz 128\nend\n"},
    {"tmap-fields",
     HDR K M2 "param tensormap 0 f16 2 box 64 swizzle 128\nend\n"},
    {"tmap-box-big",
     HDR K M2 "param tensormap 0 f16 2 box 64 512 swizzle 128\nend\n"},
    {"tmap-box-zero",
     HDR K M2 "param tensormap 0 f16 2 box 64 0 swizzle 128\nend\n"},
    {"tmap-swizzle",
     HDR K M2 "param tensormap 0 f16 2 box 64 64 swizzle 96\nend\n"},
    {"tmap-inner-swizzle",
     HDR K M2 "param tensormap 0 f16 2 box 128 64 swizzle 128\nend\n"},
    {"tmap-inner-16",
     HDR K M2 "param tensormap 0 f16 2 box 4 64 swizzle 0\nend\n"},
    {"arg-after-tmap", HDR K M2 "param tensormap 0 f16 2 box 64 64 swizzle "
                                "128\nparam scalar 1 i32\nend\n"},
    {"no-end", HDR K M2},
    {"nested", HDR K "kernel other\nend\n"},
    {"no-block", HDR "kernel k\nsmem 0\nend\n"},
    {"no-smem", HDR "kernel k\nblock 1 1 1\nend\n"},
    {"duplicate", HDR K "end\n" K "end\n"},
    {"empty-line", HDR K "\nend\n"},
    {"outside", HDR K "end\nblock 1 1 1\n"},
    {"end-fields", HDR K "end now\n"},
    {"kernel-fields", HDR "kernel a b\n"},
    {"too-many-fields",
     HDR K "param tensormap 0 f16 5 box 1 1 1 1 1 swizzle 0 1 2 3 4\nend\n"},
    {"header-inside", HDR K "tile-kernel-info 1\nend\n"},
    {"access-scalar", HDR K "param scalar 0 i32\naccess 0 read\nend\n"},
    {"access-out-of-range", HDR K M2 "access 1 write\nend\n"},
    {"access-before-param", HDR K "access 0 read\n" M2 "end\n"},
    {"access-arg-big", HDR K M2 "access 64 read\nend\n"},
    {"access-arg-negative", HDR K M2 "access -1 read\nend\n"},
    {"access-tensormap", HDR K M2 "param tensormap 0 f16 2 box 64 64 swizzle "
                                  "128\naccess 1 read\nend\n"},
    {"access-twice", HDR K M2 "access 0 read\naccess 0 read\nend\n"},
    {"access-twice-other", HDR K M2 "access 0 write\naccess 0 read\nend\n"},
    {"access-word", HDR K M2 "access 0 rw\nend\n"},
    {"access-word-case", HDR K M2 "access 0 Read\nend\n"},
    {"access-missing-word", HDR K M2 "access 0\nend\n"},
    {"access-missing-arg", HDR K M2 "access\nend\n"},
    {"access-extra-field", HDR K M2 "access 0 read write\nend\n"},
};

/* The kernel-info text of records k0 .. k<n-1> (NULL when out of memory);
 * `cap` bytes, room for one record more. */
static const char kRecord[] = "kernel k%d\nblock 128 1 1\nsmem 0\n"
                              "grid 0 0 0 64\nparam memref 0 f16 1\nend\n";

static char *many_records(int n, size_t *len, size_t *cap) {
  *cap = (size_t)n * 96 + 192;
  char *text = malloc(*cap);
  if (!text)
    return NULL;
  *len = (size_t)snprintf(text, *cap, "tile-kernel-info 1\n");
  for (int i = 0; i < n; ++i)
    *len += (size_t)snprintf(text + *len, *cap - *len, kRecord, i);
  return text;
}

/* Seconds of this process's CPU time (not wall time: the test must not
 * depend on what else the machine runs). */
static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU seconds to parse `text`, and the parse itself in *out. */
/* The least CPU time of three parses (one run can be slowed by whatever
 * shares the machine's caches); `*out` holds the last one's info. */
static double parse_many(const char *text, size_t len,
                         tile_rt_kernel_info **out, tile_rt_status *st) {
  double best = -1;
  for (int run = 0; run < 3; ++run) {
    if (run)
      tile_rt_kernel_info_free(*out);
    *out = NULL;
    double t0 = cpu_seconds();
    *st = tile_rt_kernel_info_parse(out, text, len);
    double t = cpu_seconds() - t0;
    if (best < 0 || t < best)
      best = t;
  }
  return best;
}

/* 200000 records parse in linear time: ten times the records of 20000 take
 * well under 30 times as long (a quadratic duplicate check took a hundred
 * times as long: over two minutes), and a duplicate among them is still
 * found. */
static void many_kernels(void) {
  enum { N = 200000 };
  size_t len, cap, small_len, small_cap;
  char *small = many_records(N / 10, &small_len, &small_cap);
  char *text = many_records(N, &len, &cap);
  if (!small || !text) {
    free(small);
    free(text);
    return;
  }
  tile_rt_kernel_info *info = NULL;
  tile_rt_status st;
  double t_small = parse_many(small, small_len, &info, &st);
  tile_rt_kernel_info_free(info);
  info = NULL;
  double t_big = parse_many(text, len, &info, &st);
  int count = 0;
  if (st == TILE_RT_SUCCESS)
    tile_rt_kernel_info_count(&count, info);
  const tile_rt_kernel_desc *last = NULL;
  if (st == TILE_RT_SUCCESS)
    tile_rt_kernel_info_find(&last, info, "k199999");
  double ratio = t_big / (t_small > 1e-3 ? t_small : 1e-3);
  if (ratio < 30)
    printf("many: %s, %d kernels, last %s, in linear time\n",
           tile_rt_status_name(st), count, last ? last->name : "missing");
  else
    printf("many: %s, %d kernels, last %s, TOO SLOW: %.0fx the time of a "
           "tenth of the records\n",
           tile_rt_status_name(st), count, last ? last->name : "missing",
           ratio);
  tile_rt_kernel_info_free(info);
  /* The same with the last name repeated. */
  len += (size_t)snprintf(text + len, cap - len, kRecord, 123456);
  info = NULL;
  st = tile_rt_kernel_info_parse(&info, text, len);
  printf("many duplicate: %s: %s\n", tile_rt_status_name(st),
         st == TILE_RT_SUCCESS ? "(accepted)" : tile_rt_last_error());
  tile_rt_kernel_info_free(info);
  free(small);
  free(text);
}

/* A kernel of 40 contracts: the runtime keeps every one (no fixed limit). */
static void many_contracts(void) {
  char text[4096];
  size_t len = (size_t)snprintf(text, sizeof text,
                                HDR "kernel k\nblock 32 1 1\nsmem 0\n"
                                    "param memref 0 f16 1\n");
  for (int i = 0; i < 40; ++i)
    len += (size_t)snprintf(text + len, sizeof text - len,
                            "require ge 0:0:X %d\n", i + 1);
  len += (size_t)snprintf(text + len, sizeof text - len, "end\n");
  tile_rt_kernel_info *info = NULL;
  if (report("many contracts", tile_rt_kernel_info_parse(&info, text, len)) !=
      TILE_RT_SUCCESS)
    return;
  const tile_rt_kernel_desc *k = NULL;
  MUST(tile_rt_kernel_info_get(&k, info, 0));
  char last[128];
  tile_rt_contract_format(last, sizeof last, k, k->ncontracts - 1);
  printf("many contracts: %d, the last %s\n", k->ncontracts, last);
  MUST(tile_rt_kernel_info_free(info));
}

int main(void) {
  /* Status and dtype helpers. */
  for (int s = TILE_RT_SUCCESS; s <= TILE_RT_ERROR_TIMEOUT; ++s)
    printf("status %d %s\n", s, tile_rt_status_name((tile_rt_status)s));
  printf("status 99 %s\n", tile_rt_status_name((tile_rt_status)99));
  const char *names[] = {"f16", "bf16", "f32", "f64",      "i8",
                         "i16", "i32",  "i64", "f8E4M3FN", "f8E5M2"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
    tile_rt_dtype d;
    MUST(tile_rt_dtype_from_name(&d, names[i]));
    printf("dtype %s = %d size %zu name %s\n", names[i], (int)d,
           tile_rt_dtype_size(d), tile_rt_dtype_name(d));
  }
  tile_rt_dtype d;
  report("dtype f8", tile_rt_dtype_from_name(&d, "f8"));
  printf("dtype 42 size %zu name %s\n", tile_rt_dtype_size((tile_rt_dtype)42),
         tile_rt_dtype_name((tile_rt_dtype)42));

  /* Valid texts. */
  parse_and_print("gemm", gemm_info, strlen(gemm_info));
  /* A NUL counted in the length, no final newline, a repeated header. */
  parse_and_print("with-nul", gemm_info, sizeof gemm_info);
  const char *no_newline = HDR "kernel a\nblock 32 1 1\nsmem 16\nend";
  parse_and_print("no-newline", no_newline, strlen(no_newline));
  const char *two = HDR "kernel a\nblock 32 1 1\nsmem 0\nend\n" HDR
                        "kernel b\nblock 64 1 1\nsmem 0\nend\n";
  parse_and_print("two-headers", two, strlen(two));
  /* Clusters: given, and 1 1 1 where the record has no line. */
  const char *clusters = HDR "kernel a\nblock 128 1 1\nsmem 0\ncluster 2 1 1\n"
                             "end\nkernel b\nblock 128 1 1\nsmem 0\n"
                             "cluster 1 1 1\nend\n";
  parse_and_print("clusters", clusters, strlen(clusters));
  parse_and_print("access", access_info, strlen(access_info));
  parse_and_print("contracts", contract_info, strlen(contract_info));
  const char *none = HDR;
  parse_and_print("no-kernels", none, strlen(none));
  /* Only the first `len` bytes count. */
  parse_and_print("prefix", gemm_info, 19);

  /* Lookups. */
  tile_rt_kernel_info *info;
  MUST(tile_rt_kernel_info_parse(&info, gemm_info, strlen(gemm_info)));
  const tile_rt_kernel_desc *k = NULL;
  if (report("find softmax", tile_rt_kernel_info_find(&k, info, "softmax")) ==
      TILE_RT_SUCCESS)
    printf("found %s\n", k->name);
  report("find gemm", tile_rt_kernel_info_find(&k, info, "gemm"));
  report("get 2", tile_rt_kernel_info_get(&k, info, 2));
  report("get -1", tile_rt_kernel_info_get(&k, info, -1));
  report("parse NULL", tile_rt_kernel_info_parse(NULL, "", 0));
  MUST(tile_rt_kernel_info_free(info));
  report("free NULL", tile_rt_kernel_info_free(NULL));

  /* Malformed texts. */
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    tile_rt_kernel_info *out = (tile_rt_kernel_info *)&out;
    tile_rt_status st =
        tile_rt_kernel_info_parse(&out, bad[i].text, strlen(bad[i].text));
    printf("bad %s: %s: %s%s\n", bad[i].label, tile_rt_status_name(st),
           st == TILE_RT_SUCCESS ? "(accepted)" : tile_rt_last_error(),
           out ? " [output not cleared]" : "");
    if (st == TILE_RT_SUCCESS)
      tile_rt_kernel_info_free(out);
  }
  many_kernels();
  many_contracts();
  return 0;
}
