/*===- tune_choose.c - What the tuner keeps --------------------------------===*
 *
 * The rule of the final round (docs/Tuning.md, "The final round"): the
 * fastest finalist replaces the kernel's default configuration only when,
 * timed against the default in alternating rounds, its median time ratio is
 * below 1 by more than the rounds' own spread (and by more than
 * TUNE_DEFAULT_MARGIN). Pure functions of the times, so that the rule is
 * tested without a GPU (test/Tune/choose_test.c).
 *
 *===----------------------------------------------------------------------===*/

#include "tune_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The q-quantile of `sorted` (n > 0), interpolated between neighbours. */
static double quantile(const double *sorted, int n, double q) {
  double at = q * (n - 1);
  int lo = (int)at;
  if (lo >= n - 1)
    return sorted[n - 1];
  return sorted[lo] + (at - lo) * (sorted[lo + 1] - sorted[lo]);
}

int tune_beats_default(const double *ratio, int n, double *median,
                       double *noise) {
  *median = 1;
  *noise = 0;
  if (n < TUNE_DUEL_MIN_ROUNDS || n > TUNE_DUEL_ROUNDS)
    return 0;
  double sorted[TUNE_DUEL_ROUNDS];
  for (int i = 0; i < n; ++i) {
    /* A round that timed nothing says nothing: keep the default. */
    if (!isfinite(ratio[i]) || ratio[i] <= 0)
      return 0;
    sorted[i] = ratio[i];
  }
  qsort(sorted, (size_t)n, sizeof sorted[0], by_value);
  *median = quantile(sorted, n, 0.5);
  *noise = quantile(sorted, n, 0.75) - quantile(sorted, n, 0.25);
  double needed = *noise > TUNE_DEFAULT_MARGIN ? *noise : TUNE_DEFAULT_MARGIN;
  return *median < 1 - needed;
}

tune_candidate *tune_choose_best(tune_space *s) {
  int final = 0;
  for (int i = 0; i < s->n; ++i)
    final |= s->c[i].finalist;
  tune_candidate *best = NULL, *def = NULL;
  for (int i = 0; i < s->n; ++i) {
    tune_candidate *c = &s->c[i];
    if (c->verdict != TUNE_MEASURED || (final && !c->finalist))
      continue;
    if (!best || c->ms < best->ms)
      best = c;
    if (c->is_default)
      def = c;
  }
  /* The rounds against the default decide between the two they timed. */
  if (def && s->duel.challenger)
    return s->duel.wins ? s->duel.challenger : def;
  if (best && def && def->ms <= best->ms * (1 + TUNE_DEFAULT_MARGIN))
    return def;
  return best;
}
