//===- StructuredMutator.cpp - tile-fuzz's mutations that know the IR ----===//

#include "StructuredMutator.h"
#include "Directives.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using llvm::StringRef;

namespace {

/// Hostile values, as an instance's dictionary and a NAME=VALUE binding
/// both write them (test/Fuzz/structured_seeds.py has the same lists).
constexpr const char *kHostile[] = {
    // Types that are not scalars, or not whole bytes, or not for tiles.
    "index", "vector<4xf16>", "complex<f32>", "none", "tuple<>",
    "memref<2xf32>", "tensor<2xf32>", "!llvm.ptr", "f80", "f128", "i1", "i64",
    "f64", "i8", "f8E4M3FN", "f4E2M1FN",
    // Sizes: zero, one, odd, huge, negative.
    "0", "1", "3", "7", "255", "65536", "2147483648", "9223372036854775807",
    "-1", "-9223372036854775808",
    // Flags, where anything may be expected.
    "true", "false"};

/// Values only an instance's dictionary can hold.
constexpr const char *kInstanceOnly[] = {"\"f16\"", "1.5", "unit", "[1, 2]",
                                         "9223372036854775808"};

template <typename T>
const T &pick(llvm::ArrayRef<T> items, std::mt19937 &rng) {
  return items[rng() % items.size()];
}

/// The index just past the bracket group that opens at text[open].
size_t closing(StringRef text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (c == '{' || c == '[' || c == '(' || c == '<')
      ++depth;
    else if (c == '}' || c == ']' || c == ')' || c == '>')
      if (--depth == 0)
        return i + 1;
  }
  return text.size();
}

/// An entry `NAME = VALUE` of a dictionary clause, by its span.
struct Entry {
  StringRef name;
  size_t begin, end;
};

/// The entries of the dictionary whose `{` is at text[open].
llvm::SmallVector<Entry> entries(StringRef text, size_t open) {
  llvm::SmallVector<Entry> result;
  size_t end = closing(text, open) - 1, begin = open + 1;
  int depth = 0;
  for (size_t i = begin; i <= end; ++i) {
    char c = text[i];
    if (c == '[' || c == '(' || c == '<' || (c == '{' && i != open))
      ++depth;
    else if ((c == ']' || c == ')' || c == '>' || c == '}') && i != end)
      --depth;
    if ((c == ',' && depth == 0) || i == end) {
      StringRef entry = text.slice(begin, i);
      StringRef name = entry.split('=').first.trim();
      if (!name.empty() && entry.contains('='))
        result.push_back({name, begin, i});
      begin = i + 1;
    }
  }
  return result;
}

/// A parameter of a kernel of the input.
struct Param {
  StringRef kernel, name;
};

/// Every `NAME` of every `params {...}` clause, with the kernel it follows.
llvm::SmallVector<Param> params(StringRef text) {
  llvm::SmallVector<Param> result;
  for (size_t at = text.find("params"); at != StringRef::npos;
       at = text.find("params", at + 1)) {
    size_t open = text.find_first_not_of(" \t\n", at + 6);
    size_t kernel = text.take_front(at).rfind("tile.kernel @");
    if (open == StringRef::npos || text[open] != '{' ||
        kernel == StringRef::npos)
      continue;
    StringRef name = text.drop_front(kernel + 13).take_while([](char c) {
      return llvm::isAlnum(c) || c == '_' || c == '$';
    });
    for (const Entry &e : entries(text, open))
      result.push_back({name, e.name});
  }
  return result;
}

/// `text` with `op` added as the last op of its module.
std::string appendTopLevel(StringRef text, StringRef op) {
  size_t module = text.find("module");
  size_t kernel = text.find("tile.kernel");
  size_t last = text.rfind('}');
  if (module != StringRef::npos && module < kernel && last != StringRef::npos)
    return (text.take_front(last) + "  " + op + "\n" + text.drop_front(last))
        .str();
  return (text + "\n" + op + "\n").str();
}

