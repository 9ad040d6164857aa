/*===- problem_key_test.c - A problem's tuning key ------------------------===*
 *
 * The tuning cache finds a problem given as data by its key text
 * (tool_problem_text): two problems that differ in any field must differ
 * in it, whatever their names hold (the key's own separators included),
 * and however long the description is (problem_key.test).
 *
 *===----------------------------------------------------------------------===*/

#include "problem_json.h"

#include <stdio.h>
#include <string.h>

static tool_problem_desc a, b;
static int failures;

static void key_of(tool_problem_desc *d, const char *json) {
  if (tool_problem_from_json(d, json, strlen(json), "problem") != 0) {
    printf("FAIL: does not read: %s\n", json);
    ++failures;
  }
}

/* Problems `x` and `y` must have different keys. */
static void differ(const char *what, const char *x, const char *y) {
  key_of(&a, x);
  key_of(&b, y);
  int same = strcmp(a.key, b.key) == 0;
  printf("%s: %s\n", same ? "FAIL" : "differ", what);
  failures += same;
}

int main(void) {
  /* A name that spells another argument's separator and shape. */
  differ("a name holding the separators",
         "{\"args\": [{\"name\": \"A: 4 [-1, 1); B\", \"shape\": [4]}]}",
         "{\"args\": [{\"name\": \"A\", \"shape\": [4]}, {\"name\": \"B\", "
         "\"shape\": [4]}]}");
  differ("a name holding ' = '",
         "{\"args\": [{\"name\": \"x = 1; y\", \"value\": 2}]}",
         "{\"args\": [{\"name\": \"x\", \"value\": 1}, {\"name\": \"y\", "
         "\"value\": 2}]}");
  differ("the range", "{\"args\": [{\"shape\": [4], \"range\": [0, 1]}]}",
         "{\"args\": [{\"shape\": [4], \"range\": [0, 2]}]}");
  differ("a row shift", "{\"args\": [{\"shape\": [4], \"row_shift\": [1]}]}",
         "{\"args\": [{\"shape\": [4], \"row_shift\": [2]}]}");
  differ("the reference",
         "{\"args\": [{\"shape\": [4]}], \"reference\": \"r1\"}",
         "{\"args\": [{\"shape\": [4]}], \"reference\": \"r2\"}");
  differ("rtol", "{\"args\": [{\"shape\": [4]}], \"rtol\": 0.01}",
         "{\"args\": [{\"shape\": [4]}], \"rtol\": 0.02}");

  /* Eight arguments with the longest names and many shifts: over 1 KiB
   * of key, with the two problems differing only in the last field. */
  char x[8192], y[8192];
  size_t at = 0;
  at += (size_t)snprintf(x + at, sizeof x - at, "{\"args\": [");
  for (int i = 0; i < 8; ++i)
    at += (size_t)snprintf(
        x + at, sizeof x - at,
        "%s{\"name\": \"argument_number_%d_with_a_long_n\", \"shape\": "
        "[2147483647, 1, 1, 1], \"range\": [-0.1234567890123, "
        "0.98765432109876], \"row_shift\": [0.111111111111, 0.2222222222, "
        "0.3333333333, 0.4444444444]}",
        i ? ", " : "", i);
  snprintf(y, sizeof y, "%s", x);
  snprintf(x + at, sizeof x - at, "], \"bytes\": 1}");
  snprintf(y + at, sizeof y - at, "], \"bytes\": 2}");
  key_of(&a, x);
  printf("long key: %s 1 KiB\n", strlen(a.key) > 1024 ? "over" : "under");
  differ("two long descriptions differing at the end", x, y);
  return failures != 0;
}
