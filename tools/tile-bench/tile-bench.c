/*===- tile-bench.c - Our kernels against cuBLAS, same inputs and timing --===*
 *
 * tile-bench FILE.mlir --op gemm --kernel NAME --sizes 4096,8192x8192x1024
 *   compiles FILE (or loads --no-compile --image/--kinfo), and for each size
 *   runs our kernel and cublasGemmEx on the same inputs, checks our output
 *   against cuBLAS's, times both with the same event loop (median, rotated
 *   inputs) and prints a table. A benchmark, not a test.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "cublas_loader.h"
#include "gemm_problem.h"
#include "host_util.h"
#include "timing.h"
#include "tool_compile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_DEFAULT_ITERS 50
#define BENCH_DEFAULT_WARMUP 10
#define BENCH_DEFAULT_TIMEOUT_S 60.0
#define BENCH_MAX_SIZES 64

typedef struct bench_size {
  int64_t m, n, k;
} bench_size;

typedef struct bench_args {
  tool_source source;
  const char *op, *kernel;
  bench_size sizes[BENCH_MAX_SIZES];
  int nsizes;
  int iters, warmup, device, trans_b, tf32;
  uint64_t seed;
  double timeout_s;
} bench_args;

static void usage(void) {
  printf("usage: tile-bench FILE.mlir --op gemm --kernel NAME --sizes "
         "S[,S...] [options]\n"
         "  S is N (an N x N x N gemm) or MxNxK.\n\nsource options:\n%s"
         "\nbench options:\n"
         "  --iters N          timed launches per size (default %d)\n"
         "  --warmup N         untimed launches first (default %d)\n"
         "  --trans-b          B is [N, K] row-major\n"
         "  --cublas-tf32      cuBLAS computes f32 inputs in TF32\n"
         "  --seed S           seed of the random inputs (default 1)\n"
         "  --device N         GPU ordinal (default 0)\n"
         "  --timeout SEC      longest wait for the GPU (default %.0f)\n"
         "  env TILE_CUBLAS    path of libcublas.so if not on the search "
         "path\n",
         tool_source_usage, BENCH_DEFAULT_ITERS, BENCH_DEFAULT_WARMUP,
         BENCH_DEFAULT_TIMEOUT_S);
}

/* "4096" or "8192x8192x1024", comma separated. */
static int parse_sizes(bench_args *a, const char *list) {
  char *copy = strdup(list), *save = NULL;
  if (!copy)
    return tool_fail("out of memory");
  int rc = 0;
  for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0;
       tok = strtok_r(NULL, ",", &save)) {
    if (a->nsizes == BENCH_MAX_SIZES) {
      rc = tool_fail("more than %d sizes", BENCH_MAX_SIZES);
      break;
    }
    bench_size *s = &a->sizes[a->nsizes++];
    char *x1 = strchr(tok, 'x');
    if (!x1) {
      if (tool_parse_i64(&s->m, tok, 1, INT32_MAX) != 0)
        rc = tool_fail("bad size '%s' (want N or MxNxK)", tok);
      s->n = s->k = s->m;
      continue;
    }
    char *x2 = strchr(x1 + 1, 'x');
    if (!x2) {
      rc = tool_fail("bad size '%s' (want N or MxNxK)", tok);
      break;
    }
    *x1 = *x2 = '\0';
    if (tool_parse_i64(&s->m, tok, 1, INT32_MAX) != 0 ||
        tool_parse_i64(&s->n, x1 + 1, 1, INT32_MAX) != 0 ||
        tool_parse_i64(&s->k, x2 + 1, 1, INT32_MAX) != 0)
      rc = tool_fail("bad size in '%s' (want N or MxNxK)", list);
  }
  free(copy);
  return rc;
}

static const char *value_of(int argc, char **argv, int *i) {
  if (*i + 1 >= argc) {
    tool_fail("%s needs a value", argv[*i]);
    return NULL;
  }
  return argv[++*i];
}

