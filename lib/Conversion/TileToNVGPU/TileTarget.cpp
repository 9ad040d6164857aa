//===- TileTarget.cpp - The registry of chips ----------------------------===//

#include "TileTarget.h"

#include "llvm/ADT/StringMap.h"

#include <mutex>

using namespace mlir;
using namespace mlir::tile;

TileTarget::~TileTarget() = default;

FailureOr<RegisterLayout> TileTarget::getFragmentLayout(Attribute attr,
                                                        ArrayRef<int64_t> shape,
                                                        int64_t threads,
                                                        Operation *op) const {
  return RegisterLayout::get(
      attr, shape, threads, op,
      [&](ArrayRef<int64_t> s, int64_t warpgroups, int64_t t, Operation *o) {
        return getAccumulatorLayout(s, warpgroups, t, o);
      });
}

namespace {
/// The registered targets; passes may look them up from several threads.
struct Registry {
  std::mutex mutex;
  llvm::StringMap<std::unique_ptr<TileTarget>> targets;
  Registry() { add(createSM90Target()); }
  void add(std::unique_ptr<TileTarget> target) {
    std::string chip = target->getChip().str();
    targets[chip] = std::move(target);
  }
};
} // namespace

static Registry &registry() {
  static Registry r;
  return r;
}

const TileTarget *tile::lookupTileTarget(StringRef chip) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.targets.find(chip);
  return it == r.targets.end() ? nullptr : it->second.get();
}

void tile::registerTileTarget(std::unique_ptr<TileTarget> target) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.add(std::move(target));
}
