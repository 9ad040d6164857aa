/*===- tile-run.c - Compile, load, check and time tile kernels ------------===*
 *
 * tile-run [options] FILE.mlir
 *   compiles FILE through the C API, prints each kernel's launch metadata
 *   and what the cubin says it uses (registers, shared memory, stack), then,
 *   with a GPU, what the driver says, and runs an operator when --op names
 *   one, or runs --kernel on the problem --problem FILE.json describes
 *   (problem_json.h). The problem is checked against the kernel record
 *   first, without a GPU; without one (or a driver) it then says so and
 *   exits 0: compiling is the job there. With --profile ncu|nsys the same
 * command runs again under Nsight Compute or Nsight Systems (profile.c).
 *
 *===----------------------------------------------------------------------===*/

#include "host_util.h"
#include "kernel_report.h"
#include "ops.h"
#include "problem_json.h"
#include "profile.h"
#include "run_problem.h"
#include "tool_compile.h"

#include <stdio.h>
#include <string.h>

/* How long any wait for the GPU may take before it counts as a hang. */
#define TILE_RUN_DEFAULT_TIMEOUT_S 60.0
/* Untimed launches before timing. */
#define TILE_RUN_DEFAULT_WARMUP 5

typedef struct tile_run_args {
  tool_source source;
  tool_run_options run;
  tool_options op_options;
  const tool_op *op;
  const char *problem_path; ///< --problem
  const char *reference;    ///< --reference
  /// What --op or --problem describes (when `runs`), read once in main.
  tool_problem_desc problem;
  int runs;
  const char *kernel;
  int device;
  int check_given, no_check;
  int probe;
  tool_profile profile;
} tile_run_args;

static void usage(void) {
  printf("usage: tile-run [options] FILE.mlir\n"
         "       tile-run --no-compile --image F.cubin --kinfo F.kinfo "
         "[options]\n"
         "Compiles FILE.mlir, prints its kernels and what each uses (from the "
         "cubin);\nwith a GPU, loads them and runs --op.\n\nsource "
         "options:\n%s"
         "\nrun options:\n"
         "  --device N         GPU ordinal (default 0)\n"
         "  --probe            only say whether a GPU is usable (exit 0) or "
         "not (1)\n"
         "  --op NAME          run operator NAME on --kernel\n"
         "  --problem F.json   run --kernel on the problem F describes: its "
         "arguments,\n"
         "                     how inputs are drawn, the reference "
         "(docs/Problems.md)\n"
         "  --reference NAME   the kernel of the module whose outputs "
         "--kernel's must\n"
         "                     match (a --problem's own \"reference\" by "
         "default; with\n"
         "                     neither, every output must be written and "
         "finite)\n"
         "  --kernel NAME      the kernel to run (default: the only one)\n"
         "  --check            compare with a host reference (the default "
         "unless --iters)\n"
         "  --no-check         do not\n"
         "  --iters N          time N launches (default 0: no timing)\n"
         "  --warmup N         untimed launches first (default %d)\n"
         "  --seed S           seed of the random inputs (default 1)\n"
         "  --timeout SEC      longest wait for the GPU (default %.0f)\n"
         "  --profile ncu|nsys run this command again under Nsight Compute "
         "(one launch of\n"
         "                     --kernel after the check and warm-up, every "
         "section, the\n"
         "                     clocks untouched) or Nsight Systems; where "
         "the tool is not\n"
         "                     found, print the command and exit 1\n"
         "  --profile-out FILE the report (default tile-run-KERNEL, in the "
         "working directory)\n"
         "\noperators:\n",
         tool_source_usage, TILE_RUN_DEFAULT_WARMUP,
         TILE_RUN_DEFAULT_TIMEOUT_S);
  tool_print_ops();
}

/* The value of option argv[*i], or NULL after printing that it is missing. */
static const char *option_value(int argc, char **argv, int *i) {
  if (*i + 1 >= argc) {
    tool_fail("%s needs a value", argv[*i]);
    return NULL;
  }
  return argv[++*i];
}

static int parse_int_option(int *out, int argc, char **argv, int *i, int64_t lo,
                            int64_t hi) {
  const char *name = argv[*i];
  const char *v = option_value(argc, argv, i);
  int64_t x;
  if (!v)
    return -1;
  if (tool_parse_i64(&x, v, lo, hi) != 0) {
    tool_fail("%s wants an integer in [%lld, %lld], got '%s'", name,
              (long long)lo, (long long)hi, v);
    return -1;
  }
  *out = (int)x;
  return 0;
}

