//===- ExpandShorthands.cpp - Expand the tile language's shorthands ------===//
//
// tile-expand-shorthands: each shorthand of the source language becomes the
// ops it stands for, so that no later pass knows of it.
// - tile.let: tile.param, tile.block_id, memref.dim and arith ops, in the
//   order written (the block ids first, x, y, z); divisions are unsigned
//   (indices are not negative).
// - tile.copy through a shared tile: the two copies, under scf.if on the
//   flag when the flag is a parameter.
// - tile.index of an integer type: tile.index and arith.index_cast.
// - tile.gemm with a transpose a parameter chooses: the two gemms under
//   scf.if on the parameter.
// - an allocation sized by parameter names: tile.param ops as its sizes.
// - tile.pipelined without lower bound and step: the constants 0 and 1.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/IntExpr.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEEXPANDSHORTHANDS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Emits the ops of one tile.let before it.
struct LetExpander {
  LetOp let;
  OpBuilder b;
  DenseMap<unsigned, Value> leafValues;

  explicit LetExpander(LetOp let) : let(let), b(let) {}

  Location loc() { return let.getLoc(); }

  Value constant(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc(), v);
  }

  Value param(StringRef name, Type type) {
    return ParamOp::create(b, loc(), type, name);
  }

  /// The value of leaf `i`, created at its first use.
  Value leaf(unsigned i) {
    if (Value v = leafValues.lookup(i))
      return v;
    Attribute a = let.getLeaves()[i];
    Value v;
    if (auto ref = dyn_cast<DenseI64ArrayAttr>(a)) {
      v = let.getOperands()[ref[0]];
      if (ref.size() == 2)
        v = memref::DimOp::create(b, loc(), v, constant(ref[1]));
    } else if (auto dim = dyn_cast<StringAttr>(a)) {
      // tile.block_id sits in the kernel's body.
      OpBuilder::InsertionGuard guard(b);
      if (!isa<KernelOp>(let->getParentOp()))
        b.setInsertionPointToStart(
            &let->getParentOfType<KernelOp>().getBodyBlock());
      v = BlockIdOp::create(b, loc(), b.getIndexType(),
                            *symbolizeDim(dim.getValue()));
    } else if (auto ref = dyn_cast<ParamRefAttr>(a)) {
      v = param(ref.getName(), b.getIndexType());
    } else {
      v = constant(cast<IntegerAttr>(a).getInt());
    }
    return leafValues[i] = v;
  }

  Value expr(AffineExpr e) {
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return constant(c.getValue());
    if (auto s = dyn_cast<AffineSymbolExpr>(e))
      return leaf(s.getPosition());
    auto bin = cast<AffineBinaryOpExpr>(e);
    if (bin.getKind() == AffineExprKind::Add)
      if (AffineExpr negated = getNegatedTerm(bin.getRHS())) {
        Value lhs = expr(bin.getLHS());
        return arith::SubIOp::create(b, loc(), lhs, expr(negated));
      }
    Value lhs = expr(bin.getLHS());
    Value rhs = expr(bin.getRHS());
    switch (bin.getKind()) {
    case AffineExprKind::Add:
      return arith::AddIOp::create(b, loc(), lhs, rhs);
    case AffineExprKind::Mul:
      return arith::MulIOp::create(b, loc(), lhs, rhs);
    case AffineExprKind::FloorDiv:
      return arith::DivUIOp::create(b, loc(), lhs, rhs);
    case AffineExprKind::CeilDiv:
      return arith::CeilDivUIOp::create(b, loc(), lhs, rhs);
    case AffineExprKind::Mod:
      return arith::RemUIOp::create(b, loc(), lhs, rhs);
    default:
      llvm_unreachable("not a binary affine expression");
    }
  }

  /// One expression, or the minimum of several.
  Value alternative(Attribute a) {
    AffineMap map = cast<AffineMapAttr>(a).getValue();
    Value v = expr(map.getResult(0));
    for (AffineExpr e : map.getResults().drop_front())
      v = arith::MinUIOp::create(b, loc(), v, expr(e));
    return v;
  }

  Value value(ArrayAttr parts) {
    if (auto f = dyn_cast<FloatAttr>(parts[0]))
      return arith::ConstantOp::create(b, loc(), f);
    if (parts.size() == 1)
      return alternative(parts[0]);
    Value flag;
    if (auto ref = dyn_cast<ParamRefAttr>(parts[0]))
      flag = param(ref.getName(), b.getI1Type());
    else
      flag = arith::ConstantIntOp::create(
          b, loc(), b.getI1Type(), cast<IntegerAttr>(parts[0]).getInt() != 0);
    Value then = alternative(parts[1]);
    Value otherwise = alternative(parts[2]);
    return arith::SelectOp::create(b, loc(), flag, then, otherwise);
  }

  void run() {
    // The block ids first, x before y before z, as a kernel reads them.
    SmallVector<std::pair<Dim, unsigned>> blockIds;
    for (auto [i, a] : llvm::enumerate(let.getLeaves()))
      if (auto dim = dyn_cast<StringAttr>(a))
        blockIds.push_back({*symbolizeDim(dim.getValue()), i});
    llvm::sort(blockIds);
    for (auto [dim, i] : blockIds)
      leaf(i);
    SmallVector<Value> results;
    for (auto [v, type] : llvm::zip(let.getValues(), let.getResultTypes())) {
      Value r = value(cast<ArrayAttr>(v));
      if (r.getType() != type)
        r = arith::IndexCastOp::create(b, loc(), type, r);
      results.push_back(r);
    }
    let->replaceAllUsesWith(results);
    let->erase();
  }
};
} // namespace

