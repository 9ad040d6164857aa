/*===- timing.c - Event timing of repeated launches -----------------------===*
 *
 * Each timed launch sits between two events recorded on the same stream, so
 * a launch's time is its time on the GPU. Launches are enqueued back to back:
 * for kernels shorter than the host's enqueue cost (a few microseconds) the
 * GPU can idle between them and the times read high.
 *
 *===----------------------------------------------------------------------===*/

#include "timing.h"

#include "host_util.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

int tool_time_launches(tool_timing *out, tile_rt_context *ctx,
                       tile_rt_stream *stream, tool_launch_fn launch,
                       void *user, int nsets, int warmup, int iters,
                       double timeout_s) {
  if (iters <= 0 || nsets <= 0)
    return tool_fail("timing needs iters > 0 and input sets > 0");
  /* One kernel taking turns alone: the same launches, sets and events. */
  tool_turn turn = {launch, user, NULL};
  return tool_time_in_turns(out, &turn, 1, ctx, stream, nsets,
                            warmup > 0 ? warmup : 0, iters, timeout_s);
}

/* The order of round `round` of `count` kernels, into `order`: a
 * permutation drawn from a fixed sequence (an LCG seeded with the round),
 * so that no kernel always follows the same one, and the same for every
 * run. */
static void round_order(int *order, int count, int round) {
  uint64_t state = 0x9E3779B97F4A7C15ull * (uint64_t)(round + 1);
  for (int k = 0; k < count; ++k)
    order[k] = k;
  for (int k = count - 1; k > 0; --k) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    int j = (int)((state >> 33) % (uint64_t)(k + 1));
    int t = order[k];
    order[k] = order[j];
    order[j] = t;
  }
}

int tool_time_in_turns(tool_timing *out, const tool_turn *turns, int count,
                       tile_rt_context *ctx, tile_rt_stream *stream, int nsets,
                       int warmup, int rounds, double timeout_s) {
  if (count <= 0 || rounds <= 0 || nsets <= 0 || warmup < 0)
    return tool_fail("timing in turns needs kernels, rounds and input sets");
  if (rounds > (INT_MAX - 1) / count || warmup > INT_MAX / count)
    return tool_fail("timing in turns: %d rounds of %d kernels are too many",
                     rounds, count);
  tile_rt_status st;
  /* Every launch takes the next input set, so that none finds its inputs
   * in the L2 where the launch before it left them. */
  int set = 0;
  for (int i = 0; i < warmup; ++i)
    for (int k = 0; k < count; ++k, set = (set + 1) % nsets)
      if ((turns[k].prepare &&
           turns[k].prepare(turns[k].user, set, stream) != 0) ||
          turns[k].launch(turns[k].user, set, stream) != 0)
        return 1;
  if ((st = tile_rt_stream_synchronize(ctx, stream, timeout_s)) !=
      TILE_RT_SUCCESS)
    return tool_rt_fail("waiting for the warm-up launches", st);

  int launches = rounds * count;
  /* Launch i between events 2i and 2i + 1: a prepare step sits between
   * one launch's end and the next one's start. */
  tile_rt_event **events = calloc(2 * (size_t)launches, sizeof *events);
  int *owner = calloc((size_t)launches, sizeof *owner);
  double *ms = calloc((size_t)launches, sizeof *ms);
  int rc = 0, created = 0;
  if (!events || !owner || !ms) {
    rc = tool_fail("out of host memory");
    goto done;
  }
  for (int r = 0; r < rounds; ++r)
    round_order(owner + (size_t)r * count, count, r);
  for (; created < 2 * launches; ++created)
    if ((st = tile_rt_event_create(&events[created], ctx)) != TILE_RT_SUCCESS) {
      rc = tool_rt_fail("creating timing events", st);
      goto done;
    }
  for (int i = 0; i < launches; ++i, set = (set + 1) % nsets) {
    const tool_turn *t = &turns[owner[i]];
    if (t->prepare && t->prepare(t->user, set, stream) != 0) {
      rc = 1;
      goto done;
    }
    if ((st = tile_rt_event_record(events[2 * i], stream)) != TILE_RT_SUCCESS) {
      rc = tool_rt_fail("recording an event", st);
      goto done;
    }
    if (t->launch(t->user, set, stream) != 0) {
      rc = 1;
      goto done;
    }
    if ((st = tile_rt_event_record(events[2 * i + 1], stream)) !=
        TILE_RT_SUCCESS) {
      rc = tool_rt_fail("recording an event", st);
      goto done;
    }
  }
  /* As long as each kernel's series would have been given. */
  if ((st = tile_rt_event_synchronize(events[2 * launches - 1],
                                      timeout_s * count)) != TILE_RT_SUCCESS) {
    rc = tool_rt_fail("waiting for the timed launches", st);
    goto done;
  }
  /* ms holds kernel k's rounds at [k * rounds, (k + 1) * rounds); launch
   * i belongs to round i / count, which runs each kernel once. */
  for (int i = 0; i < launches; ++i) {
    float t;
    if ((st = tile_rt_event_elapsed_ms(&t, events[2 * i], events[2 * i + 1])) !=
        TILE_RT_SUCCESS) {
      rc = tool_rt_fail("reading a timing event", st);
      break;
    }
    ms[(size_t)owner[i] * rounds + i / count] = t;
  }
  for (int k = 0; rc == 0 && k < count; ++k) {
    double *mine = ms + (size_t)k * rounds;
    out[k].min_ms = out[k].max_ms = mine[0];
    for (int r = 1; r < rounds; ++r) {
      if (mine[r] < out[k].min_ms)
        out[k].min_ms = mine[r];
      if (mine[r] > out[k].max_ms)
        out[k].max_ms = mine[r];
    }
    out[k].median_ms = tool_median(mine, rounds);
    out[k].iters = rounds;
  }
done:
  for (int i = 0; i < created; ++i)
    tile_rt_event_free(events[i]);
  free(events);
  free(owner);
  free(ms);
  return rc;
}