/* An operator option (--M 4096), once --op is known. */
static int parse_op_option(tile_run_args *a, int argc, char **argv, int *i) {
  const char *name = argv[*i] + 2;
  for (const tool_op_flag *f = a->op ? a->op->flags : NULL; f && f->name; ++f) {
    if (strcmp(f->name, name) != 0)
      continue;
    if (a->op_options.count == TOOL_MAX_OPTIONS)
      return tool_fail("too many operator options"), -1;
    const char *value = NULL;
    if (f->takes_value && !(value = option_value(argc, argv, i)))
      return -1;
    a->op_options.name[a->op_options.count] = f->name;
    a->op_options.value[a->op_options.count++] = value;
    return 1;
  }
  return 0;
}

/* Returns -1 to exit 0 (help), 0 to go on, 1 (or 2 for usage) to fail. */
static int parse_args(tile_run_args *a, int argc, char **argv) {
  memset(a, 0, sizeof *a);
  tool_source_init(&a->source);
  a->run.warmup = TILE_RUN_DEFAULT_WARMUP;
  a->run.seed = 1;
  a->run.timeout_s = TILE_RUN_DEFAULT_TIMEOUT_S;
  /* The operator decides which other options exist: find it first. */
  for (int i = 1; i + 1 < argc; ++i)
    if (strcmp(argv[i], "--op") == 0) {
      a->op = tool_find_op(argv[i + 1]);
      if (!a->op)
        return tool_fail("unknown operator '%s' (see --help)", argv[i + 1]), 2;
    }
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    int r = tool_source_option(&a->source, argc, argv, &i);
    if (r < 0)
      return 2;
    if (r > 0)
      continue;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      usage();
      return -1;
    }
    int64_t seed;
    if (strcmp(arg, "--op") == 0) {
      ++i; /* found above */
    } else if (strcmp(arg, "--problem") == 0) {
      if (!(a->problem_path = option_value(argc, argv, &i)))
        return 2;
    } else if (strcmp(arg, "--reference") == 0) {
      if (!(a->reference = option_value(argc, argv, &i)))
        return 2;
    } else if (strcmp(arg, "--kernel") == 0) {
      if (!(a->kernel = option_value(argc, argv, &i)))
        return 2;
    } else if (strcmp(arg, "--device") == 0) {
      if (parse_int_option(&a->device, argc, argv, &i, 0, 1023) != 0)
        return 2;
    } else if (strcmp(arg, "--iters") == 0) {
      if (parse_int_option(&a->run.iters, argc, argv, &i, 0, 1000000) != 0)
        return 2;
    } else if (strcmp(arg, "--warmup") == 0) {
      if (parse_int_option(&a->run.warmup, argc, argv, &i, 0, 1000000) != 0)
        return 2;
    } else if (strcmp(arg, "--seed") == 0) {
      const char *v = option_value(argc, argv, &i);
      if (!v || tool_parse_i64(&seed, v, 0, INT64_MAX) != 0)
        return tool_fail("--seed wants a non-negative integer"), 2;
      a->run.seed = (uint64_t)seed;
    } else if (strcmp(arg, "--timeout") == 0) {
      const char *v = option_value(argc, argv, &i);
      if (!v || tool_parse_double(&a->run.timeout_s, v) != 0 ||
          a->run.timeout_s <= 0)
        return tool_fail("--timeout wants a positive number of seconds"), 2;
    } else if (strcmp(arg, "--probe") == 0) {
      a->probe = 1;
    } else if (strcmp(arg, "--profile") == 0) {
      const char *v = option_value(argc, argv, &i);
      if (!v || tool_profile_parse(&a->profile.tool, v) != 0)
        return 2;
    } else if (strcmp(arg, "--profile-out") == 0) {
      if (!(a->profile.out = option_value(argc, argv, &i)))
        return 2;
    } else if (strcmp(arg, "--check") == 0) {
      a->check_given = 1;
    } else if (strcmp(arg, "--no-check") == 0) {
      a->no_check = 1;
    } else if (strncmp(arg, "--", 2) == 0) {
      r = parse_op_option(a, argc, argv, &i);
      if (r < 0)
        return 2;
      if (r == 0)
        return tool_fail("unknown option '%s'%s (see --help)", arg,
                         a->op ? "" : " (operator options need --op)"),
               2;
    } else if (!a->source.mlir_path) {
      a->source.mlir_path = arg;
    } else {
      return tool_fail("more than one input file ('%s', '%s')",
                       a->source.mlir_path, arg),
             2;
    }
  }
  if (a->probe)
    return 0; /* nothing else is needed */
  if (a->check_given && a->no_check)
    return tool_fail("--check and --no-check contradict each other"), 2;
  /* Check by default, unless only timing was asked for. */
  a->run.check = a->check_given || (!a->no_check && a->run.iters == 0);
  if (tool_source_validate(&a->source) != 0)
    return 2;
  if (a->profile.out && !a->profile.tool)
    return tool_fail("--profile-out needs --profile"), 2;
  if (a->op && a->problem_path)
    return tool_fail("--op and --problem both say what to run: give one"), 2;
  if (a->reference && !a->op && !a->problem_path)
    return tool_fail("--reference needs --op or --problem"), 2;
  if (a->profile.tool && !a->op && !a->problem_path)
    return tool_fail("--profile needs --op or --problem: without one "
                     "nothing is launched"),
           2;
  return 0;
}