/// The copy into the staging tile and the one out of it, or the direct
/// copy, chosen by the flag (under scf.if when it is a parameter).
static void expandStaging(CopyOp copy) {
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  auto staged = [&](OpBuilder &b) {
    CopyOp::create(b, loc, copy.getSource(), ValueRange(), copy.getStaging(),
                   ValueRange(), ValueRange(), Value(), Attribute());
    CopyOp::create(b, loc, copy.getStaging(), ValueRange(), copy.getDest(),
                   copy.getDestOffsets(), ValueRange(), Value(), Attribute());
  };
  auto direct = [&](OpBuilder &b) {
    CopyOp::create(b, loc, copy.getSource(), ValueRange(), copy.getDest(),
                   copy.getDestOffsets(), ValueRange(), Value(), Attribute());
  };
  Attribute flag = copy.getThroughIfAttr();
  if (auto ref = dyn_cast_if_present<ParamRefAttr>(flag)) {
    Value cond = ParamOp::create(b, loc, b.getI1Type(), ref.getName());
    auto branch = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/true);
    OpBuilder then = branch.getThenBodyBuilder();
    staged(then);
    OpBuilder otherwise = branch.getElseBodyBuilder();
    direct(otherwise);
  } else if (!flag || cast<IntegerAttr>(flag).getInt() != 0) {
    staged(b);
  } else {
    direct(b);
  }
  copy.erase();
}

/// The gemm with each transpose that a parameter chooses made explicit:
/// under scf.if on the parameter, the gemm with the flag set and the gemm
/// without it (nested when both transposes are parameters).
static void expandGemmFlags(GemmOp gemm) {
  StringAttr name;
  ParamRefAttr flag;
  for (StringAttr n :
       {gemm.getTransposeAAttrName(), gemm.getTransposeBAttrName()})
    if (auto ref = dyn_cast_if_present<ParamRefAttr>(gemm->getAttr(n));
        ref && !flag)
      name = n, flag = ref;
  if (!flag)
    return;
  OpBuilder b(gemm);
  Location loc = gemm.getLoc();
  Value cond = ParamOp::create(b, loc, b.getI1Type(), flag.getName());
  auto branch = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/true);
  OpBuilder then = branch.getThenBodyBuilder();
  auto set = cast<GemmOp>(then.clone(*gemm));
  set->setAttr(name, then.getUnitAttr());
  OpBuilder otherwise = branch.getElseBodyBuilder();
  auto unset = cast<GemmOp>(otherwise.clone(*gemm));
  unset->removeAttr(name);
  gemm.erase();
  expandGemmFlags(set);
  expandGemmFlags(unset);
}

