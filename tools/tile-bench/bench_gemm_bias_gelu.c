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
  tile_rt_kernel *fused, *plain;
  tool_cublaslt *lt;
  const gemm_problem *p;
  gemm_problem plain_view; /* the problem without its epilogue */
  tile_rt_deviceptr c_fused, c_plain, c_lt;
} gelu_bench;

static int launch_fused(void *user, int set, tile_rt_stream *stream) {
  const gelu_bench *b = user;
  tile_rt_status st =
      gemm_problem_launch(b->fused, b->p, set, b->c_fused, stream);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("launching ours fused", st);
}

static int launch_plain(void *user, int set, tile_rt_stream *stream) {
  const gelu_bench *b = user;
  tile_rt_status st =
      gemm_problem_launch(b->plain, &b->plain_view, set, b->c_plain, stream);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("launching ours plain", st);
}

static int launch_lt(void *user, int set, tile_rt_stream *stream) {
  const gelu_bench *b = user;
  void *native;
  tile_rt_stream_native(&native, stream);
  return tool_cublaslt_gelu_bias(b->lt, b->p, set, b->c_lt, native);
}

/* Runs all three once on poisoned outputs; compares ours with cuBLASLt. */
static int verify(const bench_env *env, void *user, const char *who,
                  tool_check *r) {
  gelu_bench *b = user;
  const gemm_problem *p = b->p;
  size_t count = (size_t)(p->m * p->n);
  tile_rt_deviceptr outs[3] = {b->c_fused, b->c_plain, b->c_lt};
  tile_rt_status st = TILE_RT_SUCCESS;
  for (int i = 0; i < 3 && st == TILE_RT_SUCCESS; ++i)
    st = tool_poison(env->ctx, outs[i], p->c_type, count);
  if (st != TILE_RT_SUCCESS)
    return tool_rt_fail("poisoning the outputs", st);
  if (launch_fused(b, 0, env->stream) != 0 ||
      launch_plain(b, 0, env->stream) != 0 || launch_lt(b, 0, env->stream) != 0)
    return 1;
  if ((st = tile_rt_stream_synchronize(
           env->ctx, env->stream, env->args->timeout_s)) != TILE_RT_SUCCESS)
    return tool_rt_fail("running", st);
  if (gemm_problem_compare(r, p, b->c_fused, b->c_lt) != 0)
    return 1;
  if (!r->pass)
    printf("  MISMATCH: %s fused vs cuBLASLt rel diff %.2e (threshold "
           "%.0e), %zu non-finite outputs of %s\n",
           who, r->rel_err, r->threshold, r->nonfinite, who);
  return 0;
}

static double tflops(const gemm_problem *p, const tool_timing *t) {
  return 2.0 * (double)p->m * (double)p->n * (double)p->k /
         (t->median_ms * 1e-3) / 1e12;
}

