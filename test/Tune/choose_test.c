/* How the tuner picks what to keep (tune_choose_best, tune_beats_default),
 * and which configuration is the kernel's default (tune_is_default): one
 * line per rule; a rule that does not hold says FAIL. */
#include "tune_internal.h"

#include <stdio.h>
#include <string.h>

static int failures;

static void expect(int ok, const char *what) {
  printf("%s: %s\n", ok ? "ok" : "FAIL", what);
  failures += !ok;
}

static tune_candidate *add(tune_space *s, tune_candidate *storage,
                           const char *config, double ms, int finalist) {
  tune_candidate *c = &storage[s->n++];
  memset(c, 0, sizeof *c);
  snprintf(c->config, sizeof c->config, "%s", config);
  c->verdict = TUNE_MEASURED;
  c->ms = ms;
  c->finalist = finalist;
  c->is_default = tune_is_default(s, config);
  return c;
}

/* tune_beats_default over `n` ratios. */
static int beats(const double *ratio, int n) {
  double median, noise;
  return tune_beats_default(ratio, n, &median, &noise);
}

/* The rule of the rounds against the default, on the times' ratios
 * (challenger / default) alone. */
static void test_rule(void) {
  const double clear[7] = {0.90, 0.91, 0.89, 0.90, 0.92, 0.90, 0.91};
  expect(beats(clear, 7), "a clear win replaces the default");
  double median, noise;
  tune_beats_default(clear, 7, &median, &noise);
  expect(median > 0.899 && median < 0.901 && noise > 0.009 && noise < 0.011,
         "the median ratio and the interquartile range are reported");
  /* 3% faster in the median, but the rounds spread over 6%. */
  const double within[7] = {0.93, 1.01, 0.94, 0.97, 0.99, 0.96, 0.98};
  expect(!beats(within, 7), "a win within the measured noise keeps the "
                            "default");
  /* Under load: the clock moves, one round reads 0.85 and another 1.10. */
  const double noisy[7] = {0.85, 1.10, 0.95, 0.99, 0.90, 1.04, 0.96};
  expect(!beats(noisy, 7), "noisy rounds keep the default");
  /* The tuned attention of the report: 0.98x (0.94x-1.01x) in 7 rounds. */
  const double attention[7] = {1.02, 1.06, 0.99, 1.01, 1.04, 1.00, 1.03};
  expect(!beats(attention, 7), "a challenger slower than the default in the "
                               "median never replaces it");
  const double tie[7] = {1, 1, 1, 1, 1, 1, 1};
  expect(!beats(tie, 7), "a tie keeps the default");
  const double margin[7] = {0.995, 0.995, 0.995, 0.995, 0.995, 0.995, 0.995};
  expect(!beats(margin, 7), "a steady win under the 1% margin keeps the "
                            "default");
  const double steady[7] = {0.97, 0.97, 0.97, 0.97, 0.97, 0.97, 0.97};
  expect(beats(steady, 7), "a steady win over the margin replaces it");
  expect(!beats(clear, TUNE_DUEL_MIN_ROUNDS - 1),
         "too few rounds keep the default");
  double broken[7] = {0.90, 0.91, 0.89, 0.90, 0.92, 0.90, 0.91};
  broken[3] = 0;
  expect(!beats(broken, 7), "a round that timed nothing keeps the default");
}

int main(void) {
  test_rule();
  tune_space s;
  memset(&s, 0, sizeof s);
  const char *text = "axis BM=64,128\naxis BN=128,256\ndefault BM=128\n"
                     "default BN=256\nfixed T=f16\n";
  tool_buffer_append(&s.space_text, text, strlen(text) + 1);
  tune_candidate c[8];
  s.c = c;

  expect(tune_is_default(&s, "BM=128 BN=256"),
         "the configuration of every default is the default");
  expect(!tune_is_default(&s, "BM=128 BN=128"),
         "one axis off its default is not");
  expect(!tune_is_default(&s, "BM=1280 BN=256"),
         "a value that only starts like the default is not");
  tool_buffer none = {0};
  tool_buffer_append(&none, "axis BM=64,128\n", 16);
  tune_space bare = s;
  bare.space_text = none;
  expect(!tune_is_default(&bare, "BM=128"),
         "a space without defaults has no default configuration");
  tool_buffer_free(&none);

  /* No final round: the fastest measured. */
  tune_candidate *fast = add(&s, c, "BM=64 BN=128", 1.00, 0);
  tune_candidate *def = add(&s, c, "BM=128 BN=256", 1.05, 0);
  expect(tune_choose_best(&s) == fast,
         "without a final round, the fastest is kept");
  /* Within the margin the default stays. */
  def->ms = 1.00 * (1 + TUNE_DEFAULT_MARGIN) - 1e-6;
  expect(tune_choose_best(&s) == def,
         "the default is kept within the margin of the fastest");
  def->ms = 1.00 * (1 + TUNE_DEFAULT_MARGIN) + 1e-3;
  expect(tune_choose_best(&s) == fast,
         "a configuration faster by more than the margin replaces it");

  /* A final round: only its candidates compete; a first-pass time that
   * looked faster does not count. */
  s.n = 0;
  tune_candidate *lucky = add(&s, c, "BM=64 BN=256", 0.90, 0);
  tune_candidate *a = add(&s, c, "BM=64 BN=128", 1.02, 1);
  def = add(&s, c, "BM=128 BN=256", 1.00, 1);
  expect(tune_choose_best(&s) == def && lucky != def,
         "with a final round, only its candidates are chosen");
  a->ms = 0.95;
  expect(tune_choose_best(&s) == a,
         "a finalist faster than the default by more than the margin wins");
  /* The rounds against the default decide between the two. */
  s.duel.challenger = a;
  s.duel.wins = 0;
  expect(tune_choose_best(&s) == def,
         "a finalist 5% faster in turns but not beyond the noise against "
         "the default leaves the default");
  s.duel.wins = 1;
  expect(tune_choose_best(&s) == a,
         "a finalist that beats the default in the rounds replaces it");
  memset(&s.duel, 0, sizeof s.duel);
  a->verdict = TUNE_WRONG;
  expect(tune_choose_best(&s) == def, "a wrong candidate is never chosen");

  s.n = 0;
  expect(tune_choose_best(&s) == NULL, "nothing measured: nothing chosen");
  s.c = NULL;
  tool_buffer_free(&s.space_text);
  printf("%d failures\n", failures);
  return failures != 0;
}