/// tile.index, then the cast to the integer type asked for.
static void expandIndexCast(IndexOp index) {
  OpBuilder b(index);
  b.setInsertionPointAfter(index);
  Type type = index.getType();
  index.getResult().setType(b.getIndexType());
  auto cast = arith::IndexCastOp::create(b, index.getLoc(), type, index);
  index.getResult().replaceAllUsesExcept(cast, cast);
}

/// An allocation sized by parameter names: a tile.param for each, as its
/// size operands.
template <typename AllocOp> static void expandSizeParams(AllocOp alloc) {
  OpBuilder b(alloc);
  SmallVector<Value> values;
  ArrayAttr params = *alloc.getSizeParams();
  for (Attribute a : params)
    values.push_back(ParamOp::create(b, alloc.getLoc(), b.getIndexType(),
                                     cast<ParamRefAttr>(a).getName()));
  alloc.getSizesMutable().assign(values);
  alloc.removeSizeParamsAttr();
}

/// A loop from 0 by 1 written without its lower bound and step: the two
/// constants, before it.
static void expandLoopBounds(PipelinedOp loop) {
  OpBuilder b(loop);
  loop.getLowerMutable().assign(
      arith::ConstantIndexOp::create(b, loop.getLoc(), 0));
  loop.getStepMutable().assign(
      arith::ConstantIndexOp::create(b, loop.getLoc(), 1));
}

void tile::expandShorthands(Operation *root) {
  SmallVector<LetOp> lets;
  SmallVector<CopyOp> staged;
  SmallVector<IndexOp> casts;
  SmallVector<GemmOp> gemms;
  SmallVector<PipelinedOp> loops;
  SmallVector<AllocSharedOp> sharedSized;
  SmallVector<AllocFragmentOp> fragmentSized;
  root->walk([&](Operation *op) {
    if (auto alloc = dyn_cast<AllocSharedOp>(op);
        alloc && alloc.getSizeParams())
      sharedSized.push_back(alloc);
    if (auto alloc = dyn_cast<AllocFragmentOp>(op);
        alloc && alloc.getSizeParams())
      fragmentSized.push_back(alloc);
    if (auto loop = dyn_cast<PipelinedOp>(op); loop && !loop.getLower())
      loops.push_back(loop);
    if (auto gemm = dyn_cast<GemmOp>(op); gemm && gemm.hasParametricTranspose())
      gemms.push_back(gemm);
    if (auto let = dyn_cast<LetOp>(op))
      lets.push_back(let);
    else if (auto copy = dyn_cast<CopyOp>(op); copy && copy.getStaging())
      staged.push_back(copy);
    else if (auto index = dyn_cast<IndexOp>(op);
             index && !index.getType().isIndex())
      casts.push_back(index);
  });
  for (IndexOp index : casts)
    expandIndexCast(index);
  for (LetOp let : lets)
    LetExpander(let).run();
  for (CopyOp copy : staged)
    expandStaging(copy);
  for (GemmOp gemm : gemms)
    expandGemmFlags(gemm);
  for (PipelinedOp loop : loops)
    expandLoopBounds(loop);
  for (AllocSharedOp alloc : sharedSized)
    expandSizeParams(alloc);
  for (AllocFragmentOp alloc : fragmentSized)
    expandSizeParams(alloc);
}

namespace {
struct ExpandShorthandsPass
    : tile::impl::TileExpandShorthandsBase<ExpandShorthandsPass> {
  void runOnOperation() override { expandShorthands(getOperation()); }
};
} // namespace
