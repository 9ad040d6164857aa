/*===- tile-tune.c - Tune a kernel's schedule for problem shapes -----------===*
 *
 *   tile-tune FILE.mlir --kernel NAME --op OP --sizes SIZE[,...] [options]
 *   tile-tune FILE.mlir --kernel NAME --problem P.json [options]
 *   tile-tune --cache-list | --cache-clear [--cache-dir DIR]
 *
 * For each size of a built-in operator, or for the one problem a JSON file
 * describes (problem_json.h): the cached best, or the whole tuning
 * (tune.h), then a table of the best configuration per size.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "builtin_problems.h"
#include "tune.h"

#include "tile-c/Cache.h"
#include "tile-rt/tile_rt.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZES 32

static const char usage[] =
    "usage: tile-tune FILE.mlir --kernel NAME --op OP --sizes SIZES "
    "[options]\n"
    "       tile-tune FILE.mlir --kernel NAME --problem P.json [options]\n"
    "       tile-tune --cache-list | --cache-clear [--cache-dir DIR]\n"
    "\n"
    "Tunes the schedule parameters of kernel or instance NAME for each size:\n"
    "drops the configurations that cannot run before compiling them, "
    "compiles\n"
    "the rest in parallel, checks each against a reference (fp64 on the "
    "host\n"
    "for the built-in operators), times the correct ones and keeps the best "
    "in\n"
    "the tuning cache.\n"
    "\n"
    "  --op OP               gemm, gemm_bias_gelu, softmax or attention\n"
    "  --problem P.json      any kernel's problem instead (docs/Problems.md): "
    "its\n"
    "                        arguments, checked against its \"reference\" "
    "kernel or\n"
    "                        the default configuration\n"
    "  --sizes LIST          MxNxK (gemms), MxN (softmax) or BxHxSxD "
    "(attention:\n"
    "                        batch, heads, sequence, head_dim), "
    "comma-separated\n"
    "  --gelu erf            gemm_bias_gelu: the erf form (default tanh)\n"
    "  --causal              attention: keys past the query masked (binds "
    "CAUSAL)\n"
    "  --param NAME=VALUE    fix a parameter for every configuration\n"
    "  --space NAME=V1,V2    the values of one parameter (narrows, widens or\n"
    "                        adds to the kernel's candidates)\n"
    "  --jobs N              compilations at once (default: every CPU)\n"
    "  --compile-timeout S   give up on a compilation after S s (default 4)\n"
    "  --max-spill-bytes B   drop configurations spilling more (default: "
    "keep)\n"
    "  --early-stop X        stop timing one X times slower than the best "
    "(1.5)\n"
    "  --iters N --warmup N  timed and warm-up launches (20, 3)\n"
    "  --seed N              of the random inputs (1)\n"
    "  --timeout S           longest wait for one launch (10)\n"
    "  --device N            the GPU (0)\n"
    "  --smem-limit B        shared memory per block (default: the device's)\n"
    "  --threads-limit N     threads per block (default: the device's)\n"
    "  --compile-only        no GPU: enumerate, filter and compile only\n"
    "  --cache-dir DIR       the cache (default $TILE_MLIR_CACHE_DIR, else\n"
    "                        $XDG_CACHE_HOME/tile-mlir, else "
    "~/.cache/tile-mlir)\n"
    "  --no-cache            neither read nor write any cache\n"
    "  --retune              tune even when the answer is cached\n"
    "  --emit-dir DIR        write the best per size: DIR/NAME_MxNxK.cubin,\n"
    "                        .kinfo and .config (K is 0 for softmax; "
    "attention:\n"
    "                        NAME_BxHxSxD, NAME_BxHxSxD_causal)\n"
    "  --cache-list          list the cache's entries\n"
    "  --cache-clear         remove every entry\n"
    "  -v, --verbose         every dropped configuration and its reason\n"
    "  --no-progress         no progress bars on stderr\n";

enum {
  OPT_KERNEL = 256,
  OPT_OP,
  OPT_PROBLEM,
  OPT_SIZES,
  OPT_GELU,
  OPT_PARAM,
  OPT_SPACE,
  OPT_JOBS,
  OPT_COMPILE_TIMEOUT,
  OPT_MAX_SPILL,
  OPT_EARLY_STOP,
  OPT_ITERS,
  OPT_WARMUP,
  OPT_SEED,
  OPT_DEVICE,
  OPT_SMEM,
  OPT_THREADS,
  OPT_COMPILE_ONLY,
  OPT_CACHE_DIR,
  OPT_NO_CACHE,
  OPT_RETUNE,
  OPT_EMIT_DIR,
  OPT_LIST,
  OPT_CLEAR,
  OPT_NO_PROGRESS,
  OPT_TIMEOUT,
  OPT_HELP,
  OPT_CAUSAL
};

static const struct option options[] = {
    {"kernel", required_argument, 0, OPT_KERNEL},
    {"op", required_argument, 0, OPT_OP},
    {"problem", required_argument, 0, OPT_PROBLEM},
    {"sizes", required_argument, 0, OPT_SIZES},
    {"gelu", required_argument, 0, OPT_GELU},
    {"param", required_argument, 0, OPT_PARAM},
    {"space", required_argument, 0, OPT_SPACE},
    {"jobs", required_argument, 0, OPT_JOBS},
    {"compile-timeout", required_argument, 0, OPT_COMPILE_TIMEOUT},
    {"max-spill-bytes", required_argument, 0, OPT_MAX_SPILL},
    {"early-stop", required_argument, 0, OPT_EARLY_STOP},
    {"iters", required_argument, 0, OPT_ITERS},
    {"warmup", required_argument, 0, OPT_WARMUP},
    {"seed", required_argument, 0, OPT_SEED},
    {"device", required_argument, 0, OPT_DEVICE},
    {"smem-limit", required_argument, 0, OPT_SMEM},
    {"threads-limit", required_argument, 0, OPT_THREADS},
    {"compile-only", no_argument, 0, OPT_COMPILE_ONLY},
    {"cache-dir", required_argument, 0, OPT_CACHE_DIR},
    {"no-cache", no_argument, 0, OPT_NO_CACHE},
    {"retune", no_argument, 0, OPT_RETUNE},
    {"emit-dir", required_argument, 0, OPT_EMIT_DIR},
    {"cache-list", no_argument, 0, OPT_LIST},
    {"cache-clear", no_argument, 0, OPT_CLEAR},
    {"verbose", no_argument, 0, 'v'},
    {"no-progress", no_argument, 0, OPT_NO_PROGRESS},
    {"timeout", required_argument, 0, OPT_TIMEOUT},
    {"help", no_argument, 0, OPT_HELP},
    {"causal", no_argument, 0, OPT_CAUSAL},
    {0, 0, 0, 0}};

/* One --sizes entry: MxNxK, MxN (softmax) or BxHxSxD (attention). */
typedef struct problem_size {
  long long dim[4];
} problem_size;

