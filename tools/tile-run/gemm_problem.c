/*===- gemm_problem.c - GEMM inputs, reference and checks -----------------===*/

#define _POSIX_C_SOURCE 200809L

#include "gemm_problem.h"

#include "host_util.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Above this many multiply-adds the reference samples rows. */
#define GEMM_FULL_REFERENCE_FMAS ((int64_t)1 << 30)
/* Rows the sampled reference checks (first and last included). */
#define GEMM_SAMPLED_ROWS 96
/* Device buffers start on this boundary (TMA wants 16 bytes). */
#define GEMM_ALIGN 256
/* At most this many rotated input sets. */
#define GEMM_MAX_SETS 4096
/* Host threads for the reference. */
#define GEMM_MAX_THREADS 64

static size_t gemm_align(size_t bytes) {
  return (bytes + GEMM_ALIGN - 1) / GEMM_ALIGN * GEMM_ALIGN;
}

int gemm_types_of_kernel(tile_rt_dtype types[3],
                         const tile_rt_kernel_desc *desc) {
  static const char *const role[3] = {"A", "B", "C"};
  if (desc->nargs != 3)
    return tool_fail("kernel '%s' takes %d arguments; a gemm kernel takes 3 "
                     "(A, B, C)",
                     desc->name, desc->nargs);
  for (int i = 0; i < desc->nparams; ++i) {
    const tile_rt_param_desc *d = &desc->params[i];
    if (d->kind == TILE_RT_PARAM_TENSORMAP)
      continue;
    if (d->kind != TILE_RT_PARAM_MEMREF || d->rank != 2)
      return tool_fail("kernel '%s' argument %d (%s) is not a rank-2 memref",
                       desc->name, d->arg, role[d->arg]);
    if (d->dtype != TILE_RT_F16 && d->dtype != TILE_RT_BF16 &&
        d->dtype != TILE_RT_F32)
      return tool_fail("kernel '%s' argument %d (%s) is %s; gemm handles "
                       "f16, bf16 and f32",
                       desc->name, d->arg, role[d->arg],
                       tile_rt_dtype_name(d->dtype));
    types[d->arg] = d->dtype;
  }
  if (types[0] != types[1])
    return tool_fail("kernel '%s' has A of %s but B of %s; gemm wants one "
                     "input type",
                     desc->name, tile_rt_dtype_name(types[0]),
                     tile_rt_dtype_name(types[1]));
  return 0;
}

void gemm_problem_free(gemm_problem *p) {
  if (p->ctx) {
    tile_rt_mem_free(p->ctx, p->inputs);
    tile_rt_mem_free(p->ctx, p->c);
  }
  free(p->host_a);
  free(p->host_b);
  memset(p, 0, sizeof *p);
}

/* One input set on the host, uploaded to set 0 and copied to the others. */
static int gemm_upload(gemm_problem *p, uint64_t seed) {
  size_t na = (size_t)(p->m * p->k), nb = (size_t)(p->k * p->n);
  void *a = malloc(p->a_bytes), *b = malloc(p->b_bytes);
  int rc = 0;
  tool_rng rng;
  if (!a || !b) {
    rc = tool_fail("out of host memory for the gemm inputs");
    goto done;
  }
  tool_rng_seed(&rng, seed, 0);
  tool_fill_uniform(a, p->host_a, p->a_type, na, &rng, -1.0, 1.0);
  tool_rng_seed(&rng, seed, 1);
  tool_fill_uniform(b, p->host_b, p->b_type, nb, &rng, -1.0, 1.0);
  tile_rt_status st =
      tile_rt_mem_htod(p->ctx, gemm_problem_a(p, 0), a, p->a_bytes);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_mem_htod(p->ctx, gemm_problem_b(p, 0), b, p->b_bytes);
  for (int s = 1; st == TILE_RT_SUCCESS && s < p->nsets; ++s)
    st = tile_rt_mem_dtod(p->ctx, p->inputs + (size_t)s * p->set_stride,
                          p->inputs, p->set_stride);
  if (st != TILE_RT_SUCCESS)
    rc = tool_rt_fail("uploading the gemm inputs", st);
done:
  free(a);
  free(b);
  return rc;
}