std::optional<std::string> bindHostile(StringRef text, std::mt19937 &rng) {
  llvm::SmallVector<Param> all = params(text);
  if (all.empty())
    return std::nullopt;
  const Param &p = pick<Param>(all, rng);
  bool instance = rng() % 2;
  std::string value = instance && rng() % 8 == 0
                          ? pick<const char *>(kInstanceOnly, rng)
                          : pick<const char *>(kHostile, rng);
  std::string directive = tile::fuzz::kDirective.str();
  if (!instance)
    return directive + " kernels " + p.kernel.str() + "\n" + directive +
           " bind " + p.name.str() + "=" + value + "\n" + text.str();
  std::string name = "fuzz_bind" + std::to_string(rng() % 1000);
  std::string op = "tile.instance @" + name + " = @" + p.kernel.str() + " {" +
                   p.name.str() + " = " + value + "}";
  return directive + " kernels " + name + "\n" + appendTopLevel(text, op);
}

std::optional<std::string> dropCandidates(StringRef text, std::mt19937 &rng) {
  llvm::SmallVector<std::pair<size_t, size_t>> spans;
  for (size_t at = text.find("space"); at != StringRef::npos;
       at = text.find("space", at + 1)) {
    size_t open = text.find_first_not_of(" \t\n", at + 5);
    if (open == StringRef::npos || text[open] != '{')
      continue;
    for (const Entry &e : entries(text, open))
      spans.push_back({e.begin, e.end});
  }
  if (spans.empty())
    return std::nullopt;
  auto [begin, end] = pick<std::pair<size_t, size_t>>(spans, rng);
  // The entry and the comma after it (or, for the last, the one before).
  if (text[end] == ',')
    ++end;
  else if (size_t comma = text.rfind(',', begin);
           comma != StringRef::npos &&
           text.slice(comma + 1, begin).trim().empty())
    begin = comma;
  return (text.take_front(begin) + text.drop_front(end)).str();
}

/// The names of the f32 constants of the input.
llvm::SmallVector<StringRef> floatConstants(StringRef text) {
  llvm::SmallVector<StringRef> result;
  llvm::SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    line = line.trim();
    if (line.starts_with("%") && line.contains("= arith.constant") &&
        line.ends_with(": f32"))
      result.push_back(line.take_until([](char c) { return c == ' '; }));
  }
  return result;
}

std::optional<std::string> nestRegion(StringRef text, std::mt19937 &rng) {
  llvm::SmallVector<size_t> yields;
  for (size_t at = text.find("tile.yield %"); at != StringRef::npos;
       at = text.find("tile.yield %", at + 1))
    if (text.drop_front(at).split('\n').first.trim().ends_with(": f32") &&
        !text.drop_front(at).split('\n').first.contains(','))
      yields.push_back(at);
  llvm::SmallVector<StringRef> outer = floatConstants(text);
  if (yields.empty() || outer.empty())
    return std::nullopt;
  size_t at = pick<size_t>(yields, rng);
  StringRef line = text.drop_front(at).split('\n').first;
  StringRef value = line.drop_front(11).split(':').first.trim();
  StringRef c = pick<StringRef>(outer, rng);
  std::string id = "%fuzz" + std::to_string(rng() % 100000);
  std::string region =
      (id + "p = arith.cmpf ogt, " + value + ", " + c + " : f32\n" + id +
       "r = scf.if " + id + "p -> f32 {\n" + id + "y = arith.addf " + value +
       ", " + c + " : f32\nscf.yield " + id + "y : f32\n} else {\nscf.yield " +
       value + " : f32\n}\ntile.yield " + id + "r : f32")
          .str();
  return (text.take_front(at) + region + text.drop_front(at + line.size()))
      .str();
}

} // namespace

std::optional<std::string> tile::fuzz::mutateStructured(StringRef text,
                                                        std::mt19937 &rng) {
  switch (rng() % 4) {
  case 0:
  case 1:
    return bindHostile(text, rng);
  case 2:
    return dropCandidates(text, rng);
  default:
    return nestRegion(text, rng);
  }
}
