/*===- test_util.h - Printing helpers for the runtime tests --*- C -*-===*
 *
 * The tests print what the runtime returned; the .test files check the lines
 * with FileCheck.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_RT_TEST_UTIL_H
#define TILE_RT_TEST_UTIL_H

#include "tile-rt/tile_rt.h"

#include <stdio.h>
#include <stdlib.h>

/// Prints "<label>: <STATUS>" and, on failure, ": <message>"; returns status.
static inline tile_rt_status report(const char *label, tile_rt_status st) {
  if (st == TILE_RT_SUCCESS)
    printf("%s: SUCCESS\n", label);
  else
    printf("%s: %s: %s\n", label, tile_rt_status_name(st),
           tile_rt_last_error());
  return st;
}

/// Stops the test when a call that must succeed fails.
#define MUST(x)                                                                \
  do {                                                                         \
    tile_rt_status must_ = (x);                                                \
    if (must_ != TILE_RT_SUCCESS) {                                            \
      printf("FATAL %s:%d: %s: %s: %s\n", __FILE__, __LINE__, #x,              \
             tile_rt_status_name(must_), tile_rt_last_error());                \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#endif /* TILE_RT_TEST_UTIL_H */