int gemm_problem_init(gemm_problem *p, tile_rt_context *ctx, int64_t m,
                      int64_t n, int64_t k, int trans_b,
                      const tile_rt_dtype types[3], uint64_t seed,
                      size_t rotate_bytes) {
  memset(p, 0, sizeof *p);
  if (m <= 0 || n <= 0 || k <= 0)
    return tool_fail("gemm sizes must be positive (M=%lld N=%lld K=%lld)",
                     (long long)m, (long long)n, (long long)k);
  p->ctx = ctx;
  p->m = m, p->n = n, p->k = k;
  p->trans_b = trans_b;
  p->a_type = types[0], p->b_type = types[1], p->c_type = types[2];
  p->a_bytes = (size_t)(m * k) * tile_rt_dtype_size(p->a_type);
  p->b_bytes = (size_t)(k * n) * tile_rt_dtype_size(p->b_type);
  p->c_bytes = (size_t)(m * n) * tile_rt_dtype_size(p->c_type);
  p->set_stride = gemm_align(p->a_bytes) + gemm_align(p->b_bytes);
  p->nsets = 1;
  if (rotate_bytes > p->set_stride) {
    size_t sets = rotate_bytes / p->set_stride + 1;
    p->nsets = sets > GEMM_MAX_SETS ? GEMM_MAX_SETS : (int)sets;
  }
  p->host_a = malloc((size_t)(m * k) * sizeof(float));
  p->host_b = malloc((size_t)(k * n) * sizeof(float));
  if (!p->host_a || !p->host_b) {
    gemm_problem_free(p);
    return tool_fail("out of host memory for the gemm inputs");
  }
  tile_rt_status st =
      tile_rt_mem_alloc(&p->inputs, ctx, (size_t)p->nsets * p->set_stride);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_mem_alloc(&p->c, ctx, p->c_bytes);
  if (st != TILE_RT_SUCCESS) {
    gemm_problem_free(p);
    return tool_rt_fail("allocating the gemm buffers", st);
  }
  if (gemm_upload(p, seed) != 0) {
    gemm_problem_free(p);
    return 1;
  }
  return 0;
}

tile_rt_deviceptr gemm_problem_a(const gemm_problem *p, int set) {
  return p->inputs + (size_t)set * p->set_stride;
}

tile_rt_deviceptr gemm_problem_b(const gemm_problem *p, int set) {
  return gemm_problem_a(p, set) + gemm_align(p->a_bytes);
}

tile_rt_status gemm_problem_args(tile_rt_arg args[3], const gemm_problem *p,
                                 int set, tile_rt_deviceptr c) {
  tile_rt_status st = tile_rt_arg_memref_2d(
      &args[0], p->a_type, gemm_problem_a(p, set), p->m, p->k, p->k);
  if (st != TILE_RT_SUCCESS)
    return st;
  if (p->trans_b)
    st = tile_rt_arg_memref_2d(&args[1], p->b_type, gemm_problem_b(p, set),
                               p->n, p->k, p->k);
  else
    st = tile_rt_arg_memref_2d(&args[1], p->b_type, gemm_problem_b(p, set),
                               p->k, p->n, p->n);
  if (st != TILE_RT_SUCCESS)
    return st;
  return tile_rt_arg_memref_2d(&args[2], p->c_type, c, p->m, p->n, p->n);
}

tile_rt_status gemm_problem_launch(tile_rt_kernel *kernel,
                                   const gemm_problem *p, int set,
                                   tile_rt_deviceptr c,
                                   tile_rt_stream *stream) {
  tile_rt_arg args[3];
  tile_rt_status st = gemm_problem_args(args, p, set, c);
  if (st != TILE_RT_SUCCESS)
    return st;
  return tile_rt_launch(kernel, args, 3, stream);
}

double gemm_problem_threshold(const gemm_problem *p) {
  if (p->a_type == TILE_RT_BF16 || p->b_type == TILE_RT_BF16 ||
      p->c_type == TILE_RT_BF16)
    return 1e-2;
  return 5e-3;
}

const char *gemm_problem_types(char *buf, size_t n, const gemm_problem *p) {
  snprintf(buf, n, "A=%s B%s=%s C=%s", tile_rt_dtype_name(p->a_type),
           p->trans_b ? "^T" : "", tile_rt_dtype_name(p->b_type),
           tile_rt_dtype_name(p->c_type));
  return buf;
}

/*===--- The fp64 reference -----------------------------------------------===*/

typedef struct gemm_ref_job {
  const gemm_problem *p;
  const void *out; /* the whole M x N output, c_type */
  const int64_t *rows;
  int64_t nrows;
  int64_t next; /* the next index into rows (shared) */
  pthread_mutex_t lock;
  double err2, ref2, max_abs;
  int failed; /* a worker ran out of memory */
} gemm_ref_job;

/* Sums (out - ref)^2 and ref^2 over the rows this thread takes. */
static void *gemm_ref_worker(void *arg) {
  gemm_ref_job *job = arg;
  const gemm_problem *p = job->p;
  int64_t n = p->n, k = p->k;
  double *ref = malloc((size_t)n * sizeof *ref);
  double err2 = 0, ref2 = 0, max_abs = 0;
  for (;;) {
    pthread_mutex_lock(&job->lock);
    int64_t idx = job->next++;
    job->failed |= !ref;
    pthread_mutex_unlock(&job->lock);
    if (idx >= job->nrows || !ref)
      break;
    int64_t i = job->rows[idx];
    const float *a = p->host_a + i * k;
    if (p->trans_b) { /* B is [N, K]: dot products of rows */
      for (int64_t j = 0; j < n; ++j) {
        const float *b = p->host_b + j * k;
        double s = 0;
        for (int64_t q = 0; q < k; ++q)
          s += (double)a[q] * (double)b[q];
        ref[j] = s;
      }
    } else { /* B is [K, N]: accumulate scaled rows of B */
      memset(ref, 0, (size_t)n * sizeof *ref);
      for (int64_t q = 0; q < k; ++q) {
        double aq = a[q];
        const float *b = p->host_b + q * n;
        for (int64_t j = 0; j < n; ++j)
          ref[j] += aq * (double)b[j];
      }
    }
    for (int64_t j = 0; j < n; ++j) {
      double o = tool_element(job->out, p->c_type, (size_t)(i * n + j));
      double e = o - ref[j];
      err2 += e * e;
      ref2 += ref[j] * ref[j];
      if (!(fabs(e) <= max_abs)) /* NaN propagates */
        max_abs = fabs(e);
    }
  }
  free(ref);
  pthread_mutex_lock(&job->lock);
  job->err2 += err2;
  job->ref2 += ref2;
  if (!(max_abs <= job->max_abs))
    job->max_abs = max_abs;
  pthread_mutex_unlock(&job->lock);
  return NULL;
}

