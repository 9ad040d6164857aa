//===- InstructionMix.h - Counting what a kernel's code does ----*- C++ -*-===//
//
// The instructions of one kernel that matter on Hopper, counted in its PTX
// or in its SASS (nvdisasm's text): tensor-core products, TMA copies,
// barriers, shuffles and memory accesses by space. Local loads and stores
// in SASS are register spills or local arrays.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_INSTRUCTIONMIX_H
#define TILE_SUPPORT_INSTRUCTIONMIX_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::tile {

/// What text holds the code.
enum class AssemblyKind { Ptx, Sass };

/// Counts of one kernel's instructions (static: each instruction of the
/// code once, not how often it runs).
struct InstructionMix {
  int64_t total = 0;    ///< every instruction (SASS: NOPs excluded)
  int64_t wgmma = 0;    ///< wgmma.mma_async / HGMMA, IGMMA, QGMMA...
  int64_t mma = 0;      ///< warp-level mma.sync / HMMA, IMMA...
  int64_t tma = 0;      ///< cp.async.bulk[.tensor] / UTMALDG, UTMASTG, UBLKCP
                        ///< (copies; descriptor prefetches are not counted)
  int64_t mbarrier = 0; ///< mbarrier.* / SYNCS.*
  int64_t barrier = 0;  ///< bar.* and barrier.* / BAR
  int64_t shuffle = 0;  ///< shfl.* / SHFL
  /// ld/st (any qualifiers: ld.volatile.global...) by the state space they
  /// name; atom and red are not counted here.
  int64_t localLoads = 0, localStores = 0;   ///< ld/st.local / LDL, STL
  int64_t globalLoads = 0, globalStores = 0; ///< ld/st.global / LDG, STG
  int64_t sharedLoads = 0, sharedStores = 0; ///< ld/st.shared, ldmatrix,
                                             ///< stmatrix / LDS(M), STS(M)
};

/// The mix of kernel `kernel` in `text`, or nothing when `text` holds no
/// such kernel (PTX: `.entry kernel`; SASS: section `.text.kernel`).
std::optional<InstructionMix> countInstructions(llvm::StringRef text,
                                                AssemblyKind kind,
                                                llvm::StringRef kernel);

} // namespace mlir::tile

#endif // TILE_SUPPORT_INSTRUCTIONMIX_H
