/* How the tuner picks what to keep (tune_choose_best), and which
 * configuration is the kernel's default (tune_is_default): one line per
 * rule; a rule that does not hold says FAIL. */
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

int main(void) {
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
  a->verdict = TUNE_WRONG;
  expect(tune_choose_best(&s) == def, "a wrong candidate is never chosen");

  s.n = 0;
  expect(tune_choose_best(&s) == NULL, "nothing measured: nothing chosen");
  s.c = NULL;
  tool_buffer_free(&s.space_text);
  printf("%d failures\n", failures);
  return failures != 0;
}
