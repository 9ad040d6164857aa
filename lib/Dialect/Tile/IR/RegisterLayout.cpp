//===- RegisterLayout.cpp - Fragment layouts made concrete --------------===//

#include "tile/Dialect/Tile/IR/RegisterLayout.h"
#include "tile/Dialect/Tile/IR/TileHardware.h"

#include "tile/Dialect/Tile/IR/TileAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

static Coord unit(int64_t rank, unsigned dim, int64_t value) {
  Coord c(rank, 0);
  c[dim] = value;
  return c;
}

/// Runs of `vector` elements of the last dimension per thread; lanes and
/// warps each a grid, last dimension fastest; the footprint repeats.
static RegisterLayout blockedLayout(ArrayRef<int64_t> shape, int64_t vector,
                                    ArrayRef<int64_t> lanes,
                                    ArrayRef<int64_t> warps) {
  RegisterLayout l;
  l.shape.assign(shape.begin(), shape.end());
  int64_t rank = shape.size();
  SmallVector<int64_t> step(rank, 1), footprint(rank);
  step[rank - 1] = vector;
  for (int64_t d = rank - 1; d >= 0; --d)
    for (int64_t k = 1; k < lanes[d]; k *= 2)
      l.laneBases.push_back(unit(rank, d, step[d] * k));
  for (int64_t d = 0; d < rank; ++d)
    step[d] *= lanes[d];
  for (int64_t d = rank - 1; d >= 0; --d)
    for (int64_t k = 1; k < warps[d]; k *= 2)
      l.warpBases.push_back(unit(rank, d, step[d] * k));
  for (int64_t d = 0; d < rank; ++d)
    footprint[d] = step[d] * warps[d];
  // Registers: repeats of the footprint (row-major), then the vector.
  SmallVector<int64_t> repeats(rank);
  for (int64_t d = 0; d < rank; ++d)
    repeats[d] = shape[d] / footprint[d];
  int64_t total = 1;
  for (int64_t r : repeats)
    total *= r;
  for (int64_t n = 0; n < total; ++n) {
    Coord base(rank, 0);
    int64_t rest = n;
    for (int64_t d = rank - 1; d >= 0; --d) {
      base[d] = (rest % repeats[d]) * footprint[d];
      rest /= repeats[d];
    }
    for (int64_t e = 0; e < vector; ++e) {
      Coord c = base;
      c[rank - 1] += e;
      l.regOffsets.push_back(c);
    }
  }
  return l;
}

FailureOr<RegisterLayout> RegisterLayout::get(Attribute attr,
                                              ArrayRef<int64_t> shape,
                                              int64_t threads, Operation *op,
                                              AccumulatorLayoutFn accumulator) {
  int64_t warps = threads / kWarpSize;
  if (!attr)
    return op->emitOpError("has no layout; run tile-infer-layouts first");
  if (auto mma = dyn_cast<MmaLayoutAttr>(attr))
    return accumulator(shape, mma.getWarpgroups(), threads, op);
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(attr)) {
    int64_t rank = shape.size();
    ArrayRef<int64_t> lanes = blocked.getLanes(), ws = blocked.getWarps();
    int64_t warpCount = 1;
    bool pow2 = llvm::isPowerOf2_64(blocked.getVector());
    for (int64_t d = 0; d < rank; ++d) {
      warpCount *= ws[d];
      pow2 &= llvm::isPowerOf2_64(lanes[d]) && llvm::isPowerOf2_64(ws[d]);
    }
    // Each rule stated with its fix.
    auto refuse = [&]() {
      return op->emitOpError("cannot lay out the fragment with ")
             << attr << " in a block of " << threads << " threads: ";
    };
    if (!pow2)
      return refuse() << "its lanes, warps and vector must be powers of two";
    if (warpCount != warps)
      return refuse() << "its warps (" << warpCount << ") must be the block's ("
                      << warps << "): every warp holds a part of the fragment";
    int64_t elements = 1;
    for (int64_t extent : shape)
      elements *= extent;
    int64_t least = threads * blocked.getVector();
    if (elements < least)
      return refuse() << "the fragment has " << elements
                      << " elements and every one of the " << threads
                      << " threads holds at least a run of "
                      << blocked.getVector()
                      << "; a fragment needs at least threads x vector = "
                      << least << " elements (round its sizes up to powers of "
                      << "two and let the copies mask the elements past the "
                      << "data)";
    for (int64_t d = 0; d < rank; ++d) {
      int64_t vec = d == rank - 1 ? blocked.getVector() : 1;
      int64_t foot = lanes[d] * ws[d] * vec;
      if (shape[d] % foot == 0)
        continue;
      InFlightDiagnostic diag = refuse();
      diag << "dimension " << d << " (" << shape[d]
           << ") must be a multiple of " << foot
           << ", what the layout spreads along it (" << lanes[d] << " lanes x "
           << ws[d] << " warps";
      if (vec > 1)
        diag << " x " << vec << " elements";
      diag << "); make it " << llvm::alignTo(shape[d], foot)
           << " and let the copies mask the elements past the data";
      return diag;
    }
    return blockedLayout(shape, blocked.getVector(), lanes, ws);
  }
  if (auto slice = dyn_cast<SliceLayoutAttr>(attr)) {
    // The parent's extent along the removed dimension does not change which
    // thread holds what of the others; use the smallest that it tiles.
    SmallVector<int64_t> parentShape(shape.begin(), shape.end());
    unsigned dim = slice.getDim();
    parentShape.insert(parentShape.begin() + dim, 1);
    FailureOr<RegisterLayout> parent = failure();
    for (int64_t extent = 1; extent <= (1 << 16) && failed(parent);
         extent *= 2) {
      parentShape[dim] = extent;
      // Probe quietly: only the final attempt reports.
      ScopedDiagnosticHandler quiet(op->getContext(),
                                    [](Diagnostic &) { return success(); });
      parent = get(slice.getParent(), parentShape, threads, op, accumulator);
    }
    if (failed(parent))
      return op->emitOpError("cannot lay out the fragment with ") << attr;
    return parent->slice(dim);
  }
  return op->emitOpError("has an unknown layout ") << attr;
}

