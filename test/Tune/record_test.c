/* The tuning cache's record as tile-tune writes it (tune_cache_store) and
 * reads it back (tune_cache_load): every candidate the kernel's `where`
 * did not exclude is listed with its verdict; the excluded ones are only
 * counted, so that a wide space keeps a small entry. Usage:
 * tile-tune-record-test CACHE_DIR; prints what was read back. */
#include "tune_test_util.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s CACHE_DIR\n", argv[0]);
    return 2;
  }
  tune_request r;
  tune_request_init(&r);
  r.kernel = "softmax";
  r.op = "softmax";
  r.m = 4096;
  r.n = 50257;
  r.cache_dir = argv[1];
  tune_space s;
  memset(&s, 0, sizeof s);
  set_text(&s.source, "module { tile.kernel @softmax ... }", 0);
  set_text(&s.space_text, "axis COLS=1024,7168\nfixed T=f16\n", 1);
  /* The problem, as tune_space_open describes it. */
  if (tune_request_problem(&r, &s.problem) != 0)
    return 1;
  tile_rt_device_info gpu = fake_h200();

  enum { N = 1003 };
  static tune_candidate c[N];
  for (int i = 0; i < N - 3; ++i) {
    snprintf(c[i].config, sizeof c[i].config, "COLS=%d ROWS=3", i);
    c[i].verdict = TUNE_CONSTRAINT;
  }
  snprintf(c[N - 3].config, sizeof c[0].config, "COLS=1024 ROWS=1");
  c[N - 3].verdict = TUNE_CONTRACT;
  snprintf(c[N - 3].message, sizeof c[0].message, "N must be at most 1024");
  snprintf(c[N - 2].config, sizeof c[0].config, "COLS=7168 ROWS=1");
  c[N - 2].verdict = TUNE_MEASURED;
  c[N - 2].ms = 0.25;
  c[N - 2].finalist = 1;
  tool_buffer_append(&c[N - 2].image, "cubin", 5);
  tool_buffer_append(&c[N - 2].kinfo, "kinfo", 5);
  snprintf(c[N - 1].config, sizeof c[0].config, "COLS=7168 ROWS=2");
  c[N - 1].verdict = TUNE_SHARED_MEMORY;
  s.c = c;
  s.n = N;

  tune_result out;
  memset(&out, 0, sizeof out);
  tune_cache_store(&r, &s, &gpu, &c[N - 2], &out);
  tune_result back;
  memset(&back, 0, sizeof back);
  int found = tune_cache_load(&r, &s, &gpu, &back);
  if (found)
    printf("read back: %s (%.4f ms), cubin %.*s\n", back.best, back.best_ms,
           (int)back.image.size, back.image.data);
  else
    printf("FAIL: the entry just written is not read back\n");
  tune_result_free(&back);
  tool_buffer_free(&c[N - 2].image);
  tool_buffer_free(&c[N - 2].kinfo);
  tool_buffer_free(&s.source);
  tool_buffer_free(&s.space_text);
  return found ? 0 : 1;
}
