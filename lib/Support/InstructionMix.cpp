//===- InstructionMix.cpp - Counting what a kernel's code does ----------===//

#include "tile/Support/InstructionMix.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

using namespace mlir::tile;
using llvm::StringRef;

/// The lines of the body of PTX entry `kernel`: from the line after the
/// `.entry kernel` header's opening brace to the line that closes it.
static std::optional<llvm::SmallVector<StringRef>>
ptxKernelLines(StringRef text, StringRef kernel) {
  llvm::SmallVector<StringRef> lines;
  text.split(lines, '\n');
  auto header = llvm::find_if(lines, [&](StringRef line) {
    size_t at = line.find(".entry ");
    if (at == StringRef::npos)
      return false;
    StringRef name = line.drop_front(at + 7).ltrim();
    return name.consume_front(kernel) &&
           (name.empty() || name.front() == '(' || name.front() == ' ');
  });
  if (header == lines.end())
    return std::nullopt;
  llvm::SmallVector<StringRef> body;
  int depth = 0;
  bool opened = false;
  for (auto it = header; it != lines.end(); ++it) {
    StringRef line = *it;
    size_t comment = line.find("//");
    if (comment != StringRef::npos)
      line = line.take_front(comment);
    if (opened)
      body.push_back(line);
    for (char c : line) {
      if (c == '{') {
        ++depth;
        opened = true;
      } else if (c == '}') {
        --depth;
      }
    }
    if (opened && depth <= 0)
      return body;
  }
  return body; // unterminated: count what there is
}

/// The state space a PTX ld/st names among its dotted parts (`ld.global`,
/// `ld.volatile.global`, `st.async.shared::cluster`): 'g', 's', 'l' or 0.
static char memorySpace(llvm::ArrayRef<StringRef> parts) {
  for (StringRef part : parts.drop_front()) {
    if (part == "global")
      return 'g';
    if (part == "shared" || part.starts_with("shared::"))
      return 's';
    if (part == "local")
      return 'l';
  }
  return 0;
}

static void countPtx(StringRef op, InstructionMix &mix) {
  ++mix.total;
  auto starts = [&](StringRef prefix) { return op.starts_with(prefix); };
  llvm::SmallVector<StringRef> parts;
  op.split(parts, '.');
  bool load = parts.front() == "ld" || parts.front() == "ldu";
  bool store = parts.front() == "st";
  if (starts("wgmma.mma_async"))
    ++mix.wgmma;
  else if (starts("mma.sync") || op == "mma")
    ++mix.mma;
  else if (starts("cp.async.bulk") || starts("cp.reduce.async.bulk"))
    ++mix.tma;
  else if (starts("mbarrier."))
    ++mix.mbarrier;
  else if (starts("bar.") || starts("barrier."))
    ++mix.barrier;
  else if (starts("shfl."))
    ++mix.shuffle;
  else if (parts.front() == "ldmatrix")
    ++mix.sharedLoads;
  else if (parts.front() == "stmatrix")
    ++mix.sharedStores;
  else if (load || store) {
    switch (memorySpace(parts)) {
    case 'g':
      ++(load ? mix.globalLoads : mix.globalStores);
      break;
    case 's':
      ++(load ? mix.sharedLoads : mix.sharedStores);
      break;
    case 'l':
      ++(load ? mix.localLoads : mix.localStores);
      break;
    default: // ld.param, or a generic address: no space to count it in
      break;
    }
  }
}

