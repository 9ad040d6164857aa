/*===- tune_compile.c - Compiling the candidates in parallel ---------------===*
 *
 * `jobs` worker threads, each with its own MLIR context, compile the viable
 * candidates through the compile cache (mlirTileCompileCached); ptxas runs
 * as a process per compilation, so the cores stay busy. A compilation past
 * the timeout is abandoned: its candidate is reported and skipped, and the
 * worker frees what it produces when it ends. Failures are reported per
 * candidate, never fatal.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "tool_compile.h"
#include "tune_internal.h"

#include "tile-c/Compiler.h"
#include "tile-c/Dialect/Tile.h"

#include "mlir-c/Diagnostics.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { JOB_QUEUED, JOB_RUNNING, JOB_DONE };

typedef struct compile_job {
  char config[1024];
  /* Results, written by the worker. */
  tool_buffer image, kinfo;
  char error[1024];
  int ok, hit;
  double seconds;
  /* Under the pool's lock. */
  int state, abandoned;
  double started;
} compile_job;

typedef struct compile_pool {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  compile_job *jobs;
  int njobs, next, running_workers;
  /* Shared, read-only. */
  const tool_buffer *source;
  const tune_request *r;
  const char *cache_dir;
  /* Under the lock: whether a warning was printed. The first one (the
   * compile cache's, that an entry could not be written or was corrupt)
   * says it for the whole run, which a full disk would otherwise say once
   * per candidate. */
  int warned;
} compile_pool;

/* What a compilation's diagnostics go to. */
typedef struct diagnostic_sink {
  compile_pool *pool;
  compile_job *job;
} diagnostic_sink;

static void on_diagnostic_text(MlirStringRef s, void *user) {
  compile_job *job = user;
  size_t at = strlen(job->error), room = sizeof job->error - 1 - at;
  size_t n = s.length < room ? s.length : room;
  memcpy(job->error + at, s.data, n);
  job->error[at + n] = '\0';
}

static void append_buffer(MlirStringRef s, void *user) {
  tool_buffer_append(user, s.data, s.length);
}

static MlirLogicalResult on_diagnostic(MlirDiagnostic d, void *user) {
  diagnostic_sink *sink = user;
  MlirDiagnosticSeverity severity = mlirDiagnosticGetSeverity(d);
  if (severity == MlirDiagnosticError && sink->job->error[0] == '\0')
    mlirDiagnosticPrint(d, on_diagnostic_text, sink->job);
  if (severity == MlirDiagnosticWarning) {
    pthread_mutex_lock(&sink->pool->lock);
    if (!sink->pool->warned++) {
      tool_buffer text = {0};
      mlirDiagnosticPrint(d, append_buffer, &text);
      fprintf(stderr,
              "warning: %s (further warnings of this run are not shown)\n",
              text.data ? text.data : "");
      tool_buffer_free(&text);
    }
    pthread_mutex_unlock(&sink->pool->lock);
  }
  return mlirLogicalResultSuccess();
}

typedef struct sinks {
  tool_buffer *image, *kinfo;
} sinks;
static void sink_image(MlirStringRef s, void *u) {
  append_buffer(s, ((sinks *)u)->image);
}
static void sink_kinfo(MlirStringRef s, void *u) {
  append_buffer(s, ((sinks *)u)->kinfo);
}

static void compile_one(compile_pool *pool, compile_job *job) {
  const tune_request *r = pool->r;
  double start = tool_now();
  /* The bindings: the fixed ones, then the candidate's. */
  const char *bindings[2 * TUNE_MAX_LIST];
  int nb = 0;
  for (int i = 0; i < r->nparams; ++i)
    bindings[nb++] = r->params[i];
  char config[sizeof job->config];
  memcpy(config, job->config, sizeof config);
  char *save = NULL;
  for (char *t = strtok_r(config, " ", &save); t && nb < 2 * TUNE_MAX_LIST;
       t = strtok_r(NULL, " ", &save))
    bindings[nb++] = t;

  MlirContext ctx = tool_mlir_context();
  diagnostic_sink sink = {pool, job};
  mlirContextAttachDiagnosticHandler(ctx, on_diagnostic, &sink, NULL);
  MlirModule module = mlirTileModuleCreateParse(
      ctx, (MlirStringRef){pool->source->data, pool->source->size});
  if (mlirModuleIsNull(module)) {
    if (!job->error[0])
      snprintf(job->error, sizeof job->error, "the source does not parse");
  } else {
    MlirTileCompileOptions o;
    mlirTileCompileOptionsInitDefault(&o);
    o.bindings = bindings;
    o.numBindings = (size_t)nb;
    o.kernels = &r->kernel;
    o.numKernels = 1;
    sinks out = {&job->image, &job->kinfo};
    bool hit = false;
    MlirLogicalResult res = mlirTileCompileCached(
        module, &o, pool->cache_dir, sink_image, sink_kinfo, &out, &hit);
    job->ok = mlirLogicalResultIsSuccess(res) && job->image.size > 0;
    job->hit = hit;
    if (!job->ok && !job->error[0])
      snprintf(job->error, sizeof job->error, "compilation failed");
    mlirModuleDestroy(module);
  }
  mlirContextDestroy(ctx);
  job->seconds = tool_now() - start;
}

