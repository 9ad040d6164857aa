/*===- bench_gemm_bias_gelu.c - Fused epilogue: ours, plain, cuBLASLt -----===*
 *
 * tile-bench --op gemm_bias_gelu: on the same inputs, in one run,
 * - ours fused: the named kernel, C = gelu(A B + bias);
 * - ours plain: --plain-kernel of --plain-file, C = A B (what the epilogue
 *   costs is fused/plain; the target is at most 1.1);
 * - cuBLASLt: cublasLtMatmul with CUBLASLT_EPILOGUE_GELU_BIAS (tanh GELU).
 * Our fused output is compared with cuBLASLt's by relative norm before
 * anything is timed.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "bench.h"
#include "cublaslt_loader.h"
#include "host_util.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the fused kernel may cost over the plain one. */
#define FUSED_TARGET_RATIO 1.1
#define PLAIN_FILE_NAME "gemm.mlir"

typedef struct gelu_bench {
  tool_problem_run fused; /* on the problem's own output */
  tile_rt_kernel *plain;
  tool_cublaslt *lt;
  tile_rt_deviceptr plain_out[TOOL_MAX_ARGS], lt_out[TOOL_MAX_ARGS];
} gelu_bench;

static int launch_fused(void *user, int set, tile_rt_stream *stream) {
  gelu_bench *b = user;
  return tool_problem_launch(&b->fused, set, stream);
}

/* The plain gemm on the same A and B: (A, B, C) of the fused arguments. */
static int launch_plain(void *user, int set, tile_rt_stream *stream) {
  const gelu_bench *b = user;
  const tool_problem *p = b->fused.p;
  tile_rt_arg args[TOOL_MAX_ARGS];
  tile_rt_status st = tool_problem_args(args, p, set, b->plain_out);
  if (st == TILE_RT_SUCCESS) {
    args[2] = args[3];
    st = tile_rt_launch(b->plain, args, 3, stream);
  }
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("launching ours plain", st);
}

static int launch_lt(void *user, int set, tile_rt_stream *stream) {
  const gelu_bench *b = user;
  void *native;
  tile_rt_stream_native(&native, stream);
  return tool_cublaslt_gelu_bias(b->lt, b->fused.p, set, b->lt_out[3], native);
}

/* Runs all three once on poisoned outputs; compares ours with cuBLASLt. */
static int verify(const bench_env *env, void *user, const char *who,
                  tool_check *r) {
  gelu_bench *b = user;
  const tool_problem *p = b->fused.p;
  tile_rt_dtype c_type = p->desc.args[3].dtype;
  tile_rt_status st =
      tool_poison(env->ctx, b->plain_out[3], c_type, p->count[3]);
  if (st == TILE_RT_SUCCESS)
    st = tool_poison(env->ctx, b->lt_out[3], c_type, p->count[3]);
  if (st != TILE_RT_SUCCESS)
    return tool_rt_fail("poisoning the outputs", st);
  if (launch_plain(b, 0, env->stream) != 0 ||
      launch_lt(b, 0, env->stream) != 0 ||
      tool_problem_run_once(&b->fused, env->stream, env->args->timeout_s) != 0)
    return 1;
  if (tool_problem_compare(r, p, p->out, b->lt_out) != 0)
    return 1;
  if (!r->pass)
    printf("  MISMATCH: %s fused vs cuBLASLt rel diff %.2e (threshold "
           "%.0e), %zu non-finite outputs of %s\n",
           who, r->rel_err, r->threshold, r->nonfinite, who);
  return 0;
}

static double tflops(const tool_problem *p, const tool_timing *t) {
  return tool_problem_rate(p->desc.flops, t->median_ms);
}

