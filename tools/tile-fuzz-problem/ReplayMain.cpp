//===- ReplayMain.cpp - Run a fuzz target once on each file given --------===//
//
// The fuzz target without libFuzzer: `tile-replay-problem FILE...` runs
// LLVMFuzzerTestOneInput on each file's bytes and says how many it ran, so
// that every build replays the seed corpus and the fuzzer's findings.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  int ran = 0;
  for (int i = 1; i < argc; ++i) {
    FILE *f = std::fopen(argv[i], "rb");
    if (!f) {
      std::fprintf(stderr, "tile-replay-problem: cannot open '%s'\n", argv[i]);
      return 1;
    }
    std::vector<uint8_t> bytes;
    uint8_t chunk[4096];
    for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;)
      bytes.insert(bytes.end(), chunk, chunk + n);
    std::fclose(f);
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    ++ran;
  }
  std::printf("replayed %d inputs\n", ran);
  return 0;
}