/* Returns -1 to exit 0 (help), 0 to go on, 2 on a usage error. */
static int parse_args(bench_args *a, int argc, char **argv) {
  memset(a, 0, sizeof *a);
  tool_source_init(&a->source);
  a->iters = BENCH_DEFAULT_ITERS;
  a->warmup = BENCH_DEFAULT_WARMUP;
  a->seed = 1;
  a->timeout_s = BENCH_DEFAULT_TIMEOUT_S;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i], *v = NULL;
    int64_t x;
    int r = tool_source_option(&a->source, argc, argv, &i);
    if (r < 0)
      return 2;
    if (r > 0)
      continue;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      usage();
      return -1;
    } else if (strcmp(arg, "--trans-b") == 0) {
      a->trans_b = 1;
    } else if (strcmp(arg, "--cublas-tf32") == 0) {
      a->tf32 = 1;
    } else if (strcmp(arg, "--op") == 0) {
      if (!(a->op = value_of(argc, argv, &i)))
        return 2;
    } else if (strcmp(arg, "--kernel") == 0) {
      if (!(a->kernel = value_of(argc, argv, &i)))
        return 2;
    } else if (strcmp(arg, "--sizes") == 0) {
      if (!(v = value_of(argc, argv, &i)) || parse_sizes(a, v) != 0)
        return 2;
    } else if (strcmp(arg, "--iters") == 0 || strcmp(arg, "--warmup") == 0 ||
               strcmp(arg, "--device") == 0 || strcmp(arg, "--seed") == 0) {
      int64_t lo = strcmp(arg, "--iters") == 0 ? 1 : 0;
      if (!(v = value_of(argc, argv, &i)) ||
          tool_parse_i64(&x, v, lo, INT32_MAX) != 0)
        return tool_fail("%s wants an integer >= %lld", arg, (long long)lo), 2;
      if (arg[2] == 'i')
        a->iters = (int)x;
      else if (arg[2] == 'w')
        a->warmup = (int)x;
      else if (arg[2] == 'd')
        a->device = (int)x;
      else
        a->seed = (uint64_t)x;
    } else if (strcmp(arg, "--timeout") == 0) {
      if (!(v = value_of(argc, argv, &i)) ||
          tool_parse_double(&a->timeout_s, v) != 0 || a->timeout_s <= 0)
        return tool_fail("--timeout wants a positive number of seconds"), 2;
    } else if (strncmp(arg, "--", 2) == 0) {
      return tool_fail("unknown option '%s' (see --help)", arg), 2;
    } else if (!a->source.mlir_path) {
      a->source.mlir_path = arg;
    } else {
      return tool_fail("more than one input file"), 2;
    }
  }
  if (!a->op || strcmp(a->op, "gemm") != 0)
    return tool_fail("--op gemm is the operator tile-bench knows"), 2;
  if (a->nsizes == 0)
    return tool_fail("--sizes is required"), 2;
  return tool_source_validate(&a->source) ? 2 : 0;
}

/* GPU name, clocks and driver from nvidia-smi, when it is there. */
static void print_nvidia_smi(int device, const char *when) {
  char cmd[256], line[512];
  snprintf(cmd, sizeof cmd,
           "nvidia-smi -i %d --query-gpu=name,clocks.sm,clocks.max.sm,"
           "clocks.mem,driver_version --format=csv,noheader 2>/dev/null",
           device);
  FILE *f = popen(cmd, "r");
  if (!f)
    return;
  if (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    printf("nvidia-smi %s: %s (name, SM clock, max SM clock, memory clock, "
           "driver)\n",
           when, line);
  }
  pclose(f);
}

typedef struct bench_ctx {
  tile_rt_kernel *kernel;
  tool_cublas *cublas;
  const gemm_problem *p;
  tile_rt_deviceptr c;
} bench_ctx;

static int launch_ours(void *user, int set, tile_rt_stream *stream) {
  const bench_ctx *b = user;
  tile_rt_status st = gemm_problem_launch(b->kernel, b->p, set, b->c, stream);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("launching our kernel", st);
}

