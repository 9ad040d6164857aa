//===- SourceNesting.cpp - A bound on how deeply a source may nest --------===//

#include "tile/Support/SourceNesting.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

std::optional<size_t> tile::findNestingOverflow(llvm::StringRef source,
                                                unsigned limit) {
  unsigned depth = 0;
  for (size_t i = 0, e = source.size(); i < e; ++i) {
    char c = source[i];
    char next = i + 1 < e ? source[i + 1] : '\0';
    switch (c) {
    case '"': // A string literal; `\"` does not end it.
      for (++i; i < e && source[i] != '"'; ++i)
        if (source[i] == '\\')
          ++i;
      break;
    case '/': // A comment runs to the end of the line.
      if (next == '/')
        while (i < e && source[i] != '\n')
          ++i;
      break;
    case '{':
    case '[':
    case '(':
    case '<':
      if (c == '<' && next == '=')
        break;
      if (++depth > limit)
        return i;
      break;
    case '>':
      if (next == '=' || (i > 0 && source[i - 1] == '-'))
        break;
      [[fallthrough]];
    case '}':
    case ']':
    case ')':
      // Unbalanced closers are the parser's to report.
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

LogicalResult tile::checkSourceNesting(const llvm::MemoryBuffer &buffer,
                                       MLIRContext *context) {
  llvm::StringRef source = buffer.getBuffer();
  std::optional<size_t> at = findNestingOverflow(source);
  if (!at)
    return success();
  llvm::StringRef before = source.take_front(*at);
  unsigned line = before.count('\n') + 1;
  size_t lineStart = before.rfind('\n');
  unsigned column =
      *at - (lineStart == llvm::StringRef::npos ? 0 : lineStart + 1) + 1;
  Location loc =
      FileLineColLoc::get(context, buffer.getBufferIdentifier(), line, column);
  return emitError(loc) << "the source nests deeper than " << kMaxSourceNesting
                        << " brackets ({, [, ( and < counted together), "
                           "the most the parser accepts";
}

static OwningOpRef<ModuleOp>
parseBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer, MLIRContext *context) {
  if (failed(tile::checkSourceNesting(*buffer, context)))
    return nullptr;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(context));
}

OwningOpRef<ModuleOp> tile::parseModule(llvm::StringRef source,
                                        MLIRContext *context,
                                        llvm::StringRef name) {
  // A copy: the lexer reads up to a terminating NUL, which a caller's
  // string (an MlirStringRef, a Python bytes slice) need not have.
  return parseBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, name),
                     context);
}

OwningOpRef<ModuleOp> tile::parseModuleFile(llvm::StringRef path,
                                            MLIRContext *context) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (std::error_code ec = buffer.getError()) {
    emitError(UnknownLoc::get(context))
        << "cannot open '" << path << "': " << ec.message();
    return nullptr;
  }
  return parseBuffer(std::move(*buffer), context);
}
