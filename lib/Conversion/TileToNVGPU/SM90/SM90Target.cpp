//===- SM90Target.cpp - The sm_90a target (Hopper) ----------------------===//
//
// What the lowering asks of sm_90a, answered from the facts of SM90.h:
// limits, the 128-byte swizzled shared-tile layout that TMA writes and
// wgmma reads, the wgmma shapes and accumulator layout, and the register
// budgets of warp specialisation.
//
//===----------------------------------------------------------------------===//

#include "SM90.h"
#include "TileTarget.h"

#include "tile/Dialect/Tile/IR/TileAttrs.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

/// The registers a producer warpgroup keeps: it only computes addresses
/// (CUTLASS and ThunderKittens use 40 as well).
static constexpr int64_t kProducerRegisters = 40;

/// The wgmma accumulator (PTX ISA 9.7.15.5.1, D fragments): see
/// MmaLayoutAttr. Register order is the instruction's: m64 tile major.
static RegisterLayout wgmmaAccumulator(int64_t rows, int64_t cols,
                                       int64_t warpgroups) {
  RegisterLayout l;
  l.shape = {rows, cols};
  // lane bits 0, 1: columns 2, 4; bits 2, 3, 4: rows 1, 2, 4.
  l.laneBases = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  // warp bits 0, 1 (in the warpgroup): rows 16, 32; higher bits: warpgroup.
  l.warpBases = {{16, 0}, {32, 0}};
  int64_t rowsPerGroup = rows / warpgroups;
  for (int64_t g = 1; g < warpgroups; g *= 2)
    l.warpBases.push_back({rowsPerGroup * g, 0});
  for (int64_t mt = 0; mt < rowsPerGroup / sm90::kWgmmaM; ++mt)
    for (int64_t i = 0; i < cols / 2; ++i)
      l.regOffsets.push_back(
          {mt * sm90::kWgmmaM + 8 * ((i >> 1) & 1), 8 * (i >> 2) + (i & 1)});
  return l;
}

/// Whether `v` has the layout #tile.mma<warpgroups = `warpgroups`>.
static bool hasMmaLayout(Value v, int64_t warpgroups) {
  auto alloc = v.getDefiningOp<AllocFragmentOp>();
  auto mma = alloc && alloc.getLayout()
                 ? dyn_cast<MmaLayoutAttr>(*alloc.getLayout())
                 : MmaLayoutAttr();
  return mma && mma.getWarpgroups() == warpgroups;
}

namespace {
class SM90Target final : public TileTarget {
public:
  StringRef getChip() const override { return "sm_90a"; }

  /// A comma-separated list of `+ptxNN`, the PTX ISA at least 8.0 (wgmma,
  /// TMA and sm_90a itself need it).
  std::string checkFeatures(StringRef features) const override {
    SmallVector<StringRef> items;
    features.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (StringRef item : items) {
      unsigned version;
      StringRef digits = item.trim();
      if (!digits.consume_front("+ptx") || digits.getAsInteger(10, version))
        return ("expected +ptxNN (a PTX ISA version), got '" + item.trim() +
                "'")
            .str();
      if (version < sm90::kMinPtxVersion)
        return ("sm_90a needs PTX ISA " + Twine(sm90::kMinPtxVersion / 10) +
                "." + Twine(sm90::kMinPtxVersion % 10) + " or later (+ptx" +
                Twine(sm90::kMinPtxVersion) + ")")
            .str();
    }
    return "";
  }

  int64_t getMaxSharedBytes() const override {
    return sm90::kMaxDynamicSharedBytes;
  }
  int64_t getMaxRegistersPerThread() const override {
    return sm90::kMaxRegistersPerThread;
  }

  std::string checkSharedTile(int64_t rows, int64_t cols,
                              Type elementType) const override {
    std::string why;
    llvm::raw_string_ostream os(why);
    int64_t eltBytes = elementType.getIntOrFloatBitWidth() / 8;
    int64_t rowBytes = cols * eltBytes;
    if (rowBytes % sm90::kSwizzleBytes != 0)
      os << "a shared tile row (" << cols << " x '" << elementType
         << "' = " << rowBytes << " bytes) must be a multiple of the "
         << sm90::kSwizzleBytes << "-byte swizzle width on sm_90a, e.g. "
         << sm90::kSwizzleBytes / eltBytes << " elements";
    else if (rows % sm90::kSwizzleAtomRows != 0 || rows > sm90::kTmaMaxBoxDim)
      os << "a shared tile has a multiple of " << sm90::kSwizzleAtomRows
         << " rows, at most " << sm90::kTmaMaxBoxDim << " (one TMA box), got "
         << rows;
    return why;
  }

  SwizzledPanels getSharedTileLayout(int64_t rows, int64_t cols,
                                     int64_t eltBytes) const override {
    return {rows, cols, eltBytes, sm90::kSwizzleBytes, sm90::kSwizzleAtomRows};
  }