static int launch_cublas(void *user, int set, tile_rt_stream *stream) {
  const bench_ctx *b = user;
  void *native;
  tile_rt_stream_native(&native, stream);
  return tool_cublas_gemm(b->cublas, b->p, set, b->c, native);
}

/* Runs both once on poisoned outputs and compares; *ok = within threshold. */
static int verify(const bench_args *a, tile_rt_context *ctx,
                  tile_rt_stream *stream, bench_ctx *ours, bench_ctx *peer,
                  double *rel, int *ok) {
  const gemm_problem *p = ours->p;
  size_t count = (size_t)(p->m * p->n);
  tile_rt_status st = tool_poison(ctx, ours->c, p->c_type, count);
  if (st == TILE_RT_SUCCESS)
    st = tool_poison(ctx, peer->c, p->c_type, count);
  if (st != TILE_RT_SUCCESS)
    return tool_rt_fail("poisoning the outputs", st);
  if (launch_ours(ours, 0, stream) != 0 || launch_cublas(peer, 0, stream) != 0)
    return 1;
  if ((st = tile_rt_stream_synchronize(ctx, stream, a->timeout_s)) !=
      TILE_RT_SUCCESS)
    return tool_rt_fail("running", st);
  gemm_check r;
  if (gemm_problem_compare(&r, p, ours->c, peer->c) != 0)
    return 1;
  *rel = r.rel_err;
  *ok = r.pass;
  if (!r.pass)
    printf("  MISMATCH: ours vs cuBLAS rel diff %.2e (threshold %.0e), %zu "
           "non-finite outputs of ours\n",
           r.rel_err, gemm_problem_threshold(p), r.nonfinite);
  return 0;
}

/* One table row; returns 0, or 1 when something failed. */
static int bench_one(const bench_args *a, tile_rt_context *ctx,
                     tile_rt_stream *stream, tile_rt_kernel *kernel,
                     tool_cublas *cublas, const tile_rt_dtype types[3],
                     const bench_size *s, int *mismatch) {
  gemm_problem p;
  if (gemm_problem_init(&p, ctx, s->m, s->n, s->k, a->trans_b, types, a->seed,
                        GEMM_ROTATE_BYTES) != 0)
    return 1;
  tile_rt_deviceptr c_peer = 0;
  tile_rt_status st = tile_rt_mem_alloc(&c_peer, ctx, p.c_bytes);
  int rc = st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("allocating", st);
  bench_ctx ours = {kernel, cublas, &p, p.c},
            peer = {kernel, cublas, &p, c_peer};
  double rel = 0;
  int ok = 0;
  tool_timing t_ours, t_peer;
  if (rc == 0)
    rc = verify(a, ctx, stream, &ours, &peer, &rel, &ok);
  if (rc == 0)
    rc = tool_time_launches(&t_ours, ctx, stream, launch_ours, &ours, p.nsets,
                            a->warmup, a->iters, a->timeout_s);
  if (rc == 0)
    rc = tool_time_launches(&t_peer, ctx, stream, launch_cublas, &peer, p.nsets,
                            a->warmup, a->iters, a->timeout_s);
  if (rc == 0) {
    double flops = 2.0 * (double)p.m * (double)p.n * (double)p.k;
    double tf_ours = flops / (t_ours.median_ms * 1e-3) / 1e12;
    double tf_peer = flops / (t_peer.median_ms * 1e-3) / 1e12;
    char size[64];
    snprintf(size, sizeof size, "%lldx%lldx%lld", (long long)p.m,
             (long long)p.n, (long long)p.k);
    printf("%-20s %10.4f %9.1f %11.4f %9.1f %11.2fx %10.2e%s\n", size,
           t_ours.median_ms, tf_ours, t_peer.median_ms, tf_peer,
           tf_ours / tf_peer, rel, ok ? "" : " MISMATCH");
    fflush(stdout);
    if (!ok)
      *mismatch = 1;
  }
  tile_rt_mem_free(ctx, c_peer);
  gemm_problem_free(&p);
  return rc;
}