static int is_op(const tune_request *r, const char *op) {
  return r->op && strcmp(r->op, op) == 0;
}

/* "MxNxK", "MxN" or "BxHxSxD": the form of `r`'s sizes. */
static const char *size_form(const tune_request *r) {
  return is_op(r, "attention") ? "BxHxSxD"
         : is_op(r, "softmax") ? "MxN"
                               : "MxNxK";
}

/* "4096x4096x4096,256x8192x8192" (MxN for softmax, BxHxSxD for
 * attention). */
static int parse_sizes(const char *text, const tune_request *r,
                       problem_size *out, int *n) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", text);
  char *save = NULL;
  int want = is_op(r, "attention") ? 4 : is_op(r, "softmax") ? 2 : 3;
  *n = 0;
  for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (*n == MAX_SIZES)
      return tool_fail("at most %d sizes", MAX_SIZES);
    problem_size size = {{0, 0, 0, 0}};
    long long *d = size.dim;
    char extra;
    int got =
        sscanf(t, "%lldx%lldx%lldx%lld%c", &d[0], &d[1], &d[2], &d[3], &extra);
    int positive = 1;
    for (int i = 0; i < want; ++i)
      positive &= d[i] > 0;
    if (got != want || !positive)
      return tool_fail("a size is %s, got '%s'", size_form(r), t);
    out[(*n)++] = size;
  }
  return *n ? 0 : tool_fail("--sizes is empty");
}

