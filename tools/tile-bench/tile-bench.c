/*===- tile-bench.c - Our kernels against their peers, same inputs --------===*
 *
 * tile-bench FILE.mlir --op OP --kernel NAME --sizes S[,S...] [options]
 * tile-bench FILE.mlir --kernel NAME --problem P.json [options]
 *   compiles FILE (or loads --no-compile --image/--kinfo), and for each size
 *   runs our kernel and its peer on the same inputs, checks our output,
 *   times both with the same event loop (median, rotated inputs) and prints
 *   a table. A benchmark, not a test. The operators:
 *   - gemm: against cublasGemmEx (bench_gemm.c);
 *   - gemm_bias_gelu: our fused kernel against our plain gemm and cuBLASLt's
 *     fused epilogue (bench_gemm_bias_gelu.c);
 *   - softmax: against the device-to-device copy bandwidth
 *     (bench_softmax.c);
 *   - --problem: any kernel on the problem a JSON file describes, alone
 *     (bench_problem.c).
 *   With --tuned, "ours" is each size's tuned configuration, and the
 *   default one runs beside it on the same inputs (bench_default.c). With
 *   --csv FILE, every measurement is also a row of FILE (bench_csv.c).
 *   With --profile ncu|nsys, the same command runs under Nsight (profile.h):
 *   ncu profiles the first timed launch of --kernel at the first size.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "bench.h"
#include "host_util.h"
#include "tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_DEFAULT_ITERS 50
#define BENCH_DEFAULT_WARMUP 10
#define BENCH_DEFAULT_TIMEOUT_S 60.0
#define BENCH_DEFAULT_PLAIN_KERNEL "gemm_f16"
#define BENCH_PLAIN_FILE_NAME "gemm.mlir"

static void usage(void) {
  printf("usage: tile-bench FILE.mlir --op OP --kernel NAME --sizes S[,S...] "
         "[options]\n"
         "  --op gemm            ours against cublasGemmEx; S is N (N x N x "
         "N) or MxNxK\n"
         "  --op gemm_bias_gelu  ours fused, ours plain gemm and cuBLASLt's "
         "GELU_BIAS\n"
         "                       epilogue; S is N or MxNxK\n"
         "  --op softmax         ours against a device-to-device copy of the "
         "same bytes;\n"
         "                       S is MxN\n"
         "  --problem P.json     any kernel on the problem P describes "
         "(docs/Problems.md),\n"
         "                       checked against its reference kernel (or "
         "the default\n"
         "                       with --tuned); no --op or --sizes\n"
         "\nsource options:\n%s"
         "\nbench options:\n"
         "  --iters N            timed launches per size (default %d)\n"
         "  --warmup N           untimed launches first (default %d)\n"
         "  --trans-b            gemm: B is [N, K] row-major\n"
         "  --cublas-tf32        gemm: cuBLAS computes f32 inputs in TF32\n"
         "  --gelu tanh|erf      gemm_bias_gelu: the fused kernel's gelu "
         "(default tanh)\n"
         "  --plain-file F.mlir  gemm_bias_gelu: the plain gemm's module "
         "(default\n"
         "                       %s beside FILE)\n"
         "  --plain-kernel NAME  gemm_bias_gelu: the plain gemm (default "
         "%s)\n"
         "  --tuned              per size, the tuned configuration of the "
         "kernel (from\n"
         "                       the tuning cache, or tuned now: see "
         "tile-tune) as ours,\n"
         "                       and the default one beside it (default "
         "ms, def/tuned)\n"
         "  --csv FILE           also write each measurement as a row of "
         "FILE (op, size,\n"
         "                       dtype, variant, impl, kernel, ms, "
         "throughput, unit,\n"
         "                       rel_err, check)\n"
         "  --profile ncu|nsys   run this command again under Nsight "
         "Compute (ours' first\n"
         "                       timed launch at the first size, every "
         "section, the clocks\n"
         "                       untouched) or Nsight Systems; where the "
         "tool is not found,\n"
         "                       print the command and exit 1\n"
         "  --profile-out FILE   the report (default tile-bench-KERNEL)\n"
         "  --seed S             seed of the random inputs (default 1)\n"
         "  --device N           GPU ordinal (default 0)\n"
         "  --timeout SEC        longest wait for the GPU (default %.0f)\n"
         "  env TILE_CUBLAS      path of libcublas.so if not on the search "
         "path\n"
         "  env TILE_CUBLASLT    path of libcublasLt.so if not on the search "
         "path\n",
         tool_source_usage, BENCH_DEFAULT_ITERS, BENCH_DEFAULT_WARMUP,
         BENCH_PLAIN_FILE_NAME, BENCH_DEFAULT_PLAIN_KERNEL,
         BENCH_DEFAULT_TIMEOUT_S);
}

/* "4096", "8192x8192x1024" or "4096x8192", comma separated; the number of
 * dimensions each must have is checked per operator. */