static int run(const bench_args *a) {
  tool_buffer image = {0}, kinfo = {0};
  tile_rt_context *ctx = NULL;
  tile_rt_module *module = NULL;
  tile_rt_stream *stream = NULL;
  tool_cublas *cublas = NULL;
  tile_rt_kernel *kernel = NULL;
  const tile_rt_kernel_desc *desc = NULL;
  int rc = tool_source_load(&a->source, &image, &kinfo), mismatch = 0;
  if (rc != 0)
    goto done;
  tile_rt_status st = tile_rt_context_create(&ctx, a->device);
  if (st == TILE_RT_ERROR_NO_DRIVER || st == TILE_RT_ERROR_NO_DEVICE) {
    printf("no GPU found: %s\n", tile_rt_last_error());
    goto done;
  }
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_module_load(&module, ctx, image.data, image.size, kinfo.data,
                             kinfo.size);
  if (st == TILE_RT_SUCCESS) {
    const char *name = a->kernel;
    const tile_rt_kernel_info *info;
    int n;
    tile_rt_module_kernel_info(&info, module);
    tile_rt_kernel_info_count(&n, info);
    if (!name && n == 1) {
      tile_rt_kernel_info_get(&desc, info, 0);
      name = desc->name;
    }
    if (!name) {
      rc = tool_fail("the module has %d kernels: name one with --kernel", n);
      goto done;
    }
    st = tile_rt_module_get_kernel(&kernel, module, name);
  }
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_kernel_desc_of(&desc, kernel);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_stream_create(&stream, ctx);
  if (st != TILE_RT_SUCCESS) {
    rc = tool_rt_fail("setting up", st);
    goto done;
  }
  tile_rt_dtype types[3];
  if ((rc = gemm_types_of_kernel(types, desc)) != 0 ||
      (rc = tool_cublas_open(&cublas, ctx, a->tf32)) != 0)
    goto done;

  tile_rt_device_info dev;
  tile_rt_context_device_info(&dev, ctx);
  printf("GPU %d: %s, sm_%d%d, %d SMs, %d MHz peak SM clock\n", dev.ordinal,
         dev.name, dev.cc_major, dev.cc_minor, dev.sm_count,
         dev.clock_khz / 1000);
  print_nvidia_smi(a->device, "before");
  printf("cuBLAS %d from %s, cublasGemmEx with %s\n",
         tool_cublas_version(cublas), tool_cublas_path(cublas),
         a->tf32 && types[0] == TILE_RT_F32 ? "CUBLAS_COMPUTE_32F_FAST_TF32"
                                            : "CUBLAS_COMPUTE_32F");
  printf("kernel %s: A=%s B%s=%s C=%s; median of %d launches after %d "
         "warm-up, inputs rotated past %zu MiB\n",
         desc->name, tile_rt_dtype_name(types[0]), a->trans_b ? "^T" : "",
         tile_rt_dtype_name(types[1]), tile_rt_dtype_name(types[2]), a->iters,
         a->warmup, GEMM_ROTATE_BYTES >> 20);
  printf("%-20s %10s %9s %11s %9s %12s %10s\n", "size (MxNxK)", "ours ms",
         "TFLOP/s", "cuBLAS ms", "TFLOP/s", "ours/cuBLAS", "rel diff");
  for (int i = 0; i < a->nsizes; ++i)
    if (bench_one(a, ctx, stream, kernel, cublas, types, &a->sizes[i],
                  &mismatch) != 0)
      rc = 1;
  print_nvidia_smi(a->device, "after");
  if (mismatch)
    rc = tool_fail("our output differs from cuBLAS's beyond the threshold "
                   "(MISMATCH rows): the times above are not comparable");
done:
  tool_cublas_close(cublas);
  tile_rt_stream_free(stream);
  tile_rt_module_free(module);
  tile_rt_context_free(ctx);
  tool_buffer_free(&image);
  tool_buffer_free(&kinfo);
  return rc;
}

int main(int argc, char **argv) {
  tool_name = "tile-bench";
  bench_args a;
  int rc = parse_args(&a, argc, argv);
  if (rc < 0)
    return 0;
  if (rc > 0)
    return rc;
  return run(&a);
}