/* Sets the problem of `r` to `size`. */
static void set_size(tune_request *r, const problem_size *size) {
  const long long *d = size->dim;
  if (is_op(r, "attention")) {
    r->b = d[0], r->h = d[1], r->s = d[2], r->d = d[3];
    return;
  }
  r->m = d[0], r->n = d[1], r->k = d[2];
}

/* The size as the table shows it: "4096x4096x4096", "4096x50257",
 * "8x16x4096x128 causal". */
static void size_text(char *buf, size_t n, const tune_request *r,
                      const problem_size *size) {
  const long long *d = size->dim;
  if (r->problem_path)
    tool_path_stem(buf, n, r->problem_path);
  else if (is_op(r, "attention"))
    snprintf(buf, n, "%lldx%lldx%lldx%lld%s", d[0], d[1], d[2], d[3],
             r->causal ? " causal" : "");
  else if (is_op(r, "softmax"))
    snprintf(buf, n, "%lldx%lld", d[0], d[1]);
  else
    snprintf(buf, n, "%lldx%lldx%lld", d[0], d[1], d[2]);
}

/* The files --emit-dir writes, without their extension: DIR/NAME_MxNxK
 * (K 0 for softmax), DIR/NAME_BxHxSxD or DIR/NAME_BxHxSxD_causal. */
static void emit_stem(char *buf, size_t n, const char *dir,
                      const tune_request *r, const problem_size *size) {
  const long long *d = size->dim;
  char stem[256];
  if (r->problem_path)
    snprintf(buf, n, "%s/%s_%s", dir, r->kernel,
             tool_path_stem(stem, sizeof stem, r->problem_path));
  else if (is_op(r, "attention"))
    snprintf(buf, n, "%s/%s_%lldx%lldx%lldx%lld%s", dir, r->kernel, d[0], d[1],
             d[2], d[3], r->causal ? "_causal" : "");
  else
    snprintf(buf, n, "%s/%s_%lldx%lldx%lld", dir, r->kernel, d[0], d[1], d[2]);
}

/* Writes the best of `res` to the --emit-dir files of `size`. */
static int emit(const char *dir, const tune_request *r,
                const problem_size *size, const tune_result *res) {
  char stem[4096], path[4200];
  if (tool_make_dir(dir) != 0)
    return 1;
  emit_stem(stem, sizeof stem, dir, r, size);
  int rc = 0;
  snprintf(path, sizeof path, "%s.cubin", stem);
  rc |= tool_write_file(path, res->image.data, res->image.size);
  snprintf(path, sizeof path, "%s.kinfo", stem);
  rc |= tool_write_file(path, res->kinfo.data, res->kinfo.size);
  snprintf(path, sizeof path, "%s.config", stem);
  rc |= tool_write_file(path, res->best, strlen(res->best));
  return rc;
}

static void print_text(MlirStringRef s, void *user) {
  (void)user;
  fprintf(stderr, "error: %.*s\n", (int)s.length, s.data);
}

static void print_listing(const MlirTileCacheListing *e, void *user) {
  int *count = user;
  ++*count;
  printf("%-8.*s %.16s %8llu %s%.*s\n", (int)e->kind.length, e->kind.data,
         e->key.data, (unsigned long long)e->bytes, e->valid ? "" : "! ",
         (int)e->summary.length, e->summary.data);
}

static int cache_command(int list, const char *dir_opt) {
  tune_request r;
  tune_request_init(&r);
  r.cache_dir = dir_opt;
  char dir[4096];
  tune_cache_dir(&r, dir, sizeof dir);
  if (!dir[0])
    return tool_fail("no cache directory (set TILE_MLIR_CACHE_DIR or HOME)");
  MlirStringRef d = mlirStringRefCreateFromCString(dir);
  if (list) {
    int count = 0;
    printf("cache %s\n", dir);
    if (mlirLogicalResultIsFailure(
            mlirTileCacheList(d, print_listing, print_text, &count)))
      return 1;
    printf("%d entries\n", count);
    return 0;
  }
  int64_t removed = mlirTileCacheClear(d, print_text, NULL);
  if (removed < 0)
    return 1;
  printf("removed %lld entries from %s\n", (long long)removed, dir);
  return 0;
}