static int parse_sizes(bench_args *a, const char *list, int *dims_seen) {
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
    int64_t d[3] = {0, 0, 0};
    int nd = 0;
    char *save_dim = NULL;
    for (char *x = strtok_r(tok, "x", &save_dim); x && rc == 0;
         x = strtok_r(NULL, "x", &save_dim)) {
      if (nd == 3 || tool_parse_i64(&d[nd++], x, 1, INT32_MAX) != 0)
        rc = tool_fail("bad size in '%s' (want N, MxN or MxNxK of positive "
                       "integers)",
                       list);
    }
    if (rc != 0)
      break;
    bench_size *s = &a->sizes[a->nsizes++];
    s->m = d[0];
    s->n = nd == 1 ? d[0] : d[1];
    s->k = nd == 1 ? d[0] : d[2];
    dims_seen[nd] = 1;
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

/* The sizes have the form the operator wants. */
static int check_sizes(const bench_args *a, const int *dims_seen) {
  if (a->nsizes == 0)
    return tool_fail("--sizes is required");
  if (strcmp(a->op, "softmax") == 0) {
    if (dims_seen[1] || dims_seen[3])
      return tool_fail("--op softmax wants sizes MxN");
  } else if (dims_seen[2]) {
    return tool_fail("--op %s wants sizes N or MxNxK", a->op);
  }
  return 0;
}

/* Returns -1 to exit 0 (help), 0 to go on, 2 on a usage error. */
static int parse_args(bench_args *a, int argc, char **argv) {
  memset(a, 0, sizeof *a);
  tool_source_init(&a->source);
  a->iters = BENCH_DEFAULT_ITERS;
  a->warmup = BENCH_DEFAULT_WARMUP;
  a->seed = 1;
  a->timeout_s = BENCH_DEFAULT_TIMEOUT_S;
  a->gelu = GEMM_EPILOGUE_BIAS_GELU_TANH;
  a->plain_kernel = BENCH_DEFAULT_PLAIN_KERNEL;
  int dims_seen[4] = {0, 0, 0, 0};
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
    } else if (strcmp(arg, "--tuned") == 0) {
      a->tuned = 1;
    } else if (strcmp(arg, "--op") == 0) {
      if (!(a->op = value_of(argc, argv, &i)))
        return 2;
    } else if (strcmp(arg, "--problem") == 0) {
      if (!(a->problem_path = value_of(argc, argv, &i)))
        return 2;
    } else if (strcmp(arg, "--kernel") == 0) {
      if (!(a->kernel = value_of(argc, argv, &i)))
        return 2;
    } else if (strcmp(arg, "--plain-file") == 0) {
      if (!(a->plain_file = value_of(argc, argv, &i)))
        return 2;
    } else if (strcmp(arg, "--profile") == 0) {
      if (!(v = value_of(argc, argv, &i)) ||
          tool_profile_parse(&a->profile.tool, v) != 0)
        return 2;
    } else if (strcmp(arg, "--profile-out") == 0) {
      if (!(a->profile.out = value_of(argc, argv, &i)))
        return 2;
    } else if (strcmp(arg, "--csv") == 0) {
      if (!(a->csv_path = value_of(argc, argv, &i)))
        return 2;
    } else if (strcmp(arg, "--plain-kernel") == 0) {
      if (!(a->plain_kernel = value_of(argc, argv, &i)))
        return 2;
    } else if (strcmp(arg, "--gelu") == 0) {
      if (!(v = value_of(argc, argv, &i)))
        return 2;
      if (strcmp(v, "tanh") == 0)
        a->gelu = GEMM_EPILOGUE_BIAS_GELU_TANH;
      else if (strcmp(v, "erf") == 0)
        a->gelu = GEMM_EPILOGUE_BIAS_GELU_ERF;
      else
        return tool_fail("--gelu wants tanh or erf, got '%s'", v), 2;
    } else if (strcmp(arg, "--sizes") == 0) {
      if (!(v = value_of(argc, argv, &i)) || parse_sizes(a, v, dims_seen) != 0)
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
  if (a->problem_path) {
    if (a->op || a->nsizes)
      return tool_fail("--problem says the whole problem: no --op or "
                       "--sizes with it"),
             2;
    a->op = "problem";
    a->nsizes = 1; /* one row, sized by the problem */
  } else if (!a->op || (strcmp(a->op, "gemm") != 0 &&
                        strcmp(a->op, "gemm_bias_gelu") != 0 &&
                        strcmp(a->op, "softmax") != 0)) {
    return tool_fail("--op wants gemm, gemm_bias_gelu or softmax, or "
                     "--problem a kernel's own (see --help)"),
           2;
  } else if (check_sizes(a, dims_seen) != 0) {
    return 2;
  }
  if (a->tuned && !a->kernel)
    return tool_fail("--tuned needs --kernel: the kernel to tune"), 2;
  if (a->profile.out && !a->profile.tool)
    return tool_fail("--profile-out needs --profile"), 2;
  if (a->profile.tool && !a->kernel)
    return tool_fail("--profile needs --kernel: the kernel to profile"), 2;
  return tool_source_validate(&a->source) ? 2 : 0;
}

tile_rt_kernel *bench_kernel_of(const bench_env *env, const bench_size *s) {
  ptrdiff_t i = s - env->args->sizes;
  return i >= 0 && i < BENCH_MAX_SIZES && env->size_kernel[i]
             ? env->size_kernel[i]
             : env->kernel;
}

int bench_load_kernel(tile_rt_module **module, tile_rt_kernel **kernel,
                      const tile_rt_kernel_desc **desc, tile_rt_context *ctx,
                      const tool_buffer *image, const tool_buffer *kinfo,
                      const char *name) {
  tile_rt_status st = tile_rt_module_load(module, ctx, image->data, image->size,
                                          kinfo->data, kinfo->size);
  if (st == TILE_RT_SUCCESS && !name) {
    const tile_rt_kernel_info *info;
    int n;
    tile_rt_module_kernel_info(&info, *module);
    tile_rt_kernel_info_count(&n, info);
    if (n != 1)
      return tool_fail("the module has %d kernels: name one with --kernel", n);
    tile_rt_kernel_info_get(desc, info, 0);
    name = (*desc)->name;
  }
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_module_get_kernel(kernel, *module, name);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_kernel_desc_of(desc, *kernel);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("loading the kernel", st);
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

/* --tuned: per size, the tuned configuration's kernel (tune.h), loaded
 * into modules[i]; the table then runs each size on its own. */
static int load_tuned(const bench_args *a, tile_rt_context *ctx, bench_env *env,
                      tile_rt_module **modules) {
  tune_request r;
  tune_request_init(&r);
  r.mlir_path = a->source.mlir_path;
  r.kernel = a->kernel;
  r.op = a->op;
  r.problem_path = a->problem_path;
  r.gelu_erf = a->gelu == GEMM_EPILOGUE_BIAS_GELU_ERF;
  r.progress = 1;
  for (int i = 0; i < a->source.nparams && i < TUNE_MAX_LIST; ++i)
    r.params[r.nparams++] = a->source.params[i];
  printf("tuned configurations of %s:\n", a->kernel);
  for (int i = 0; i < a->nsizes; ++i) {
    r.m = a->sizes[i].m;
    r.n = a->sizes[i].n;
    r.k = a->sizes[i].k;
    tune_result res;
    if (tune_run(&r, ctx, &res) != 0) {
      tune_result_free(&res);
      return tool_fail("no tuned configuration for size %d", i + 1);
    }
    const tile_rt_kernel_desc *desc;
    int rc = bench_load_kernel(&modules[i], &env->size_kernel[i], &desc, ctx,
                               &res.image, &res.kinfo, a->kernel);
    if (a->problem_path)
      printf("  %s: %s (%s)\n", a->problem_path, res.best,
             res.from_cache ? "cached" : "tuned now");
    else
      printf("  %lldx%lldx%lld: %s (%s)\n", (long long)r.m, (long long)r.n,
             (long long)r.k, res.best, res.from_cache ? "cached" : "tuned now");
    env->size_config[i] = strdup(res.best);
    tune_result_free(&res);
    if (rc != 0)
      return 1;
    if (!env->size_config[i])
      return tool_fail("out of memory");
  }
  printf("ours: the tuned configuration of each size; default: %s as "
         "compiled, checked and timed beside it; def/tuned: the default's "
         "time over the tuned one's, the two timed again in turns (above 1: "
         "tuning won)\n",
         env->desc->name);
  return 0;
}

static int run(const bench_args *a) {
  tool_buffer image = {0}, kinfo = {0};
  tile_rt_context *ctx = NULL;
  tile_rt_module *module = NULL;
  tile_rt_stream *stream = NULL;
  tile_rt_module *tuned_modules[BENCH_MAX_SIZES] = {0};
  bench_env env;
  bench_csv csv;
  memset(&env, 0, sizeof env);
  memset(&csv, 0, sizeof csv);
  env.args = a;
  /* The CSV first: a path that cannot be written fails before anything
   * runs. Then compile: a compile error shows without a GPU too. */
  int rc = a->csv_path ? bench_csv_open(&csv, a->csv_path, a->op) : 0;
  if (rc != 0)
    goto done;
  if (a->csv_path)
    env.csv = &csv;
  rc = tool_source_load(&a->source, &image, &kinfo);
  if (rc != 0)
    goto done;
  tile_rt_status st = tile_rt_context_create(&ctx, a->device);
  if (st == TILE_RT_ERROR_NO_DRIVER || st == TILE_RT_ERROR_NO_DEVICE) {
    printf("no GPU found: %s\n", tile_rt_last_error());
    goto done;
  }
  if (st != TILE_RT_SUCCESS) {
    rc = tool_rt_fail("GPU context", st);
    goto done;
  }
  if ((rc = bench_load_kernel(&module, &env.kernel, &env.desc, ctx, &image,
                              &kinfo, a->kernel)) != 0)
    goto done;
  if (a->tuned && (rc = load_tuned(a, ctx, &env, tuned_modules)) != 0)
    goto done;
  if ((st = tile_rt_stream_create(&stream, ctx)) != TILE_RT_SUCCESS) {
    rc = tool_rt_fail("creating a stream", st);
    goto done;
  }
  env.ctx = ctx;
  env.stream = stream;
  env.module = module;
  tile_rt_device_info dev;
  tile_rt_context_device_info(&dev, ctx);
  printf("GPU %d: %s, sm_%d%d, %d SMs, %d MHz peak SM clock\n", dev.ordinal,
         dev.name, dev.cc_major, dev.cc_minor, dev.sm_count,
         dev.clock_khz / 1000);
  print_nvidia_smi(a->device, "before");
  if (a->problem_path)
    rc = bench_described(&env);
  else if (strcmp(a->op, "gemm") == 0)
    rc = bench_gemm(&env);
  else if (strcmp(a->op, "gemm_bias_gelu") == 0)
    rc = bench_gemm_bias_gelu(&env);
  else
    rc = bench_softmax(&env);
  print_nvidia_smi(a->device, "after");
done:
  tile_rt_stream_free(stream);
  for (int i = 0; i < a->nsizes; ++i) {
    tile_rt_module_free(tuned_modules[i]);
    free(env.size_config[i]);
  }
  if (bench_csv_close(&csv) != 0)
    rc = 1;
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
  /* With --param, only the kernel benchmarked is compiled (gemm_bias_gelu
   * also loads its plain gemm from the same module, and a --problem its
   * reference kernel). */
  if (strcmp(a.op, "gemm_bias_gelu") != 0 && !a.problem_path)
    a.source.kernel = a.kernel;
  if (a.profile.tool) {
    /* Ours runs once for the check, then warms up, then is timed. */
    a.profile.kernel = a.kernel;
    a.profile.launch_skip = 1 + a.warmup;
    return tool_profile_exec(&a.profile, argc, argv);
  }
  return run(&a);
}
