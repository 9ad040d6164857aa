/* The tuning cache's key as tile-tune builds it (tune_key_init): every
 * component that changes the answer changes the key. Prints one line per
 * component; a component that leaves the key unchanged says FAIL. */
#include "tune_test_util.h"

#include <stdlib.h>

static void to_key(MlirStringRef s, void *user) {
  snprintf(user, 65, "%.*s", (int)s.length, s.data);
}

/* The key as tune_run makes it: the space holding r's problem, as
 * tune_space_open describes it. */
static void key_of(char out[65], const tune_request *r, tune_space *s,
                   const tile_rt_device_info *dev) {
  if (tune_request_problem(r, &s->problem) != 0)
    exit(1);
  tune_key k;
  tune_key_init(&k, r, s, dev);
  mlirTileCacheComputeKey(mlirStringRefCreateFromCString("tune"), k.c,
                          (size_t)k.n, to_key, out);
  tune_key_free(&k);
}

int main(void) {
  tune_request base;
  tune_request_init(&base);
  base.kernel = "gemm_f16";
  base.op = "gemm";
  base.m = base.n = base.k = 4096;
  tune_space space;
  memset(&space, 0, sizeof space);
  set_text(&space.source, "module { tile.kernel @gemm ... }", 0);
  set_text(&space.space_text, "axis BM=64,128\nfixed T=f16\n", 1);
  tile_rt_device_info gpu = fake_h200();

  char k0[65], k1[65];
  key_of(k0, &base, &space, &gpu);
  key_of(k1, &base, &space, &gpu);
  int failures = strcmp(k0, k1) != 0;
  printf("%s: the key is stable\n", failures ? "FAIL" : "ok");

/* `stmt` changes a copy of request `from` (whose key is `k`), or the
 * space, or the GPU. */
#define VARY_FROM(from, k, what, stmt)                                         \
  do {                                                                         \
    tune_request r = from;                                                     \
    tile_rt_device_info d = gpu;                                               \
    tile_rt_device_info *dp = &d;                                              \
    (void)dp;                                                                  \
    stmt;                                                                      \
    key_of(k1, &r, &space, dp);                                                \
    int same = strcmp(k, k1) == 0;                                             \
    failures += same;                                                          \
    printf("%s: %s changes the key\n", same ? "FAIL" : "ok", what);            \
    set_text(&space.source, "module { tile.kernel @gemm ... }", 0);            \
    set_text(&space.space_text, "axis BM=64,128\nfixed T=f16\n", 1);           \
  } while (0)
#define VARY(what, stmt) VARY_FROM(base, k0, what, stmt)

  VARY("the kernel source", set_text(&space.source, "module { other }", 0));
  VARY("the kernel", r.kernel = "gemm_bf16");
  VARY("the operator", r.op = "gemm_bias_gelu");
  VARY("the space",
       set_text(&space.space_text, "axis BM=64\nfixed T=f16\n", 1));
  VARY("a binding of the caller",
       set_text(&space.space_text, "axis BM=64,128\nfixed T=f16 BN=128\n", 1));
  VARY("the element type",
       set_text(&space.space_text, "axis BM=64,128\nfixed T=bf16\n", 1));
  VARY("M", r.m = 4095);
  VARY("N", r.n = 8192);
  VARY("K", r.k = 1024);
  VARY("the GPU's name", snprintf(d.name, sizeof d.name, "NVIDIA H100"));
  VARY("the compute capability", d.cc_minor = 1);
  VARY("the SM count", d.sm_count = 114);
  VARY("the driver's CUDA version", d.driver_version = 12080);
  VARY("the shared memory limit", r.smem_limit = 100000);
  VARY("the threads limit", r.threads_limit = 512);
  VARY("the spill limit", r.max_spill_bytes = 0);
  VARY("having no GPU", dp = NULL);

  /* Attention's problem: [B, H, S, D] and the causal flag. */
  tune_request attn = base;
  attn.kernel = "attention";
  attn.op = "attention";
  attn.m = attn.n = attn.k = 0;
  attn.b = 8, attn.h = 16, attn.s = 4096, attn.d = 128;
  char ka[65];
  key_of(ka, &attn, &space, &gpu);
  VARY_FROM(attn, ka, "B", r.b = 4);
  VARY_FROM(attn, ka, "H", r.h = 32);
  VARY_FROM(attn, ka, "S", r.s = 2048);
  VARY_FROM(attn, ka, "the head dimension", r.d = 64);
  VARY_FROM(attn, ka, "the causal flag", r.causal = 1);
  VARY_FROM(attn, ka, "the binding of CAUSAL",
            set_text(&space.space_text,
                     "axis BM=64,128\nfixed CAUSAL=true T=f16\n", 1));

  /* The fused gemm's GELU form; the plain gemm has none. */
  tune_request fused = base;
  fused.op = "gemm_bias_gelu";
  char kf[65];
  key_of(kf, &fused, &space, &gpu);
  VARY_FROM(fused, kf, "the GELU form", r.gelu_erf = 1);
  {
    tune_request plain = base;
    plain.gelu_erf = 1;
    key_of(k1, &plain, &space, &gpu);
    int same = strcmp(k0, k1) == 0;
    failures += !same;
    printf("%s: the GELU form leaves the plain gemm's key alone\n",
           same ? "ok" : "FAIL");
  }

  /* A problem given as data: the whole description is in the key. */
  tune_request json = base;
  json.op = "problem";
  json.problem_json = "{\"args\": [{\"shape\": [64, 64]}, "
                      "{\"shape\": [64, 64], \"output\": true}]}";
  char kj[65];
  key_of(kj, &json, &space, &gpu);
  VARY_FROM(json, kj, "a problem's shape",
            r.problem_json = "{\"args\": [{\"shape\": [64, 32]}, "
                             "{\"shape\": [64, 64], \"output\": true}]}");
  VARY_FROM(json, kj, "a problem's input range",
            r.problem_json = "{\"args\": [{\"shape\": [64, 64], \"range\": "
                             "[0, 1]}, {\"shape\": [64, 64], \"output\": "
                             "true}]}");
  VARY_FROM(json, kj, "a problem's reference kernel",
            r.problem_json = "{\"args\": [{\"shape\": [64, 64]}, "
                             "{\"shape\": [64, 64], \"output\": true}], "
                             "\"reference\": \"naive\"}");
  VARY_FROM(json, kj, "a problem's threshold",
            r.problem_json = "{\"args\": [{\"shape\": [64, 64]}, "
                             "{\"shape\": [64, 64], \"output\": true}], "
                             "\"rtol\": 0.001}");

  /* The compiler's build is part of every key. */
  tool_buffer build = {0};
  tune_key k;
  tune_key_init(&k, &base, &space, &gpu);
  int has_build = 0;
  for (int i = 0; i < k.n; ++i)
    if (k.c[i].name.length == 8 &&
        memcmp(k.c[i].name.data, "compiler", 8) == 0 &&
        strstr(k.c[i].value.data, " build ") &&
        strstr(k.c[i].value.data, " ptxas "))
      has_build = 1;
  tune_key_free(&k);
  tool_buffer_free(&build);
  failures += !has_build;
  printf("%s: the compiler's build and ptxas are components\n",
         has_build ? "ok" : "FAIL");
  printf("%d failures\n", failures);
  tool_buffer_free(&space.source);
  tool_buffer_free(&space.space_text);
  return failures ? 1 : 0;
}