/* One table row; returns 0, or 1 when something failed. */
static int bench_one(const bench_env *env, tile_rt_kernel *plain,
                     const char *plain_name, tool_cublaslt *lt,
                     const bench_size *s, int *mismatch) {
  const bench_args *a = env->args;
  tool_problem p;
  if (bench_problem(&p, env, "gemm_bias_gelu", s) != 0)
    return 1;
  gelu_bench b;
  memset(&b, 0, sizeof b);
  b.fused = (tool_problem_run){&p, bench_kernel_of(env, s), NULL};
  b.plain = plain;
  b.lt = lt;
  int rc = tool_problem_alloc_outputs(&p, b.plain_out) ||
           tool_problem_alloc_outputs(&p, b.lt_out);
  bench_ours ours = {&b, &b.fused.kernel, verify, launch_fused, p.nsets};
  tile_rt_arg args[TOOL_MAX_ARGS];
  tool_check r;
  tool_timing t[3];
  bench_default def;
  tool_launch_fn launch[3] = {launch_fused, launch_plain, launch_lt};
  tile_rt_status st;
  if (rc == 0)
    rc = tool_cublaslt_plan_gelu_bias(lt, &p);
  if (rc == 0)
    rc = verify(env, &b, "ours", &r);
  for (int i = 0; i < 3 && rc == 0; ++i)
    rc = tool_time_launches(&t[i], env->ctx, env->stream, launch[i], &b,
                            p.nsets, a->warmup, a->iters, a->timeout_s);
  if (rc == 0 && (st = tool_problem_args(args, &p, 0, NULL)) != TILE_RT_SUCCESS)
    rc = tool_rt_fail("the arguments", st);
  if (rc == 0)
    rc = bench_run_default(env, &ours, args, p.desc.nargs, &def);
  if (rc == 0) {
    gemm_dims g = gemm_problem_dims(&p.desc);
    char size[64];
    snprintf(size, sizeof size, "%lldx%lldx%lld", (long long)g.m,
             (long long)g.n, (long long)g.k);
    double fused_plain = t[0].median_ms / t[1].median_ms;
    printf("%-18s %9.4f %8.1f %9.4f %8.1f %8.3f%s %10.4f %8.1f %9.3f", size,
           t[0].median_ms, tflops(&p, &t[0]), t[1].median_ms, tflops(&p, &t[1]),
           fused_plain, fused_plain > FUSED_TARGET_RATIO ? "!" : " ",
           t[2].median_ms, tflops(&p, &t[2]), t[0].median_ms / t[2].median_ms);
    double flops = p.desc.flops;
    int pass = bench_end_row(env, s, &t[0], flops, &r, &def, "MISMATCH");
    bench_csv_row(env->csv, s, "ours-plain", plain_name, &t[1], flops, -1,
                  NULL);
    bench_csv_row(env->csv, s, "cublaslt", "cublasLtMatmul GELU_BIAS", &t[2],
                  flops, -1, NULL);
    if (!pass)
      *mismatch = 1;
  }
  tool_problem_free_outputs(&p, b.plain_out);
  tool_problem_free_outputs(&p, b.lt_out);
  tool_problem_free(&p);
  return rc;
}

/* --plain-file, or gemm.mlir beside FILE.mlir (kernels/gemm.mlir when there
 * is no FILE), into `buf`. */
static const char *plain_file(char *buf, size_t n, const bench_args *a) {
  if (a->plain_file)
    return a->plain_file;
  const char *main = a->source.mlir_path;
  const char *slash = main ? strrchr(main, '/') : NULL;
  if (!main)
    snprintf(buf, n, "kernels/%s", PLAIN_FILE_NAME);
  else if (!slash)
    snprintf(buf, n, "%s", PLAIN_FILE_NAME);
  else
    snprintf(buf, n, "%.*s/%s", (int)(slash - main), main, PLAIN_FILE_NAME);
  return buf;
}

/* Compiles the plain gemm with the same options and looks its kernel up. */
static int load_plain(tile_rt_module **module, tile_rt_kernel **kernel,
                      const tile_rt_kernel_desc **desc, const bench_env *env,
                      const char *path) {
  tool_source source = env->args->source;
  source.mlir_path = path;
  source.no_compile = 0;
  source.emit_dir = NULL;
  source.image_path = source.kinfo_path = NULL;
  tool_buffer image = {0}, kinfo = {0};
  int rc = tool_source_load(&source, &image, &kinfo);
  if (rc == 0)
    rc = bench_load_kernel(module, kernel, desc, env->ctx, &image, &kinfo,
                           env->args->plain_kernel);
  tool_buffer_free(&image);
  tool_buffer_free(&kinfo);
  return rc;
}

