/*===- fp16_test.c - The tools' fp16/bf16 rounding ------------------------===*
 *
 * The host references of tile-run and tile-bench compare against inputs
 * rounded by lib/Host/host_util.c: check that rounding is to nearest,
 * ties to even, with subnormals, overflow and NaN right (fp16.test).
 *
 *===----------------------------------------------------------------------===*/

#include "host_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static float bits_to_f32(uint32_t x) {
  float f;
  memcpy(&f, &x, sizeof f);
  return f;
}

/* Whether `h` is a nearest fp16 to `x`, ties going to the even one. */
static int nearest(float x, uint16_t h, float (*back)(uint16_t)) {
  double v = back(h), d = fabs((double)x - v);
  for (int step = -1; step <= 1; step += 2) {
    uint16_t n = (uint16_t)(h + step);
    if ((n & 0x7fff) == 0x7fff || ((h ^ n) & 0x8000))
      continue; /* crossed the sign or past the NaNs */
    double dn = fabs((double)x - back(n));
    if (dn < d || (dn == d && (n & 1) == 0 && (h & 1) == 1))
      return 0;
  }
  return 1;
}

int main(void) {
  const struct {
    const char *what;
    float x;
  } f16_cases[] = {
      {"1", 1.0f},
      {"-2", -2.0f},
      {"1+2^-11 (tie, down to even)", 1.0f + 0x1p-11f},
      {"1+3*2^-11 (tie, up to even)", 1.0f + 3 * 0x1p-11f},
      {"65504 (largest)", 65504.0f},
      {"65519 (rounds down)", 65519.0f},
      {"65520 (rounds to inf)", 65520.0f},
      {"2^-14 (smallest normal)", 0x1p-14f},
      {"2^-24 (smallest subnormal)", 0x1p-24f},
      {"2^-25 (tie, to zero)", 0x1p-25f},
      {"1.5*2^-25 (up)", 1.5f * 0x1p-25f},
      {"3*2^-25 (tie, up to even 2)", 3 * 0x1p-25f},
      {"-0", -0.0f},
      {"inf", INFINITY},
      {"nan", NAN},
  };
  for (size_t i = 0; i < sizeof f16_cases / sizeof f16_cases[0]; ++i)
    printf("f16 %s: 0x%04x\n", f16_cases[i].what,
           tool_f32_to_f16(f16_cases[i].x));
  const struct {
    const char *what;
    float x;
  } bf16_cases[] = {
      {"1", 1.0f},
      {"1+2^-8 (tie, down to even)", 1.0f + 0x1p-8f},
      {"1+3*2^-8 (tie, up to even)", 1.0f + 3 * 0x1p-8f},
      {"largest float (to inf)", 3.4028235e38f},
      {"-inf", -INFINITY},
      {"signalling nan", bits_to_f32(0x7f800001u)},
  };
  for (size_t i = 0; i < sizeof bf16_cases / sizeof bf16_cases[0]; ++i)
    printf("bf16 %s: 0x%04x\n", bf16_cases[i].what,
           tool_f32_to_bf16(bf16_cases[i].x));

  /* Every finite fp16 and bf16 survives the round trip. */
  int f16_bad = 0, bf16_bad = 0;
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    if ((h & 0x7c00) != 0x7c00 &&
        tool_f32_to_f16(tool_f16_to_f32((uint16_t)h)) != h)
      ++f16_bad;
    if ((h & 0x7f80) != 0x7f80 &&
        tool_f32_to_bf16(tool_bf16_to_f32((uint16_t)h)) != h)
      ++bf16_bad;
  }
  printf("round trips: f16 %d wrong, bf16 %d wrong\n", f16_bad, bf16_bad);

  /* A sweep of floats of both signs, zero to fp16's largest, rounds to a
   * nearest value (ties to even) in both formats. */
  int near_bad = 0, checked = 0;
  for (uint32_t x = 0; x < 0x477fe000u; x += 0x1357u) { /* below 65504 */
    for (int sign = 0; sign < 2; ++sign) {
      float f = bits_to_f32(x | (uint32_t)sign << 31);
      uint16_t h = tool_f32_to_f16(f), b = tool_f32_to_bf16(f);
      near_bad += !nearest(f, h, tool_f16_to_f32);
      near_bad += !nearest(f, b, tool_bf16_to_f32);
      checked += 2;
    }
  }
  printf("nearest: %d of %d wrong\n", near_bad, checked);

  /* Uniform inputs stay in [-1, 1) and are exactly the rounded values. */
  tool_rng rng;
  tool_rng_seed(&rng, 7, 0);
  uint16_t data[4096];
  float rounded[4096];
  tool_fill_uniform(data, rounded, TILE_RT_BF16, 4096, &rng, -1.0, 1.0);
  int out_of_range = 0, mismatched = 0;
  for (int i = 0; i < 4096; ++i) {
    out_of_range += rounded[i] < -1.0f || rounded[i] > 1.0f;
    mismatched += tool_element(data, TILE_RT_BF16, (size_t)i) != rounded[i];
  }
  printf("uniform bf16: %d out of range, %d differ from the rounded copy\n",
         out_of_range, mismatched);
  uint32_t pattern;
  int width;
  tool_nan_pattern(TILE_RT_F16, &pattern, &width);
  printf("nan f16 0x%08x/%d is nan: %d\n", pattern, width,
         isnan(tool_f16_to_f32((uint16_t)pattern)));
  tool_nan_pattern(TILE_RT_BF16, &pattern, &width);
  printf("nan bf16 0x%08x/%d is nan: %d\n", pattern, width,
         isnan(tool_bf16_to_f32((uint16_t)pattern)));
  tool_nan_pattern(TILE_RT_F32, &pattern, &width);
  printf("nan f32 0x%08x/%d is nan: %d\n", pattern, width,
         isnan(bits_to_f32(pattern)));
  return 0;
}