static size_t gemm_count_nonfinite(const void *out, tile_rt_dtype t,
                                   size_t count) {
  size_t bad = 0;
  for (size_t i = 0; i < count; ++i)
    if (!isfinite(tool_element(out, t, i)))
      ++bad;
  return bad;
}

static void *gemm_fetch(const gemm_problem *p, tile_rt_deviceptr out) {
  void *host = malloc(p->c_bytes);
  if (!host) {
    tool_fail("out of host memory for the gemm output");
    return NULL;
  }
  tile_rt_status st = tile_rt_mem_dtoh(p->ctx, host, out, p->c_bytes);
  if (st != TILE_RT_SUCCESS) {
    tool_rt_fail("reading the gemm output", st);
    free(host);
    return NULL;
  }
  return host;
}

int gemm_problem_check(gemm_check *r, const gemm_problem *p,
                       tile_rt_deviceptr out) {
  memset(r, 0, sizeof *r);
  void *host = gemm_fetch(p, out);
  if (!host)
    return 1;
  int64_t nrows = p->m;
  int64_t *rows;
  if (p->m * p->n * p->k > GEMM_FULL_REFERENCE_FMAS && p->m > GEMM_SAMPLED_ROWS)
    nrows = GEMM_SAMPLED_ROWS;
  rows = malloc((size_t)nrows * sizeof *rows);
  if (!rows) {
    free(host);
    return tool_fail("out of host memory");
  }
  /* Evenly spread, first and last included; distinct since M > nrows. */
  for (int64_t t = 0; t < nrows; ++t)
    rows[t] = nrows == p->m ? t : t * (p->m - 1) / (nrows - 1);

  gemm_ref_job job;
  memset(&job, 0, sizeof job);
  job.p = p;
  job.out = host;
  job.rows = rows;
  job.nrows = nrows;
  pthread_mutex_init(&job.lock, NULL);
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  int nthreads = cpus < 1                  ? 1
                 : cpus > GEMM_MAX_THREADS ? GEMM_MAX_THREADS
                                           : (int)cpus;
  if (nthreads > nrows)
    nthreads = (int)nrows;
  pthread_t threads[GEMM_MAX_THREADS];
  int started = 0;
  for (; started < nthreads; ++started)
    if (pthread_create(&threads[started], NULL, gemm_ref_worker, &job) != 0)
      break;
  if (started == 0)
    gemm_ref_worker(&job);
  for (int t = 0; t < started; ++t)
    pthread_join(threads[t], NULL);
  pthread_mutex_destroy(&job.lock);
  if (job.failed) {
    free(rows);
    free(host);
    return tool_fail("out of host memory for the gemm reference");
  }

  r->rows = nrows;
  r->nonfinite = gemm_count_nonfinite(host, p->c_type, (size_t)(p->m * p->n));
  r->max_abs_err = job.max_abs;
  r->rel_err = job.ref2 > 0 ? sqrt(job.err2 / job.ref2) : sqrt(job.err2);
  r->pass = r->nonfinite == 0 && r->rel_err <= gemm_problem_threshold(p);
  free(rows);
  free(host);
  return 0;
}

int gemm_problem_compare(gemm_check *r, const gemm_problem *p,
                         tile_rt_deviceptr x, tile_rt_deviceptr y) {
  memset(r, 0, sizeof *r);
  void *hx = gemm_fetch(p, x);
  void *hy = hx ? gemm_fetch(p, y) : NULL;
  if (!hy) {
    free(hx);
    return 1;
  }
  double err2 = 0, ref2 = 0, max_abs = 0;
  size_t count = (size_t)(p->m * p->n);
  for (size_t i = 0; i < count; ++i) {
    double a = tool_element(hx, p->c_type, i),
           b = tool_element(hy, p->c_type, i);
    double e = a - b;
    err2 += e * e;
    ref2 += b * b;
    if (!(fabs(e) <= max_abs))
      max_abs = fabs(e);
  }
  r->rows = p->m;
  r->nonfinite = gemm_count_nonfinite(hx, p->c_type, count);
  r->max_abs_err = max_abs;
  r->rel_err = ref2 > 0 ? sqrt(err2 / ref2) : sqrt(err2);
  r->pass = r->nonfinite == 0 && r->rel_err <= gemm_problem_threshold(p);
  free(hx);
  free(hy);
  return 0;
}