/* One table row; returns 0, or 1 when something failed. */
static int bench_one(const bench_env *env, tile_rt_kernel *plain,
                     const char *plain_name, tool_cublaslt *lt,
                     const gemm_types *types, const bench_size *s,
                     int *mismatch) {
  const bench_args *a = env->args;
  gemm_problem p;
  if (gemm_problem_init(&p, env->ctx, s->m, s->n, s->k, 0, types, a->gelu,
                        a->seed, TOOL_ROTATE_BYTES) != 0)
    return 1;
  gelu_bench b;
  memset(&b, 0, sizeof b);
  b.fused = bench_kernel_of(env, s);
  b.plain = plain;
  b.lt = lt;
  b.p = &p;
  b.plain_view = p;
  b.plain_view.epilogue = GEMM_EPILOGUE_NONE;
  b.c_fused = p.c;
  tile_rt_status st = tile_rt_mem_alloc(&b.c_plain, env->ctx, p.c_bytes);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_mem_alloc(&b.c_lt, env->ctx, p.c_bytes);
  int rc = st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("allocating", st);
  bench_ours ours = {&b, &b.fused, verify, launch_fused, p.nsets};
  tile_rt_arg args[4];
  int nargs = 0;
  tool_check r;
  tool_timing t[3];
  bench_default def;
  tool_launch_fn launch[3] = {launch_fused, launch_plain, launch_lt};
  if (rc == 0)
    rc = tool_cublaslt_plan_gelu_bias(lt, &p);
  if (rc == 0)
    rc = verify(env, &b, "ours", &r);
  for (int i = 0; i < 3 && rc == 0; ++i)
    rc = tool_time_launches(&t[i], env->ctx, env->stream, launch[i], &b,
                            p.nsets, a->warmup, a->iters, a->timeout_s);
  if (rc == 0 && (st = gemm_problem_args(args, &nargs, &p, 0, b.c_fused)) !=
                     TILE_RT_SUCCESS)
    rc = tool_rt_fail("the arguments", st);
  if (rc == 0)
    rc = bench_run_default(env, &ours, args, nargs, &def);
  if (rc == 0) {
    char size[64];
    snprintf(size, sizeof size, "%lldx%lldx%lld", (long long)p.m,
             (long long)p.n, (long long)p.k);
    double fused_plain = t[0].median_ms / t[1].median_ms;
    int pass = r.pass && def.state != BENCH_DEFAULT_WRONG;
    printf("%-18s %9.4f %8.1f %9.4f %8.1f %8.3f%s %10.4f %8.1f %9.3f", size,
           t[0].median_ms, tflops(&p, &t[0]), t[1].median_ms, tflops(&p, &t[1]),
           fused_plain, fused_plain > FUSED_TARGET_RATIO ? "!" : " ",
           t[2].median_ms, tflops(&p, &t[2]), t[0].median_ms / t[2].median_ms);
    bench_print_default(env, &def);
    printf(" %10.2e%s\n", r.rel_err, pass ? "" : " MISMATCH");
    fflush(stdout);
    double flops = 2.0 * (double)p.m * (double)p.n * (double)p.k;
    bench_csv_ours(env, s, &t[0], flops, r.rel_err, r.pass, "MISMATCH");
    bench_csv_default(env, s, &def, flops);
    bench_csv_row(env->csv, s, "ours-plain", plain_name, &t[1], flops, -1,
                  NULL);
    bench_csv_row(env->csv, s, "cublaslt", "cublasLtMatmul GELU_BIAS", &t[2],
                  flops, -1, NULL);
    if (!pass)
      *mismatch = 1;
  }
  tile_rt_mem_free(env->ctx, b.c_plain);
  tile_rt_mem_free(env->ctx, b.c_lt);
  gemm_problem_free(&p);
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
  gemm_types types, plain_types;
  tile_rt_module *plain_module = NULL;
  tile_rt_kernel *plain = NULL;
  const tile_rt_kernel_desc *plain_desc = NULL;
  tool_cublaslt *lt = NULL;
  char path_buf[4096];
  const char *path = plain_file(path_buf, sizeof path_buf, a);
  int rc = 0, mismatch = 0;
  if (a->trans_b)
    return tool_fail("--op gemm_bias_gelu takes B as [K, N]: no --trans-b");
  if (gemm_types_of_kernel(&types, env->desc, a->gelu) != 0 ||
      load_plain(&plain_module, &plain, &plain_desc, env, path) != 0 ||
      gemm_types_of_kernel(&plain_types, plain_desc, GEMM_EPILOGUE_NONE) != 0) {
    rc = 1;
    goto done;
  }
  if (plain_types.a != types.a || plain_types.b != types.b ||
      plain_types.c != types.c) {
    rc = tool_fail("the plain kernel '%s' (A=%s C=%s) and the fused '%s' "
                   "(A=%s C=%s) differ in types: not comparable",
                   plain_desc->name, tile_rt_dtype_name(plain_types.a),
                   tile_rt_dtype_name(plain_types.c), env->desc->name,
                   tile_rt_dtype_name(types.a), tile_rt_dtype_name(types.c));
    goto done;
  }
  if ((rc = tool_cublaslt_open(&lt, env->ctx)) != 0)
    goto done;
  bench_csv_columns(env->csv, tile_rt_dtype_name(types.a),
                    gemm_epilogue_name(a->gelu), "TFLOP/s");
  printf("cuBLASLt %zu from %s: cublasLtMatmul with "
         "CUBLASLT_EPILOGUE_GELU_BIAS (tanh GELU), CUBLAS_COMPUTE_32F\n",
         tool_cublaslt_version(lt), tool_cublaslt_path(lt));
  printf("fused %s (gelu=%s) against plain %s of %s: A=%s B=%s bias=%s "
         "C=%s; median of %d launches after %d warm-up, inputs rotated past "
         "%zu MiB\n",
         env->desc->name, gemm_epilogue_name(a->gelu), plain_desc->name, path,
         tile_rt_dtype_name(types.a), tile_rt_dtype_name(types.b),
         tile_rt_dtype_name(types.bias), tile_rt_dtype_name(types.c), a->iters,
         a->warmup, TOOL_ROTATE_BYTES >> 20);
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
    if (bench_one(env, plain, plain_desc->name, lt, &types, &a->sizes[i],
                  &mismatch) != 0)
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
