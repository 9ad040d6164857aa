/*===- host_check.c - Comparing GPU outputs with host references ----------===*/

#define _POSIX_C_SOURCE 200809L

#include "host_check.h"

#include "host_util.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Host threads for the references. */
#define CHECK_MAX_THREADS 64

/* Whether `x` is worse than `than`: larger, or NaN (and a NaN stays). */
static int check_worse(double x, double than) {
  return !isnan(than) && !(x <= than);
}

void tool_error_add_row(tool_error *e, int64_t row, const double *ref,
                        const void *out, tile_rt_dtype dtype, size_t at,
                        int64_t n) {
  double err2 = 0, ref2 = 0;
  for (int64_t j = 0; j < n; ++j) {
    double d = tool_element(out, dtype, at + (size_t)j) - ref[j];
    err2 += d * d;
    ref2 += ref[j] * ref[j];
    if (check_worse(fabs(d), e->max_abs))
      e->max_abs = fabs(d);
  }
  double rel = ref2 > 0 ? sqrt(err2 / ref2) : sqrt(err2);
  if (e->rows == 0 || check_worse(rel, e->worst_row)) {
    e->worst_row = rel;
    e->worst_row_index = row;
  }
  e->err2 += err2;
  e->ref2 += ref2;
  ++e->rows;
}

void tool_error_merge(tool_error *into, const tool_error *from) {
  if (from->rows == 0)
    return;
  if (into->rows == 0 || check_worse(from->worst_row, into->worst_row)) {
    into->worst_row = from->worst_row;
    into->worst_row_index = from->worst_row_index;
  }
  if (into->rows == 0 || check_worse(from->max_abs, into->max_abs))
    into->max_abs = from->max_abs;
  into->err2 += from->err2;
  into->ref2 += from->ref2;
  into->rows += from->rows;
}

double tool_error_relative(const tool_error *e) {
  return e->ref2 > 0 ? sqrt(e->err2 / e->ref2) : sqrt(e->err2);
}

/*===--- Threads ----------------------------------------------------------===*/

typedef struct rows_job {
  tool_row_fn fn;
  void *user;
  int64_t count;
  size_t scratch_bytes;
  int64_t next; /* the next item (shared) */
  pthread_mutex_t lock;
  tool_error sum;
  int failed; /* a worker ran out of memory */
} rows_job;

static void *rows_worker(void *arg) {
  rows_job *job = arg;
  void *scratch = malloc(job->scratch_bytes ? job->scratch_bytes : 1);
  tool_error mine;
  memset(&mine, 0, sizeof mine);
  for (;;) {
    pthread_mutex_lock(&job->lock);
    int64_t item = job->next++;
    job->failed |= !scratch;
    pthread_mutex_unlock(&job->lock);
    if (item >= job->count || !scratch)
      break;
    job->fn(job->user, item, scratch, &mine);
  }
  free(scratch);
  pthread_mutex_lock(&job->lock);
  tool_error_merge(&job->sum, &mine);
  pthread_mutex_unlock(&job->lock);
  return NULL;
}

int tool_for_rows(tool_error *out, int64_t count, size_t scratch_bytes,
                  tool_row_fn fn, void *user) {
  rows_job job;
  memset(&job, 0, sizeof job);
  job.fn = fn;
  job.user = user;
  job.count = count;
  job.scratch_bytes = scratch_bytes;
  pthread_mutex_init(&job.lock, NULL);
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  int nthreads = cpus < 1                   ? 1
                 : cpus > CHECK_MAX_THREADS ? CHECK_MAX_THREADS
                                            : (int)cpus;
  if (nthreads > count)
    nthreads = count < 1 ? 1 : (int)count;
  pthread_t threads[CHECK_MAX_THREADS];
  int started = 0;
  for (; started < nthreads; ++started)
    if (pthread_create(&threads[started], NULL, rows_worker, &job) != 0)
      break;
  if (started == 0)
    rows_worker(&job);
  for (int t = 0; t < started; ++t)
    pthread_join(threads[t], NULL);
  pthread_mutex_destroy(&job.lock);
  if (job.failed)
    return tool_fail("out of host memory for the reference");
  *out = job.sum;
  return 0;
}

int64_t *tool_spread(int64_t total, int64_t count, int64_t *n) {
  *n = count < total ? count : total;
  int64_t *at = malloc((size_t)(*n > 0 ? *n : 1) * sizeof *at);
  if (!at) {
    tool_fail("out of host memory");
    return NULL;
  }
  /* Evenly spread, first and last included; distinct since total > n. */
  for (int64_t t = 0; t < *n; ++t)
    at[t] = *n == total ? t : *n == 1 ? 0 : t * (total - 1) / (*n - 1);
  return at;
}

/*===--- Outputs ----------------------------------------------------------===*/

void *tool_fetch(tile_rt_context *ctx, tile_rt_deviceptr src, size_t bytes) {
  void *host = malloc(bytes ? bytes : 1);
  if (!host) {
    tool_fail("out of host memory for the output (%zu bytes)", bytes);
    return NULL;
  }
  tile_rt_status st = tile_rt_mem_dtoh(ctx, host, src, bytes);
  if (st != TILE_RT_SUCCESS) {
    tool_rt_fail("reading the output", st);
    free(host);
    return NULL;
  }
  return host;
}

size_t tool_count_nonfinite(const void *host, tile_rt_dtype dtype,
                            size_t count) {
  /* An IEEE value is NaN or infinite when its exponent bits are all ones:
   * tested on the bits, the outputs of large problems count in a pass at
   * memory speed (converting each element took seconds). */
  size_t bad = 0;
  if (dtype == TILE_RT_F16 || dtype == TILE_RT_BF16) {
    uint16_t mask = dtype == TILE_RT_F16 ? 0x7c00 : 0x7f80;
    const uint16_t *h = host;
    for (size_t i = 0; i < count; ++i)
      bad += (h[i] & mask) == mask;
    return bad;
  }
  if (dtype == TILE_RT_F32) {
    const uint32_t *u = host;
    for (size_t i = 0; i < count; ++i)
      bad += (u[i] & 0x7f800000u) == 0x7f800000u;
    return bad;
  }
  for (size_t i = 0; i < count; ++i)
    if (!isfinite(tool_element(host, dtype, i)))
      ++bad;
  return bad;
}

void tool_check_from(tool_check *r, const tool_error *e, size_t nonfinite,
                     double threshold, int per_row) {
  memset(r, 0, sizeof *r);
  r->rel_err = tool_error_relative(e);
  r->max_abs_err = e->max_abs;
  r->worst_row = e->worst_row;
  r->worst_row_index = e->worst_row_index;
  r->nonfinite = nonfinite;
  r->rows = e->rows;
  r->threshold = threshold;
  r->pass = nonfinite == 0 && r->rel_err <= threshold &&
            (!per_row || r->worst_row <= threshold);
}

void tool_check_print(const tool_check *r, int64_t total, const char *what,
                      int per_row) {
  printf("  checked %lld of %lld %s against an fp64 reference; max |err| "
         "%.3g;",
         (long long)r->rows, (long long)total, what, r->max_abs_err);
  if (per_row)
    printf(" worst row %lld at %.2e;", (long long)r->worst_row_index,
           r->worst_row);
  printf(" threshold %.0e; %zu non-finite outputs\n", r->threshold,
         r->nonfinite);
}