/* The kernel record called `name`, or NULL after printing that there is
 * none. */
static const tile_rt_kernel_desc *find_kernel(const tile_rt_kernel_info *info,
                                              const char *name,
                                              const char *what) {
  const tile_rt_kernel_desc *d = NULL;
  if (tile_rt_kernel_info_find(&d, info, name) != TILE_RT_SUCCESS) {
    tool_fail("%s: the module has no kernel '%s'", what, name);
    return NULL;
  }
  return d;
}

/* What to run, from the command line's problem and the kernel records
 * alone (no GPU): the kernel's name, the problem bound to it, and the
 * reference kernel's name ("" for none). Returns 0, or 1 after printing
 * why. */
static int plan_run(const tile_run_args *a, const tile_rt_kernel_info *info,
                    const char **name, tool_problem_desc *d,
                    const char **reference) {
  int n;
  tile_rt_kernel_info_count(&n, info);
  *name = a->kernel;
  if (!*name) {
    if (n != 1)
      return tool_fail("the module has %d kernels: name one with --kernel", n);
    const tile_rt_kernel_desc *only;
    tile_rt_kernel_info_get(&only, info, 0);
    *name = only->name;
  }
  const tile_rt_kernel_desc *kernel = find_kernel(info, *name, "--kernel");
  if (!kernel)
    return 1;
  *d = a->problem;
  if (tool_problem_bind(d, kernel) != 0 ||
      tool_problem_check_contracts(d, kernel) != 0)
    return 1;
  *reference = a->reference ? a->reference : d->reference_kernel;
  if (!**reference)
    return 0;
  if (d->reference)
    return tool_fail("the %s problem is checked against its fp64 host "
                     "reference: --reference is for problems without one",
                     d->op);
  const tile_rt_kernel_desc *ref = find_kernel(info, *reference, "--reference");
  tool_problem_desc same = *d;
  if (!ref || tool_problem_bind(&same, ref) != 0)
    return 1;
  for (int i = 0; i < d->nargs; ++i)
    if (same.args[i].dtype != d->args[i].dtype)
      return tool_fail("the reference kernel '%s' takes %s %s where '%s' "
                       "takes %s",
                       *reference, d->args[i].name,
                       tile_rt_dtype_name(same.args[i].dtype), *name,
                       tile_rt_dtype_name(d->args[i].dtype));
  return 0;
}

static int run_kernel(const tile_run_args *a, tile_rt_context *ctx,
                      tile_rt_module *module, const char *name,
                      const char *reference, const tool_problem_desc *d) {
  tile_rt_kernel *kernel = NULL, *ref = NULL;
  tile_rt_status st = tile_rt_module_get_kernel(&kernel, module, name);
  if (st == TILE_RT_SUCCESS && reference[0])
    st = tile_rt_module_get_kernel(&ref, module, reference);
  if (st != TILE_RT_SUCCESS)
    return tool_rt_fail("--kernel", st);
  return tool_run_problem(&a->run, ctx, kernel, name, ref, d);
}