int bench_gemm_bias_gelu(const bench_env *env) {
  const bench_args *a = env->args;
  tool_problem_desc fused_d, plain_d;
  gemm_dims types, plain_types;
  tile_rt_module *plain_module = NULL;
  tile_rt_kernel *plain = NULL;
  const tile_rt_kernel_desc *plain_desc = NULL;
  tool_cublaslt *lt = NULL;
  char path_buf[4096];
  const char *path = plain_file(path_buf, sizeof path_buf, a);
  int rc = 0, mismatch = 0;
  if (a->trans_b)
    return tool_fail("--op gemm_bias_gelu takes B as [K, N]: no --trans-b");
  if (bench_describe(&fused_d, env, "gemm_bias_gelu", NULL, NULL) != 0 ||
      load_plain(&plain_module, &plain, &plain_desc, env, path) != 0 ||
      bench_describe(&plain_d, env, "gemm", NULL, plain_desc) != 0) {
    rc = 1;
    goto done;
  }
  types = gemm_problem_dims(&fused_d);
  plain_types = gemm_problem_dims(&plain_d);
  if (plain_types.a_type != types.a_type ||
      plain_types.b_type != types.b_type ||
      plain_types.c_type != types.c_type) {
    rc = tool_fail("the plain kernel '%s' (A=%s C=%s) and the fused '%s' "
                   "(A=%s C=%s) differ in types: not comparable",
                   plain_desc->name, tile_rt_dtype_name(plain_types.a_type),
                   tile_rt_dtype_name(plain_types.c_type), env->desc->name,
                   tile_rt_dtype_name(types.a_type),
                   tile_rt_dtype_name(types.c_type));
    goto done;
  }
  if ((rc = tool_cublaslt_open(&lt, env->ctx)) != 0)
    goto done;
  bench_csv_columns(env->csv, tile_rt_dtype_name(types.a_type),
                    gemm_epilogue_name(a->gelu), "TFLOP/s");
  printf("cuBLASLt %zu from %s: cublasLtMatmul with "
         "CUBLASLT_EPILOGUE_GELU_BIAS (tanh GELU), CUBLAS_COMPUTE_32F\n",
         tool_cublaslt_version(lt), tool_cublaslt_path(lt));
  printf("fused %s (gelu=%s) against plain %s of %s: A=%s B=%s bias=%s "
         "C=%s; median of %d launches after %d warm-up, inputs rotated past "
         "%zu MiB\n",
         env->desc->name, gemm_epilogue_name(a->gelu), plain_desc->name, path,
         tile_rt_dtype_name(types.a_type), tile_rt_dtype_name(types.b_type),
         tile_rt_dtype_name(types.bias_type), tile_rt_dtype_name(types.c_type),
         a->iters, a->warmup, TOOL_ROTATE_BYTES >> 20);
  printf("time ratios: fused/plain (target <= %.1f, '!' above) and "
         "ours/cuBLASLt (below 1: ours is faster); rel diff: ours fused vs "
         "cuBLASLt\n",
         FUSED_TARGET_RATIO);
  printf("%-18s %9s %8s %9s %8s %9s %10s %8s %9s", "size (MxNxK)", "fused ms",
         "TFLOP/s", "plain ms", "TFLOP/s", "fus/plain", "cuBLASLt", "TFLOP/s",
         "ours/Lt");
  bench_print_default_header(env);
  printf(" %10s\n", "rel diff");
  for (int i = 0; i < a->nsizes; ++i)
    if (bench_one(env, plain, plain_desc->name, lt, &a->sizes[i], &mismatch) !=
        0)
      rc = 1;
  if (mismatch)
    rc = tool_fail("our fused output differs from cuBLASLt's beyond the "
                   "threshold (MISMATCH rows): the times above are not "
                   "comparable");
done:
  tool_cublaslt_close(lt);
  tile_rt_module_free(plain_module);
  return rc;
}