int main(int argc, char **argv) {
  tool_name = "tile-tune";
  /* Lines in order with the errors on stderr. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  tune_request r;
  tune_request_init(&r);
  r.progress = 1;
  const char *sizes = NULL, *emit_dir = NULL;
  int device = 0, list = 0, clear = 0, c;
  int64_t v;
  double d;
  while ((c = getopt_long(argc, argv, "v", options, NULL)) != -1) {
    switch (c) {
    case OPT_KERNEL:
      r.kernel = optarg;
      break;
    case OPT_OP:
      r.op = optarg;
      break;
    case OPT_PROBLEM:
      r.problem_path = optarg;
      break;
    case OPT_SIZES:
      sizes = optarg;
      break;
    case OPT_GELU:
      if (strcmp(optarg, "erf") && strcmp(optarg, "tanh"))
        return tool_fail("--gelu is tanh or erf, got '%s'", optarg);
      r.gelu_erf = strcmp(optarg, "erf") == 0;
      break;
    case OPT_PARAM:
    case OPT_SPACE: {
      int *n = c == OPT_PARAM ? &r.nparams : &r.naxes;
      const char **list_ = c == OPT_PARAM ? r.params : r.axes;
      if (*n == TUNE_MAX_LIST)
        return tool_fail("at most %d of --param and of --space", TUNE_MAX_LIST);
      list_[(*n)++] = optarg;
      break;
    }
    case OPT_JOBS:
    case OPT_ITERS:
    case OPT_WARMUP:
    case OPT_DEVICE:
      if (tool_parse_i64(&v, optarg, c == OPT_JOBS || c == OPT_ITERS ? 1 : 0,
                         1 << 20) != 0)
        return tool_fail("bad value '%s' for --%s", optarg,
                         options[c - OPT_KERNEL].name);
      if (c == OPT_JOBS)
        r.jobs = (int)v;
      else if (c == OPT_ITERS)
        r.iters = (int)v;
      else if (c == OPT_WARMUP)
        r.warmup = (int)v;
      else
        device = (int)v;
      break;
    case OPT_SEED:
    case OPT_MAX_SPILL:
    case OPT_SMEM:
    case OPT_THREADS:
      if (tool_parse_i64(&v, optarg, 0, INT64_MAX) != 0)
        return tool_fail("bad value '%s' for --%s", optarg,
                         options[c - OPT_KERNEL].name);
      if (c == OPT_SEED)
        r.seed = (uint64_t)v;
      else if (c == OPT_MAX_SPILL)
        r.max_spill_bytes = v;
      else if (c == OPT_SMEM)
        r.smem_limit = v;
      else
        r.threads_limit = v;
      break;
    case OPT_COMPILE_TIMEOUT:
    case OPT_EARLY_STOP:
    case OPT_TIMEOUT:
      if (tool_parse_double(&d, optarg) != 0 || !(d > 0))
        return tool_fail("bad value '%s' for --%s", optarg,
                         c == OPT_TIMEOUT ? "timeout"
                                          : options[c - OPT_KERNEL].name);
      if (c == OPT_COMPILE_TIMEOUT)
        r.compile_timeout_s = d;
      else if (c == OPT_TIMEOUT)
        r.timeout_s = d;
      else
        r.early_stop = d;
      break;
    case OPT_CAUSAL:
      r.causal = 1;
      break;
    case OPT_COMPILE_ONLY:
      r.compile_only = 1;
      break;
    case OPT_CACHE_DIR:
      r.cache_dir = optarg;
      break;
    case OPT_NO_CACHE:
      r.no_cache = 1;
      break;
    case OPT_RETUNE:
      r.retune = 1;
      break;
    case OPT_EMIT_DIR:
      emit_dir = optarg;
      break;
    case OPT_LIST:
      list = 1;
      break;
    case OPT_CLEAR:
      clear = 1;
      break;
    case 'v':
      r.verbose = 1;
      break;
    case OPT_NO_PROGRESS:
      r.progress = 0;
      break;
    case OPT_HELP:
      fputs(usage, stdout);
      return 0;
    default:
      fputs(usage, stderr);
      return 2;
    }
  }
  if (list || clear) {
    if (optind != argc)
      return tool_fail("--cache-list and --cache-clear take no file");
    return cache_command(list, r.cache_dir);
  }
  if (optind + 1 != argc) {
    fputs(usage, stderr);
    return 2;
  }
  r.mlir_path = argv[optind];
  problem_size list_sizes[MAX_SIZES];
  int nsizes = 1;
  memset(list_sizes, 0, sizeof list_sizes);
  if (r.problem_path) {
    if (r.op || sizes || r.gelu_erf || r.causal)
      return tool_fail("--problem says the whole problem: no --op, --sizes, "
                       "--gelu or --causal with it");
    if (!r.kernel)
      return tool_fail("--kernel is needed");
    r.op = "problem";
  } else {
    if (!r.kernel || !r.op || !sizes)
      return tool_fail("--kernel, and --op with --sizes or --problem, are "
                       "needed");
    if (!tool_is_builtin(r.op))
      return tool_fail("--op is %s, got '%s' (a kernel of yours: --problem)",
                       tool_builtin_list, r.op);
    if (r.causal && !is_op(&r, "attention"))
      return tool_fail("--causal is for --op attention");
    if (parse_sizes(sizes, &r, list_sizes, &nsizes))
      return 1;
  }

  tile_rt_context *ctx = NULL;
  if (!r.compile_only) {
    tile_rt_status st = tile_rt_context_create(&ctx, device);
    if (st != TILE_RT_SUCCESS)
      return tool_fail("no GPU (%s): tuning measures on one; "
                       "--compile-only only compiles",
                       tile_rt_last_error());
    tile_rt_device_info dev;
    tile_rt_context_device_info(&dev, ctx);
    printf("GPU %d: %s, sm_%d%d, %d SMs, driver CUDA %d.%d\n", device, dev.name,
           dev.cc_major, dev.cc_minor, dev.sm_count, dev.driver_version / 1000,
           dev.driver_version % 1000 / 10);
  }
  int rc = 0;
  tune_result results[MAX_SIZES];
  memset(results, 0, sizeof results);
  for (int i = 0; i < nsizes; ++i) {
    set_size(&r, &list_sizes[i]);
    if (r.problem_path)
      printf("== %s problem %s\n", r.kernel, r.problem_path);
    else if (is_op(&r, "attention"))
      printf("== %s %s B=%lld H=%lld S=%lld D=%lld%s\n", r.kernel, r.op,
             (long long)r.b, (long long)r.h, (long long)r.s, (long long)r.d,
             r.causal ? " causal" : "");
    else if (r.k)
      printf("== %s %s M=%lld N=%lld K=%lld\n", r.kernel, r.op, (long long)r.m,
             (long long)r.n, (long long)r.k);
    else
      printf("== %s %s M=%lld N=%lld\n", r.kernel, r.op, (long long)r.m,
             (long long)r.n);
    fflush(stdout);
    if (tune_run(&r, ctx, &results[i]) != 0) {
      rc = 1;
      continue;
    }
    if (emit_dir && results[i].image.size)
      rc |= emit(emit_dir, &r, &list_sizes[i], &results[i]);
  }
  if (!r.compile_only) {
    printf("\n%-22s %-48s %10s %8s %s\n", "size", "best configuration",
           "median ms", "tune s", "from");
    for (int i = 0; i < nsizes; ++i) {
      char size[96];
      size_text(size, sizeof size, &r, &list_sizes[i]);
      if (!results[i].best[0]) {
        printf("%-22s (failed)\n", size);
        continue;
      }
      printf("%-22s %-48s %10.4f %8.2f %s\n", size, results[i].best,
             results[i].best_ms, results[i].seconds,
             results[i].from_cache ? "cache" : "tuned");
    }
  }
  for (int i = 0; i < nsizes; ++i)
    tune_result_free(&results[i]);
  tile_rt_context_free(ctx);
  return rc;
}
