/*===- host_check.h - Comparing GPU outputs with host references --*- C -*-===*
 *
 * What every operator's check shares: reading the output back, counting
 * non-finite elements (the output is NaN-poisoned before the launch, so an
 * element the kernel did not write shows), summing the error of each
 * compared row against an fp64 reference on all the host's CPUs, picking
 * the rows of a sampled check, and the verdict.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_HOST_CHECK_H
#define TILE_TOOLS_HOST_CHECK_H

#include "tile-rt/tile_rt.h"

#include <stddef.h>
#include <stdint.h>

/// Error sums over the rows compared so far.
typedef struct tool_error {
  double err2;      ///< Sum of (out - ref)^2.
  double ref2;      ///< Sum of ref^2.
  double max_abs;   ///< Largest |out - ref| (NaN once one is NaN).
  double worst_row; ///< Largest ||out - ref|| / ||ref|| of one row.
  int64_t worst_row_index;
  int64_t rows; ///< Rows added.
} tool_error;

/// Adds row `row` (an index for messages): `n` elements of `dtype` at
/// element `at` of host array `out`, against `ref`.
void tool_error_add_row(tool_error *e, int64_t row, const double *ref,
                        const void *out, tile_rt_dtype dtype, size_t at,
                        int64_t n);

/// Adds the sums of `from` to `into`.
void tool_error_merge(tool_error *into, const tool_error *from);

/// ||out - ref||_F / ||ref||_F over the rows added (the absolute norm when
/// the reference is all zero).
double tool_error_relative(const tool_error *e);

/// Computes and adds work item `item` (a row, or several) to `err`, with
/// `scratch` (scratch_bytes, this thread's own) to compute in.
typedef void (*tool_row_fn)(void *user, int64_t item, void *scratch,
                            tool_error *err);

/// Runs `fn` for every item in [0, count) on up to all the host's CPUs and
/// sums what they add into `*out`. Returns 0, or 1 after printing why not.
int tool_for_rows(tool_error *out, int64_t count, size_t scratch_bytes,
                  tool_row_fn fn, void *user);

/// `count` indices spread evenly over [0, total), the first and the last
/// included (all of [0, total) when count >= total), into a new array the
/// caller frees; its length in `*n`. NULL after printing that memory ran
/// out.
int64_t *tool_spread(int64_t total, int64_t count, int64_t *n);

/// `bytes` of device memory at `src` copied into a new host buffer the
/// caller frees; NULL after printing why not.
void *tool_fetch(tile_rt_context *ctx, tile_rt_deviceptr src, size_t bytes);

/// The NaN or infinite elements among `count` of `dtype` at `host`.
size_t tool_count_nonfinite(const void *host, tile_rt_dtype dtype,
                            size_t count);

/// A check's verdict.
typedef struct tool_check {
  double rel_err; ///< ||out - ref||_F / ||ref||_F over the checked rows.
  double max_abs_err;
  double worst_row; ///< The worst one row's relative error.
  int64_t worst_row_index;
  size_t nonfinite; ///< NaN / Inf elements anywhere in the output.
  int64_t rows;     ///< Rows compared.
  double threshold;
  int pass;
} tool_check;

/// The verdict from error sums: pass when nothing is non-finite and the
/// relative error is within `threshold` (and, if `per_row`, every row's
/// too).
void tool_check_from(tool_check *r, const tool_error *e, size_t nonfinite,
                     double threshold, int per_row);

/// Prints the detail line under a PASS/FAIL line: rows checked of `total`,
/// max |err|, worst row (if `per_row`), threshold, non-finite outputs.
void tool_check_print(const tool_check *r, int64_t total, const char *what,
                      int per_row);

#endif /* TILE_TOOLS_HOST_CHECK_H */