/* --probe: exit 0 when GPU `device` can be used (lit's `cuda` feature). */
static int probe(int device) {
  tile_rt_context *ctx;
  tile_rt_status st = tile_rt_context_create(&ctx, device);
  if (st != TILE_RT_SUCCESS) {
    printf("no GPU found: %s\n", tile_rt_last_error());
    return 1;
  }
  tile_rt_device_info dev;
  tile_rt_context_device_info(&dev, ctx);
  printf("GPU %d: %s, sm_%d%d\n", dev.ordinal, dev.name, dev.cc_major,
         dev.cc_minor);
  tile_rt_context_free(ctx);
  return 0;
}

static int run(const tile_run_args *a) {
  tool_buffer image = {0}, kinfo = {0};
  tile_rt_kernel_info *info = NULL;
  tile_rt_context *ctx = NULL;
  tile_rt_module *module = NULL;
  int rc = tool_source_load(&a->source, &image, &kinfo);
  if (rc != 0)
    goto done;
  tile_rt_status st = tile_rt_kernel_info_parse(&info, kinfo.data, kinfo.size);
  if (st != TILE_RT_SUCCESS) {
    rc = tool_rt_fail("kernel info", st);
    goto done;
  }
  int n;
  tile_rt_kernel_info_count(&n, info);
  for (int i = 0; i < n; ++i) {
    const tile_rt_kernel_desc *d;
    tile_rt_kernel_info_get(&d, info, i);
    tool_print_kernel(d);
  }
  if ((rc = tool_print_cubin_resources(image.data, image.size, info)) != 0)
    goto done;
  const char *name = NULL, *reference = "";
  tool_problem_desc problem;
  if (a->runs && (rc = plan_run(a, info, &name, &problem, &reference)) != 0)
    goto done;

  st = tile_rt_context_create(&ctx, a->device);
  if (st == TILE_RT_ERROR_NO_DRIVER || st == TILE_RT_ERROR_NO_DEVICE) {
    printf("no GPU found: %s\n", tile_rt_last_error());
    goto done; /* compiling was the job */
  }
  if (st != TILE_RT_SUCCESS) {
    rc = tool_rt_fail("GPU context", st);
    goto done;
  }
  tile_rt_device_info dev;
  tile_rt_context_device_info(&dev, ctx);
  printf("GPU %d: %s, sm_%d%d, %d SMs, %d KiB opt-in smem per block\n",
         dev.ordinal, dev.name, dev.cc_major, dev.cc_minor, dev.sm_count,
         dev.max_smem_optin / 1024);
  st = tile_rt_module_load(&module, ctx, image.data, image.size, kinfo.data,
                           kinfo.size);
  if (st != TILE_RT_SUCCESS) {
    rc = tool_rt_fail("loading the module", st);
    goto done;
  }
  rc = tool_print_driver_attributes(module, image.data, image.size);
  if (rc == 0 && a->runs)
    rc = run_kernel(a, ctx, module, name, reference, &problem);
done:
  tile_rt_module_free(module);
  tile_rt_context_free(ctx);
  tile_rt_kernel_info_free(info);
  tool_buffer_free(&image);
  tool_buffer_free(&kinfo);
  return rc;
}

int main(int argc, char **argv) {
  tool_name = "tile-run";
  tile_run_args a;
  int rc = parse_args(&a, argc, argv);
  if (rc < 0)
    return 0;
  if (rc > 0)
    return rc;
  if (a.profile.tool && !a.probe) {
    /* The check's launch, then the warm-up's, come before a timed one;
     * without timed launches (no --iters) the check's is the one. */
    a.profile.kernel = a.kernel;
    a.profile.launch_skip =
        a.run.iters > 0 ? (a.run.check ? 1 : 0) + a.run.warmup : 0;
    return tool_profile_exec(&a.profile, argc, argv);
  }
  if (a.probe)
    return probe(a.device);
  a.runs = a.op || a.problem_path;
  if (a.runs &&
      (a.problem_path ? tool_problem_from_json_file(&a.problem, a.problem_path)
                      : tool_op_problem(&a.problem, a.op, &a.op_options)))
    return 1;
  /* With --param, only the kernel run is compiled, and its reference. */
  a.source.kernel = a.kernel;
  a.source.reference = a.reference ? a.reference
                       : a.problem.reference_kernel[0]
                           ? a.problem.reference_kernel
                           : NULL;
  return run(&a);
}
