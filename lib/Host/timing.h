/*===- timing.h - Event timing of repeated launches --------------*- C -*-===*
 *
 * The measuring rules of docs/Performance.md (its opening), the one
 * protocol of the tools, the tuner and (through tile_tune_time_in_turns)
 * Python: warm up, time each launch between two CUDA events, keep the
 * inputs out of the L2 (rotating among input sets where the problem owns
 * them, an untimed flush before each launch where they are the caller's),
 * take turns, and report the median.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_TIMING_H
#define TILE_TOOLS_TIMING_H

#include "tile-rt/tile_rt.h"

/// Enqueues one launch on input set `set` of `stream`; returns 0, or 1
/// after printing why not.
typedef int (*tool_launch_fn)(void *user, int set, tile_rt_stream *stream);

/// The times of the timed launches, in milliseconds.
typedef struct tool_timing {
  double median_ms, min_ms, max_ms;
  int iters;
} tool_timing;

/// Runs `warmup` launches, then `iters` launches each timed between two
/// events, launch i on set i % nsets, waiting at most `timeout_s` for the
/// GPU. Returns 0, or 1 after printing why.
int tool_time_launches(tool_timing *out, tile_rt_context *ctx,
                       tile_rt_stream *stream, tool_launch_fn launch,
                       void *user, int nsets, int warmup, int iters,
                       double timeout_s);

/// One of the kernels tool_time_in_turns compares: `launch`, after
/// `prepare` (may be NULL; an L2 flush), which is enqueued before the start
/// event and not timed. Both are given `user`.
typedef struct tool_turn {
  tool_launch_fn launch;
  void *user;
  tool_launch_fn prepare;
} tool_turn;

/// Times `count` kernels in turns: `warmup` launches of each, then `rounds`
/// rounds that launch every kernel once, back to back, in an order shuffled
/// per round (the same in every run), each launch timed between two events
/// (after its untimed prepare, if any) and on the next of the `nsets` input
/// sets. `out[k]` gets kernel k's
/// median, min and max. A run drifts (clocks, temperature, power): series
/// timed one after another differ by more than the kernels do, while
/// launches that take turns meet the same conditions. Waits at most
/// `count` x `timeout_s` for the timed launches. Returns 0, or 1 after
/// printing why.
int tool_time_in_turns(tool_timing *out, const tool_turn *turns, int count,
                       tile_rt_context *ctx, tile_rt_stream *stream, int nsets,
                       int warmup, int rounds, double timeout_s);

#endif /* TILE_TOOLS_TIMING_H */
