/*===- bench_csv.h - tile-bench --csv: one row per measurement ---*- C -*-===*
 *
 * With --csv FILE, each benchmark also writes what it printed as rows of
 *   op,size,dtype,variant,impl,kernel,ms,throughput,unit,rel_err,check
 * one per implementation and size: impl is ours (ours-tuned and ours, the
 * default beside it, with --tuned), ours-plain, cublas, cublaslt or copy;
 * throughput is in `unit` (TFLOP/s, TB/s); rel_err and check belong to our
 * checked kernels ("pass", or the table's MISMATCH / FAIL; "wrong" or
 * "refused" for a default that could not be timed, whose ms is empty).
 * Each row is flushed as it is written, so a run that fails keeps the rows
 * before the failure.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_BENCH_BENCH_CSV_H
#define TILE_BENCH_BENCH_CSV_H

#include "timing.h"

#include <stdio.h>

struct bench_env;
struct bench_size;
struct bench_default;

/// The open file and the columns one benchmark shares across its rows.
typedef struct bench_csv {
  FILE *file;
  const char *path;
  const char *op;
  const char *dtype, *variant, *unit;
} bench_csv;

/// Creates `path` and writes the header; 0, or 1 after printing why not.
int bench_csv_open(bench_csv *c, const char *path, const char *op);

/// The columns of the rows that follow: element type, variant ("" for
/// none) and throughput unit.
void bench_csv_columns(bench_csv *c, const char *dtype, const char *variant,
                       const char *unit);

/// One row of implementation `impl` (its kernel or library call `kernel`)
/// at size `s`: `t`'s median, and `work` (flops or bytes) over it, in
/// units of 10^12 per second. `rel_err` < 0 and `check` NULL leave those
/// cells empty. Nothing without --csv (`c` NULL).
void bench_csv_row(bench_csv *c, const struct bench_size *s, const char *impl,
                   const char *kernel, const tool_timing *t, double work,
                   double rel_err, const char *check);

/// Our kernel's row at size `s`: "ours", or with --tuned "ours-tuned" named
/// by its configuration.
void bench_csv_ours(const struct bench_env *env, const struct bench_size *s,
                    const tool_timing *t, double work, double rel_err, int pass,
                    const char *fail_word);

/// With --tuned, the default configuration's row ("ours"): timed, or with
/// an empty time and check "wrong" or "refused".
void bench_csv_default(const struct bench_env *env, const struct bench_size *s,
                       const struct bench_default *d, double work);

/// Closes the file; 0, or 1 after printing a write error.
int bench_csv_close(bench_csv *c);

#endif /* TILE_BENCH_BENCH_CSV_H */
