/*===- bench_problem.c - tile-bench's problems ----------------------------===*
 *
 * The built-in operators' problems at a --sizes entry, and --problem: a
 * kernel of the user's on the problem a JSON file describes, with no peer
 * library to race. Ours is checked first (against the problem's reference
 * kernel, or with --tuned against the default configuration's outputs, or
 * else only for outputs written and finite), then timed; with --tuned the
 * default runs beside it (bench_default.c).
 *
 *===----------------------------------------------------------------------===*/

#include "bench.h"

#include "builtin_problems.h"
#include "host_util.h"
#include "problem_json.h"

#include <stdio.h>
#include <string.h>

int bench_describe(tool_problem_desc *d, const bench_env *env, const char *op,
                   const bench_size *s, const tile_rt_kernel_desc *kernel) {
  const bench_args *a = env->args;
  tool_problem_sizes sizes;
  memset(&sizes, 0, sizeof sizes);
  sizes.m = s ? s->m : 1;
  sizes.n = s ? s->n : 1;
  sizes.k = s ? s->k : 1;
  sizes.trans_b = a->trans_b;
  sizes.gelu_erf = a->gelu == GEMM_EPILOGUE_BIAS_GELU_ERF;
  return tool_builtin_problem(d, op, &sizes) ||
         tool_problem_bind(d, kernel ? kernel : env->desc);
}

int bench_problem(tool_problem *p, const bench_env *env, const char *op,
                  const bench_size *s) {
  tool_problem_desc d;
  return bench_describe(&d, env, op, s, NULL) ||
         tool_problem_init(p, env->ctx, &d, env->args->seed, TOOL_ROTATE_BYTES);
}

/* What the user's problem runs: ours, and the reference kernel's outputs
 * (`ref`, or the default's with --tuned; 0 when neither). */
typedef struct described {
  tool_problem_run ours;
  tile_rt_kernel *reference;
  tile_rt_deviceptr ref[TOOL_MAX_ARGS];
  int have_ref;
} described;

static int launch_ours(void *user, int set, tile_rt_stream *stream) {
  described *b = user;
  return tool_problem_launch(&b->ours, set, stream);
}

static int verify(const bench_env *env, void *user, const char *who,
                  tool_check *r) {
  described *b = user;
  if (tool_problem_run_once(&b->ours, env->stream, env->args->timeout_s) != 0 ||
      tool_problem_verify(r, b->ours.p, NULL, b->have_ref ? b->ref : NULL) != 0)
    return 1;
  if (!r->pass)
    printf("  FAIL: %s rel_err %.2e (threshold %.0e), %zu non-finite "
           "outputs\n",
           who, r->rel_err, r->threshold, r->nonfinite);
  return 0;
}

/* The reference outputs: the reference kernel's, or the default
 * configuration's where ours is a tuned one. */
static int reference_outputs(const bench_env *env, described *b) {
  tile_rt_kernel *ref = b->reference;
  if (!ref && env->size_kernel[0])
    ref = env->kernel;
  if (!ref)
    return 0;
  tool_problem_run run = {b->ours.p, ref, b->ref};
  if (tool_problem_alloc_outputs(b->ours.p, b->ref) != 0)
    return 1;
  b->have_ref = 1;
  return tool_problem_run_once(&run, env->stream, env->args->timeout_s);
}

int bench_described(const bench_env *env) {
  const bench_args *a = env->args;
  tool_problem_desc d;
  tool_problem p;
  memset(&p, 0, sizeof p);
  if (tool_problem_from_json_file(&d, a->problem_path) != 0 ||
      tool_problem_bind(&d, env->desc) != 0 ||
      tool_problem_init(&p, env->ctx, &d, a->seed, TOOL_ROTATE_BYTES) != 0)
    return 1;
  described b;
  memset(&b, 0, sizeof b);
  b.ours = (tool_problem_run){&p, bench_kernel_of(env, &a->sizes[0]), NULL};
  int rc = 0;
  const char *ref_name = d.reference_kernel;
  if (ref_name[0]) {
    tile_rt_status st =
        tile_rt_module_get_kernel(&b.reference, env->module, ref_name);
    if (st != TILE_RT_SUCCESS)
      rc = tool_rt_fail("the reference kernel", st);
  }
  const char *unit;
  double work = tool_problem_work(&d, &unit);
  char types[256];
  printf("kernel %s on %s: %s; %s; median of %d launches after %d "
         "warm-up, inputs rotated past %zu MiB\n",
         env->desc->name, a->problem_path,
         tool_problem_types(types, sizeof types, &d),
         ref_name[0]           ? "checked against its reference kernel"
         : env->size_kernel[0] ? "checked against the default configuration"
                               : "no reference: outputs written and finite",
         a->iters, a->warmup, TOOL_ROTATE_BYTES >> 20);
  bench_csv_columns(env->csv, tile_rt_dtype_name(d.args[0].dtype), "", unit);
  printf("%-40s %10s %9s", "problem", "ours ms", unit);
  bench_print_default_header(env);
  printf(" %10s\n", "rel_err");
  bench_ours ours = {&b, &b.ours.kernel, verify, launch_ours, p.nsets};
  tile_rt_arg args[TOOL_MAX_ARGS];
  tool_check r;
  tool_timing t;
  bench_default def;
  tile_rt_status st;
  if (rc == 0)
    rc = reference_outputs(env, &b);
  if (rc == 0)
    rc = verify(env, &b, "ours", &r);
  if (rc == 0)
    rc = tool_time_launches(&t, env->ctx, env->stream, launch_ours, &b, p.nsets,
                            a->warmup, a->iters, a->timeout_s);
  if (rc == 0 && (st = tool_problem_args(args, &p, 0, NULL)) != TILE_RT_SUCCESS)
    rc = tool_rt_fail("the arguments", st);
  if (rc == 0)
    rc = bench_run_default(env, &ours, args, d.nargs, &def);
  if (rc == 0) {
    printf("%-40s %10.4f %9.3f", d.label, t.median_ms,
           tool_problem_rate(work, t.median_ms));
    if (!bench_end_row(env, &a->sizes[0], &t, work, &r, &def, "FAIL"))
      rc = tool_fail("our output is wrong (FAIL): the time above means "
                     "nothing");
  }
  if (b.have_ref)
    tool_problem_free_outputs(&p, b.ref);
  tool_problem_free(&p);
  return rc;
}
