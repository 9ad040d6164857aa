/*===- host_util.h - Host helpers of tile-run and tile-bench -------*- C -*-===*
 *
 * Files and buffers, number parsing, fp16/bf16 rounding, a seeded generator,
 * and error printing for the tools (never for the runtime library).
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_HOST_UTIL_H
#define TILE_TOOLS_HOST_UTIL_H

#include "tile-rt/tile_rt.h"

#include <stddef.h>
#include <stdint.h>

/// The program name used in messages ("tile-run"); set by main.
extern const char *tool_name;

/// Failures print "<tool>: <message>" on stderr, as the tools want. A
/// library entry point (libtile_tune.so) captures them instead: on its
/// thread, while capture is on, nothing is printed, and the messages, the
/// MLIR diagnostics of tool_mlir_context's contexts among them, collect in
/// the thread's last error, which the caller reads (tool_last_error).

/// Prints "<tool>: <what>: <STATUS>: <runtime message>" (or captures it)
/// and returns 1 (an exit code), for `return tool_rt_fail(...)`.
int tool_rt_fail(const char *what, tile_rt_status status);

/// Prints "<tool>: <formatted message>" (or captures it) and returns 1.
int tool_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/// Turns capture on or off for this thread; returns whether it was on.
int tool_capture_errors(int on);
/// Whether this thread captures its failures.
int tool_errors_captured(void);
/// Empties this thread's last error.
void tool_clear_error(void);
/// Appends a line to this thread's last error (a diagnostic's text).
void tool_error_append(const char *text, size_t n);
/// What this thread captured since tool_clear_error ("" if nothing), one
/// line per message; it lives until the thread's next capture.
const char *tool_last_error(void);

/*===--- Buffers and files ------------------------------------------------===*/

/// A growable byte buffer; zero-initialise it, free with tool_buffer_free.
typedef struct tool_buffer {
  char *data;
  size_t size;
  size_t capacity;
} tool_buffer;

/// Appends `n` bytes; keeps a NUL after the data. Returns 0, or -1 when out
/// of memory.
int tool_buffer_append(tool_buffer *b, const void *bytes, size_t n);

/// Frees the bytes and resets `b`.
void tool_buffer_free(tool_buffer *b);

/// Reads the whole file at `path` into `out` (appending); 0, or -1 after
/// printing why.
int tool_read_file(const char *path, tool_buffer *out);

/* dlopen()s the first of `names` that loads (NULL or empty names are
 * skipped), copies its name into `path`, and returns the handle; on failure
 * returns NULL with each name and dlerror() appended to `tried`. */
void *tool_dlopen_first(const char *const *names, size_t count, char *path,
                        size_t path_size, char *tried, size_t tried_size);

/// Writes `n` bytes to `path` (replacing it); 0, or -1 after printing why.
int tool_write_file(const char *path, const void *bytes, size_t n);

/// Creates directory `path` if it does not exist (not its parents); 0, or
/// -1 after printing why.
int tool_make_dir(const char *path);

/// The file name of `path` without directories and without its last
/// extension ("a/b/gemm.mlir" -> "gemm"), into `buf` of `n` bytes.
const char *tool_path_stem(char *buf, size_t n, const char *path);

/*===--- Numbers ----------------------------------------------------------===*/

/// Parses a whole string as a decimal integer in [lo, hi]; 0, or -1.
int tool_parse_i64(int64_t *out, const char *s, int64_t lo, int64_t hi);

/// Parses a whole string as a finite double; 0, or -1.
int tool_parse_double(double *out, const char *s);

/// Monotonic seconds.
double tool_now(void);

/// The median of `n` values (reorders them); 0 for n == 0.
double tool_median(double *values, int n);

/// fp32 -> fp16 / bf16, rounding to nearest even (NaN stays NaN, overflow
/// becomes infinity), and back (exact).
uint16_t tool_f32_to_f16(float f);
float tool_f16_to_f32(uint16_t h);
uint16_t tool_f32_to_bf16(float f);
float tool_bf16_to_f32(uint16_t b);

/// Element `i` of a host array of `dtype` (f16, bf16, f32, f64, integers)
/// as a double.
double tool_element(const void *data, tile_rt_dtype dtype, size_t i);

/// A NaN pattern for `dtype` repeated to 32 bits, and the width to write it
/// with (2 or 4 bytes), for poisoning outputs; 0 width for integer types.
void tool_nan_pattern(tile_rt_dtype dtype, uint32_t *pattern, int *width);

/// Sets `count` elements of `dtype` at `dst` to NaN (f64 and integers:
/// all-ones bytes).
tile_rt_status tool_poison(tile_rt_context *ctx, tile_rt_deviceptr dst,
                           tile_rt_dtype dtype, size_t count);

/*===--- Random inputs ----------------------------------------------------===*/

/// A small deterministic generator (splitmix64).
typedef struct tool_rng {
  uint64_t state;
} tool_rng;

/// Seeds `rng` from `seed` and a stream number (one stream per tensor).
void tool_rng_seed(tool_rng *rng, uint64_t seed, uint64_t stream);

/// A uniform double in [lo, hi).
double tool_rng_uniform(tool_rng *rng, double lo, double hi);

/// Fills `n` elements of `dtype` at host `dst` with uniform values in
/// [lo, hi), rounded to the type; `rounded` (may be NULL) receives the
/// rounded values as floats. Floating types only; 0, or -1 otherwise.
int tool_fill_uniform(void *dst, float *rounded, tile_rt_dtype dtype, size_t n,
                      tool_rng *rng, double lo, double hi);

/*===--- Kernel records ---------------------------------------------------===*/

/// Prints a kernel record: name, block, smem, grid rules and parameters.
void tool_print_kernel(const tile_rt_kernel_desc *desc);

#endif /* TILE_TOOLS_HOST_UTIL_H */
