/*===- tile_rt_checked.h - Overflow-checked arithmetic -----------*- C -*-===*
 *
 * The one place the runtime multiplies and adds sizes, strides, offsets and
 * addresses that come from its callers: each helper reports an overflow
 * instead of wrapping (or, for signed values, being undefined), so that a
 * stride of 2^62 elements cannot become a small byte stride that passes a
 * range check. Not installed, not public.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_RT_CHECKED_H
#define TILE_RT_CHECKED_H

#include <stdint.h>

/// `*out = a * b`; returns 1 (with `*out` unspecified) on overflow, else 0.
static inline int rt_mul_u64(uint64_t *out, uint64_t a, uint64_t b) {
  return __builtin_mul_overflow(a, b, out);
}

/// `*out = a + b`; returns 1 (with `*out` unspecified) on overflow, else 0.
static inline int rt_add_u64(uint64_t *out, uint64_t a, uint64_t b) {
  return __builtin_add_overflow(a, b, out);
}

/// `*out = a * b`; returns 1 (with `*out` unspecified) on overflow, else 0.
static inline int rt_mul_i64(int64_t *out, int64_t a, int64_t b) {
  return __builtin_mul_overflow(a, b, out);
}

#endif /* TILE_RT_CHECKED_H */