Value RegisterLayout::threadCoord(OpBuilder &b, Location loc, Value tid,
                                  unsigned dim) const {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value lane = arith::RemUIOp::create(b, loc, tid, c(kWarpSize));
  Value warp = arith::DivUIOp::create(b, loc, tid, c(kWarpSize));
  Value sum = c(0);
  auto addBits = [&](Value index, ArrayRef<Coord> bases) {
    for (auto [k, base] : llvm::enumerate(bases)) {
      if (base[dim] == 0)
        continue;
      Value bit = arith::AndIOp::create(
          b, loc, arith::ShRUIOp::create(b, loc, index, c(k)), c(1));
      sum = arith::AddIOp::create(
          b, loc, sum, arith::MulIOp::create(b, loc, bit, c(base[dim])));
    }
  };
  addBits(lane, laneBases);
  addBits(warp, warpBases);
  return sum;
}

Coord RegisterLayout::coordOf(int64_t thread, int64_t reg) const {
  Coord c = regOffsets[reg];
  int64_t lane = thread % kWarpSize, warp = thread / kWarpSize;
  auto addBits = [&](int64_t index, ArrayRef<Coord> bases) {
    for (auto [k, base] : llvm::enumerate(bases))
      if ((index >> k) & 1)
        for (int64_t d = 0; d < rank(); ++d)
          c[d] += base[d];
  };
  addBits(lane, laneBases);
  addBits(warp, warpBases);
  return c;
}

SmallVector<int64_t> RegisterLayout::laneMasksAlong(unsigned dim) const {
  SmallVector<int64_t> masks;
  for (auto [k, base] : llvm::enumerate(laneBases))
    if (base[dim] != 0)
      masks.push_back(1 << k);
  return masks;
}

int64_t RegisterLayout::replicatingThreadBits() const {
  auto zero = [](const Coord &base) {
    return llvm::all_of(base, [](int64_t c) { return c == 0; });
  };
  int64_t bits = 0;
  for (auto [k, base] : llvm::enumerate(laneBases))
    if (zero(base))
      bits |= int64_t(1) << k;
  for (auto [k, base] : llvm::enumerate(warpBases))
    if (zero(base))
      bits |= int64_t(1) << (laneBases.size() + k);
  return bits;
}

Value RegisterLayout::isOwner(OpBuilder &b, Location loc, Value tid) const {
  int64_t bits = replicatingThreadBits();
  if (!bits)
    return arith::ConstantIntOp::create(b, loc, 1, 1);
  Value masked = arith::AndIOp::create(
      b, loc, tid, arith::ConstantIndexOp::create(b, loc, bits));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, masked,
                               arith::ConstantIndexOp::create(b, loc, 0));
}

SmallVector<unsigned> RegisterLayout::warpBitsAlong(unsigned dim) const {
  SmallVector<unsigned> bits;
  for (auto [k, base] : llvm::enumerate(warpBases))
    if (base[dim] != 0)
      bits.push_back(k);
  return bits;
}

static Coord drop(const Coord &c, unsigned dim) {
  Coord out = c;
  out.erase(out.begin() + dim);
  return out;
}

RegisterLayout RegisterLayout::slice(unsigned dim) const {
  RegisterLayout s;
  s.shape = shape;
  s.shape.erase(s.shape.begin() + dim);
  for (const Coord &b : laneBases)
    s.laneBases.push_back(drop(b, dim));
  for (const Coord &b : warpBases)
    s.warpBases.push_back(drop(b, dim));
  for (const Coord &r : regOffsets) {
    Coord kept = drop(r, dim);
    if (s.findRegister(kept) < 0)
      s.regOffsets.push_back(kept);
  }
  return s;
}

int64_t RegisterLayout::findRegister(const Coord &offset) const {
  for (auto [i, r] : llvm::enumerate(regOffsets))
    if (r == offset)
      return i;
  return -1;
}

int64_t RegisterLayout::sliceRegister(int64_t reg, unsigned dim,
                                      const RegisterLayout &sliced) const {
  return sliced.findRegister(drop(regOffsets[reg], dim));
}
