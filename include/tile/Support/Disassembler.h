//===- Disassembler.h - SASS of a cubin through nvdisasm --------*- C++ -*-===//
//
// The CUDA toolkit's nvdisasm turns a cubin into SASS text. It is looked for
// in one documented order; where none is found, the error says where it
// looked and how to name one.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_DISASSEMBLER_H
#define TILE_SUPPORT_DISASSEMBLER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::tile {

/// The nvdisasm to run: $TILE_NVDISASM when it is set (that file only),
/// else the first executable `nvdisasm` in $CUDA_HOME/bin, $CUDA_PATH/bin,
/// /usr/local/cuda/bin and PATH.
llvm::Expected<std::string> findDisassembler();

/// The SASS of `cubin` (an ELF image), as `nvdisasm -c` prints it: each
/// kernel in section `.text.<kernel>`. Fails with nvdisasm's own message
/// when it refuses the image, or after `timeoutSeconds`.
llvm::Expected<std::string> disassemble(llvm::StringRef cubin,
                                        unsigned timeoutSeconds = 120);

} // namespace mlir::tile

#endif // TILE_SUPPORT_DISASSEMBLER_H