static InstructionMix countPtxLines(llvm::ArrayRef<StringRef> lines) {
  InstructionMix mix;
  for (StringRef line : lines) {
    // A statement ends with ';' (a line may hold several, as in an inline
    // `{ .reg .b32 t; shfl... }`); braces of scopes, directives (.reg,
    // .loc...) and labels are no instructions.
    llvm::SmallVector<StringRef> statements;
    line.split(statements, ';');
    statements.pop_back(); // what follows the last ';' is unterminated
    for (StringRef stmt : statements) {
      stmt = stmt.trim();
      while (stmt.consume_front("{") || stmt.consume_front("}"))
        stmt = stmt.ltrim();
      if (stmt.empty() || stmt.front() == '.')
        continue;
      if (stmt.front() == '@') // a guard predicate: @%p1 or @!%p1
        stmt = stmt.drop_until([](char c) { return c == ' ' || c == '\t'; })
                   .ltrim();
      StringRef op =
          stmt.take_until([](char c) { return c == ' ' || c == '\t'; });
      if (!op.empty())
        countPtx(op, mix);
    }
  }
  return mix;
}

/// The lines of section `.text.kernel` of nvdisasm's output.
static std::optional<llvm::SmallVector<StringRef>>
sassKernelLines(StringRef text, StringRef kernel) {
  llvm::SmallVector<StringRef> lines;
  text.split(lines, '\n');
  std::string section = (llvm::Twine(".text.") + kernel).str();
  auto isSection = [](StringRef line) {
    return line.ltrim().starts_with(".section");
  };
  auto header = llvm::find_if(lines, [&](StringRef line) {
    if (!isSection(line))
      return false;
    StringRef name = line.ltrim().drop_front(8).ltrim();
    return name.consume_front(section) && (name.empty() || name[0] == ',');
  });
  if (header == lines.end())
    return std::nullopt;
  llvm::SmallVector<StringRef> body;
  for (auto it = std::next(header); it != lines.end() && !isSection(*it); ++it)
    body.push_back(*it);
  return body;
}

static void countSass(StringRef op, InstructionMix &mix) {
  StringRef base = op.take_until([](char c) { return c == '.'; });
  if (base == "NOP")
    return;
  ++mix.total;
  if (base.ends_with("GMMA"))
    ++mix.wgmma;
  else if (base.ends_with("MMA"))
    ++mix.mma;
  else if (base == "UTMALDG" || base == "UTMASTG" || base == "UTMAREDG" ||
           base == "UBLKCP" || base == "UBLKRED")
    ++mix.tma; // the copies; not UTMACCTL / UTMAPF (descriptor prefetches)
  else if (base == "SYNCS")
    ++mix.mbarrier;
  else if (base == "BAR")
    ++mix.barrier;
  else if (base == "SHFL")
    ++mix.shuffle;
  else if (base == "LDL")
    ++mix.localLoads;
  else if (base == "STL")
    ++mix.localStores;
  else if (base == "LDG")
    ++mix.globalLoads;
  else if (base == "STG")
    ++mix.globalStores;
  else if (base == "LDS" || base == "LDSM")
    ++mix.sharedLoads;
  else if (base == "STS" || base == "STSM")
    ++mix.sharedStores;
}

static InstructionMix countSassLines(llvm::ArrayRef<StringRef> lines) {
  InstructionMix mix;
  for (StringRef line : lines) {
    // `        /*00b0*/               @P0 BRA `(.L_x_1) ;`
    size_t address = line.find("/*");
    size_t end = line.find("*/");
    if (address == StringRef::npos || end == StringRef::npos || end < address)
      continue;
    StringRef inst = line.drop_front(end + 2).trim();
    if (!inst.ends_with(";"))
      continue;
    if (inst.front() == '@')
      inst = inst.drop_until([](char c) { return c == ' '; }).ltrim();
    StringRef op = inst.take_until([](char c) { return c == ' ' || c == ';'; });
    if (!op.empty())
      countSass(op, mix);
  }
  return mix;
}

std::optional<InstructionMix> mlir::tile::countInstructions(StringRef text,
                                                            AssemblyKind kind,
                                                            StringRef kernel) {
  if (kind == AssemblyKind::Ptx) {
    auto lines = ptxKernelLines(text, kernel);
    if (!lines)
      return std::nullopt;
    return countPtxLines(*lines);
  }
  auto lines = sassKernelLines(text, kernel);
  if (!lines)
    return std::nullopt;
  return countSassLines(*lines);
}
