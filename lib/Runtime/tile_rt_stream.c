/*===- tile_rt_stream.c - Streams, events and waiting with a watchdog -----===*
 *
 * Waiting polls cuStreamQuery / cuEventQuery instead of blocking in the
 * driver, so that a kernel that never finishes (a wedged mbarrier wait, say)
 * becomes a TILE_RT_ERROR_TIMEOUT the caller can report, not a hang.
 *
 *===----------------------------------------------------------------------===*/

#include "tile_rt_internal.h"

#include <stdlib.h>

/* Polling interval: starts short (a finished kernel is seen quickly) and
 * backs off to a millisecond (an idle wait costs little CPU). */
#define RT_POLL_FIRST_S 20e-6
#define RT_POLL_MAX_S 1e-3

static const char *rt_last_kernel(const tile_rt_context *ctx) {
  return ctx->last_kernel[0] ? ctx->last_kernel : "(none)";
}

/* Polls until `event` (or else `stream`) is done, at most `timeout_s`. */
static tile_rt_status rt_wait(tile_rt_context *ctx, CUstream stream,
                              CUevent event, double timeout_s) {
  const rt_driver *cu = ctx->cu;
  const char *call = event ? "cuEventQuery" : "cuStreamQuery";
  double start = rt_now_seconds(), pause = RT_POLL_FIRST_S;
  for (;;) {
    CUresult r = event ? cu->cuEventQuery(event) : cu->cuStreamQuery(stream);
    if (r == CUDA_SUCCESS)
      return TILE_RT_SUCCESS;
    if (r != CUDA_ERROR_NOT_READY)
      return rt_cuda_error(r, call,
                           "waiting for the GPU (last kernel "
                           "launched: '%s')",
                           rt_last_kernel(ctx));
    double waited = rt_now_seconds() - start;
    if (timeout_s > 0 && waited > timeout_s)
      return rt_error(TILE_RT_ERROR_TIMEOUT,
                      "the GPU work did not finish within %.3g s (%s still "
                      "reports CUDA_ERROR_NOT_READY; last kernel launched: "
                      "'%s'): a hung kernel?",
                      timeout_s, call, rt_last_kernel(ctx));
    rt_sleep_seconds(pause);
    if (pause < RT_POLL_MAX_S)
      pause *= 2;
  }
}

/*===--- Streams ----------------------------------------------------------===*/