static void *worker(void *arg) {
  compile_pool *pool = arg;
  pthread_mutex_lock(&pool->lock);
  while (pool->next < pool->njobs) {
    compile_job *job = &pool->jobs[pool->next++];
    job->state = JOB_RUNNING;
    job->started = tool_now();
    pthread_mutex_unlock(&pool->lock);
    compile_one(pool, job);
    pthread_mutex_lock(&pool->lock);
    job->state = JOB_DONE;
    if (job->abandoned) {
      tool_buffer_free(&job->image);
      tool_buffer_free(&job->kinfo);
    }
    pthread_cond_broadcast(&pool->changed);
  }
  --pool->running_workers;
  pthread_cond_broadcast(&pool->changed);
  pthread_mutex_unlock(&pool->lock);
  return NULL;
}

/* Spill bytes and registers from the cubin; 0, or 1 if it does not read. */
static int read_resources(tune_candidate *c, const char *kernel) {
  tile_rt_kernel_resources res;
  if (tile_rt_cubin_kernel_resources(&res, c->image.data, c->image.size,
                                     kernel) != TILE_RT_SUCCESS)
    return 1;
  c->registers = res.registers;
  c->spill_bytes = (int)res.frame_bytes;
  return 0;
}

int tune_compile_all(tune_space *s, const tune_request *r) {
  int *which = malloc((size_t)(s->n ? s->n : 1) * sizeof *which);
  compile_pool *pool = calloc(1, sizeof *pool);
  if (!which || !pool) {
    free(which);
    free(pool);
    return tool_fail("out of host memory");
  }
  for (int i = 0; i < s->n; ++i)
    if (s->c[i].verdict == TUNE_VIABLE)
      which[pool->njobs++] = i;
  pool->jobs =
      calloc((size_t)(pool->njobs ? pool->njobs : 1), sizeof *pool->jobs);
  if (!pool->jobs) {
    free(which);
    free(pool);
    return tool_fail("out of host memory");
  }
  for (int j = 0; j < pool->njobs; ++j)
    memcpy(pool->jobs[j].config, s->c[which[j]].config,
           sizeof pool->jobs[j].config);
  static char none[] = "";
  char dirbuf[4096];
  pool->cache_dir =
      r->no_cache ? none : tune_cache_dir(r, dirbuf, sizeof dirbuf);
  pool->source = &s->source;
  pool->r = r;
  pthread_mutex_init(&pool->lock, NULL);
  pthread_cond_init(&pool->changed, NULL);

  int jobs = r->jobs > 0 ? r->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (jobs < 1)
    jobs = 1;
  if (jobs > pool->njobs)
    jobs = pool->njobs;
  pthread_mutex_lock(&pool->lock);
  for (int t = 0; t < jobs; ++t) {
    pthread_t tid;
    if (pthread_create(&tid, NULL, worker, pool) == 0) {
      pthread_detach(tid);
      ++pool->running_workers;
    }
  }
  if (pool->running_workers == 0 && pool->njobs > 0) {
    pthread_mutex_unlock(&pool->lock);
    free(which);
    return tool_fail("cannot start a compile thread");
  }
  /* Wait for every job to end or be abandoned. */
  /* Wait until every job has ended or been abandoned, and every worker
   * has left but those still inside an abandoned job. */
  int reported = -1;
  for (;;) {
    int settled = 0, stuck = 0;
    double now = tool_now();
    for (int j = 0; j < pool->njobs; ++j) {
      compile_job *job = &pool->jobs[j];
      if (job->state == JOB_RUNNING && !job->abandoned &&
          now - job->started > r->compile_timeout_s)
        job->abandoned = 1;
      settled += job->state == JOB_DONE || job->abandoned;
      stuck += job->state == JOB_RUNNING && job->abandoned;
    }
    if (settled != reported) {
      tune_progress(r, "compiling", settled, pool->njobs);
      reported = settled;
    }
    if (settled == pool->njobs && pool->running_workers <= stuck)
      break;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 100 * 1000 * 1000;
    if (until.tv_nsec >= 1000000000L) {
      until.tv_sec += 1;
      until.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&pool->changed, &pool->lock, &until);
  }
  for (int j = 0; j < pool->njobs; ++j) {
    compile_job *job = &pool->jobs[j];
    tune_candidate *c = &s->c[which[j]];
    c->compile_s =
        job->state == JOB_DONE ? job->seconds : tool_now() - job->started;
    if (job->abandoned) {
      c->verdict = TUNE_COMPILE_TIMEOUT;
      snprintf(c->message, sizeof c->message, "compiling took more than %.1f s",
               r->compile_timeout_s);
      continue;
    }
    if (!job->ok) {
      c->verdict = TUNE_COMPILE_ERROR;
      snprintf(c->message, sizeof c->message, "%s", job->error);
      tool_buffer_free(&job->image);
      tool_buffer_free(&job->kinfo);
      continue;
    }
    c->image = job->image; /* moved */
    c->kinfo = job->kinfo;
    c->compile_cache_hit = job->hit;
    c->verdict = TUNE_COMPILED;
    if (read_resources(c, r->kernel) != 0) {
      c->verdict = TUNE_COMPILE_ERROR;
      snprintf(c->message, sizeof c->message,
               "the cubin's resources do not read: %s", tile_rt_last_error());
    } else if (r->max_spill_bytes >= 0 && c->spill_bytes > r->max_spill_bytes) {
      c->verdict = TUNE_SPILLS;
      snprintf(c->message, sizeof c->message,
               "%d bytes of stack frame (spills) per thread, over %lld",
               c->spill_bytes, (long long)r->max_spill_bytes);
    }
  }
  /* Workers still busy with abandoned jobs keep the pool: leave it. */
  int stuck = pool->running_workers > 0;
  pthread_mutex_unlock(&pool->lock);
  if (!stuck) {
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->changed);
    free(pool->jobs);
    free(pool);
  }
  free(which);
  return 0;
}
