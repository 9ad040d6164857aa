/*===- run_problem.h - tile-run's check and timing of one kernel -*- C -*-===*
 *
 * Runs a kernel on a problem (problem.h): once on poisoned outputs, checked
 * against the problem's reference (its fp64 host reference, the reference
 * kernel's outputs, or, with neither, that every output is written and
 * finite), then timed with --iters; one line each.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_RUN_PROBLEM_H
#define TILE_TOOLS_RUN_PROBLEM_H

#include "problem.h"

/// The settings of a run.
typedef struct tool_run_options {
  int iters;        ///< Timed launches (0: no timing).
  int warmup;       ///< Untimed launches first.
  int check;        ///< Compare with the reference.
  uint64_t seed;    ///< Of the random inputs.
  double timeout_s; ///< Longest wait for the GPU (a hung kernel).
} tool_run_options;

/// Runs `kernel` (called `name`) on bound problem `d`, against
/// `reference` (may be NULL). Returns the exit code: 0 when checked and
/// passed, or not checked.
int tool_run_problem(const tool_run_options *run, tile_rt_context *ctx,
                     tile_rt_kernel *kernel, const char *name,
                     tile_rt_kernel *reference, const tool_problem_desc *d);

#endif /* TILE_TOOLS_RUN_PROBLEM_H */