  int64_t getSharedTileAlignment() const override {
    return sm90::kSwizzleAtomBytes;
  }

  LogicalResult checkMma(GemmOp gemm, int64_t threads) const override {
    auto fail = [&](const Twine &message) { return gemm.emitOpError(message); };
    if (threads % kWarpgroupSize != 0)
      return fail("warpgroup MMA needs whole warpgroups: threads (" +
                  Twine(threads) + ") must be a multiple of " +
                  Twine(kWarpgroupSize));
    auto c = cast<FragmentType>(gemm.getC().getType());
    int64_t warpgroups = threads / kWarpgroupSize;
    int64_t m = c.getShape()[0], n = c.getShape()[1];
    if (m % (sm90::kWgmmaM * warpgroups) != 0)
      return fail("M (" + Twine(m) + ") must be a multiple of " +
                  Twine(sm90::kWgmmaM) + " x " + Twine(warpgroups) +
                  " warpgroups: each warpgroup issues m64 wgmma instructions");
    if (n % sm90::kWgmmaNStep != 0 || n > sm90::kWgmmaMaxN)
      return fail("N (" + Twine(n) + ") must be a multiple of " +
                  Twine(sm90::kWgmmaNStep) + " and at most " +
                  Twine(sm90::kWgmmaMaxN) + " for wgmma");
    if (gemm.transposesA())
      return fail("transpose_a is not lowered on sm_90a; store A as M x K");
    if (!hasMmaLayout(gemm.getC(), warpgroups))
      return fail("the accumulator must have the layout #tile.mma<warpgroups "
                  "= " +
                  Twine(warpgroups) + ">");
    if (!isa<FragmentType>(gemm.getA().getType()))
      return success();
    // A from registers: the wgmma A fragment is the accumulator layout's
    // registers, two f16/bf16 per 32-bit register (PTX ISA 9.7.15.5.1).
    if (!hasMmaLayout(gemm.getA(), warpgroups))
      return fail("a fragment A must have the layout #tile.mma<warpgroups "
                  "= " +
                  Twine(warpgroups) + ">, as an accumulator has");
    int64_t k = cast<FragmentType>(gemm.getA().getType()).getShape()[1];
    if (k % 16 != 0)
      return fail("a fragment A needs K (" + Twine(k) +
                  ") to be a multiple of the wgmma K step (16)");
    return success();
  }

  FailureOr<RegisterLayout> getAccumulatorLayout(ArrayRef<int64_t> shape,
                                                 int64_t warpgroups,
                                                 int64_t threads,
                                                 Operation *op) const override {
    if (shape.size() != 2 || !llvm::isPowerOf2_64(warpgroups) ||
        warpgroups * kWarpgroupSize != threads ||
        shape[0] % (warpgroups * sm90::kWgmmaM) != 0 || shape[1] % 8 != 0)
      return op->emitOpError("cannot lay out ")
             << shape[0] << "x" << (shape.size() > 1 ? shape[1] : 1) << " with "
             << MmaLayoutAttr::get(op->getContext(), warpgroups)
             << " in a block of " << threads
             << " threads: rows must be a multiple of 64 per warpgroup, "
                "columns of 8, and the block exactly the warpgroups";
    return wgmmaAccumulator(shape[0], shape[1], warpgroups);
  }

  Value convertEightBitFloat(OpBuilder &b, Location l, Value v,
                             FloatType to) const override {
    return sm90::convertEightBitFloat(b, l, v, to);
  }

  /// One consumer warpgroup (256 threads in all) already addresses the 255
  /// registers of a thread. With more, the block's registers are split
  /// evenly at launch, and move from the producer to the consumers.
  std::pair<int64_t, int64_t>
  getRegisterBudgets(int64_t threads, int64_t blocks) const override {
    if (threads / kWarpgroupSize < 2)
      return {0, 0};
    // Each of the resident blocks has its share of the register file.
    int64_t perBlock = sm90::kRegistersPerSM / std::max<int64_t>(blocks, 1);
    int64_t blockThreads = threads + kWarpgroupSize;
    int64_t atEntry =
        llvm::alignDown(perBlock / blockThreads, sm90::kRegisterAllocationUnit);
    int64_t spare = perBlock - kProducerRegisters * kWarpgroupSize;
    int64_t budget = std::min<int64_t>(
        llvm::alignDown(spare / threads, sm90::kRegisterAllocationUnit),
        sm90::kMaxSetmaxnregRegisters);
    if (budget <= atEntry)
      return {0, 0};
    return {kProducerRegisters, budget};
  }
};
} // namespace

std::unique_ptr<TileTarget> tile::createSM90Target() {
  return std::make_unique<SM90Target>();
}
