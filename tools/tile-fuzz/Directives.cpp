//===- Directives.cpp - tile-fuzz's compile options inside an input ------===//

#include "Directives.h"

using namespace mlir;

void tile::fuzz::readDirectives(llvm::StringRef input,
                                TileToBinaryOptions &options,
                                BinaryFormat &format) {
  while (!input.empty()) {
    auto [line, rest] = input.split('\n');
    input = rest;
    line = line.trim();
    if (!line.consume_front(kDirective))
      continue;
    auto [key, value] = line.trim().split(' ');
    value = value.trim();
    if (value.empty())
      continue;
    if (key == "bind")
      options.bind.push_back(value.str());
    else if (key == "kernels")
      options.kernels.push_back(value.str());
    else if (key == "format" && value == "ptx")
      format = BinaryFormat::Ptx;
  }
}