tile_rt_status tile_rt_stream_create(tile_rt_stream **out,
                                     tile_rt_context *ctx) {
  if (!out || !ctx)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_stream_create: NULL argument");
  *out = NULL;
  RT_TRY(rt_bind(ctx));
  tile_rt_stream *s = calloc(1, sizeof *s);
  if (!s)
    return rt_error(TILE_RT_ERROR_OUT_OF_MEMORY, "out of host memory");
  /* A blocking stream: it orders with the default stream, on which the
   * synchronous copies and fills run. */
  CUresult r = ctx->cu->cuStreamCreate(&s->stream, CU_STREAM_DEFAULT);
  if (r != CUDA_SUCCESS) {
    free(s);
    return rt_cuda_error(r, "cuStreamCreate", NULL);
  }
  s->ctx = ctx;
  rt_context_retain(ctx);
  *out = s;
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_stream_wrap(tile_rt_stream **out, tile_rt_context *ctx,
                                   void *cu_stream) {
  if (!out || !ctx)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_stream_wrap: NULL argument");
  *out = NULL;
  tile_rt_stream *s = calloc(1, sizeof *s);
  if (!s)
    return rt_error(TILE_RT_ERROR_OUT_OF_MEMORY, "out of host memory");
  s->ctx = ctx;
  s->stream = (CUstream)cu_stream;
  s->borrowed = 1;
  rt_context_retain(ctx);
  *out = s;
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_stream_free(tile_rt_stream *stream) {
  if (!stream)
    return TILE_RT_SUCCESS;
  tile_rt_status st = stream->borrowed ? TILE_RT_SUCCESS : rt_bind(stream->ctx);
  if (st == TILE_RT_SUCCESS && !stream->borrowed) {
    CUresult r = stream->ctx->cu->cuStreamDestroy(stream->stream);
    if (r != CUDA_SUCCESS)
      st = rt_cuda_error(r, "cuStreamDestroy", NULL);
  }
  tile_rt_context *ctx = stream->ctx;
  free(stream);
  tile_rt_status released = rt_context_release(ctx);
  return st != TILE_RT_SUCCESS ? st : released;
}

tile_rt_status tile_rt_stream_native(void **out, tile_rt_stream *stream) {
  if (!out)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_stream_native: NULL output");
  *out = stream ? (void *)stream->stream : NULL;
  return TILE_RT_SUCCESS;
}

/* Whether `stream` is capturing a CUDA graph (its work is recorded, not
 * run: waiting for it, or querying it, would invalidate the capture). */
static tile_rt_status rt_capturing(int *out, const rt_driver *cu,
                                   CUstream stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  CUresult r = cu->cuStreamIsCapturing(stream, &status);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuStreamIsCapturing", NULL);
  *out = status != CU_STREAM_CAPTURE_STATUS_NONE;
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_stream_is_capturing(int *out, tile_rt_context *ctx,
                                           tile_rt_stream *stream) {
  if (!out || !ctx || (stream && stream->ctx != ctx))
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_stream_is_capturing: %s",
                    !out || !ctx ? "NULL argument"
                                 : "the stream belongs to another context");
  RT_TRY(rt_bind(ctx));
  return rt_capturing(out, ctx->cu, stream ? stream->stream : NULL);
}

tile_rt_status tile_rt_stream_synchronize(tile_rt_context *ctx,
                                          tile_rt_stream *stream,
                                          double timeout_s) {
  if (!ctx || (stream && stream->ctx != ctx))
    return rt_error(
        TILE_RT_ERROR_INVALID_ARGUMENT, "tile_rt_stream_synchronize: %s",
        ctx ? "the stream belongs to another context" : "NULL context");
  RT_TRY(rt_bind(ctx));
  int capturing = 0;
  RT_TRY(rt_capturing(&capturing, ctx->cu, stream ? stream->stream : NULL));
  if (capturing)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_stream_synchronize: the stream is capturing a "
                    "CUDA graph, so nothing on it runs until the graph is "
                    "launched; waiting for it would invalidate the capture");
  return rt_wait(ctx, stream ? stream->stream : NULL, NULL, timeout_s);
}

tile_rt_status tile_rt_context_synchronize(tile_rt_context *ctx,
                                           double timeout_s) {
  if (!ctx)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_context_synchronize: NULL context");
  RT_TRY(rt_bind(ctx));
  const rt_driver *cu = ctx->cu;
  if (timeout_s <= 0) {
    CUresult r = cu->cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
      return rt_cuda_error(r, "cuCtxSynchronize", "last kernel launched: '%s'",
                           rt_last_kernel(ctx));
    return TILE_RT_SUCCESS;
  }
  /* Work on the legacy default stream starts only after all earlier work of
   * the blocking streams, so an event recorded there marks "all done". */
  CUevent done;
  CUresult r = cu->cuEventCreate(&done, CU_EVENT_DISABLE_TIMING);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuEventCreate", NULL);
  r = cu->cuEventRecord(done, NULL);
  tile_rt_status st = r == CUDA_SUCCESS
                          ? rt_wait(ctx, NULL, done, timeout_s)
                          : rt_cuda_error(r, "cuEventRecord", NULL);
  cu->cuEventDestroy(done);
  return st;
}

/*===--- Events -----------------------------------------------------------===*/

tile_rt_status tile_rt_event_create(tile_rt_event **out, tile_rt_context *ctx) {
  if (!out || !ctx)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_event_create: NULL argument");
  *out = NULL;
  RT_TRY(rt_bind(ctx));
  tile_rt_event *e = calloc(1, sizeof *e);
  if (!e)
    return rt_error(TILE_RT_ERROR_OUT_OF_MEMORY, "out of host memory");
  CUresult r = ctx->cu->cuEventCreate(&e->event, CU_EVENT_DEFAULT);
  if (r != CUDA_SUCCESS) {
    free(e);
    return rt_cuda_error(r, "cuEventCreate", NULL);
  }
  e->ctx = ctx;
  rt_context_retain(ctx);
  *out = e;
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_event_free(tile_rt_event *event) {
  if (!event)
    return TILE_RT_SUCCESS;
  tile_rt_status st = rt_bind(event->ctx);
  if (st == TILE_RT_SUCCESS) {
    CUresult r = event->ctx->cu->cuEventDestroy(event->event);
    if (r != CUDA_SUCCESS)
      st = rt_cuda_error(r, "cuEventDestroy", NULL);
  }
  tile_rt_context *ctx = event->ctx;
  free(event);
  tile_rt_status released = rt_context_release(ctx);
  return st != TILE_RT_SUCCESS ? st : released;
}

tile_rt_status tile_rt_event_record(tile_rt_event *event,
                                    tile_rt_stream *stream) {
  if (!event)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_event_record: NULL event");
  RT_TRY(rt_bind(event->ctx));
  CUresult r = event->ctx->cu->cuEventRecord(event->event,
                                             stream ? stream->stream : NULL);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuEventRecord", NULL);
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_event_synchronize(tile_rt_event *event,
                                         double timeout_s) {
  if (!event)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_event_synchronize: NULL event");
  RT_TRY(rt_bind(event->ctx));
  return rt_wait(event->ctx, NULL, event->event, timeout_s);
}

tile_rt_status tile_rt_event_elapsed_ms(float *out, tile_rt_event *start,
                                        tile_rt_event *end) {
  if (!out || !start || !end)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_event_elapsed_ms: NULL argument");
  RT_TRY(rt_bind(start->ctx));
  CUresult r =
      start->ctx->cu->cuEventElapsedTime(out, start->event, end->event);
  if (r != CUDA_SUCCESS)
    return rt_cuda_error(r, "cuEventElapsedTime", NULL);
  return TILE_RT_SUCCESS;
}
