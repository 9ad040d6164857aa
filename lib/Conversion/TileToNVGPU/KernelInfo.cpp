//===- KernelInfo.cpp - The launch record of a lowered kernel -----------===//
//
// What a caller needs to launch a kernel (docs/KernelABI.md): block and
// grid, shared memory, parameters, TMA descriptors, argument access and the
// contracts, written from the kernel and its plan.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "tile/Dialect/Tile/IR/TileParams.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

std::string tile::abiTypeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// `require <relation> <lhs> <rhs>` (KernelABI.md): each side in postfix,
/// items joined by commas: `1:0:B` (dimension 0 of argument 1, named B),
/// integers, `+ - * mod floordiv ceildiv`.
static void writeRequireLine(raw_ostream &os, ContractAttr c,
                             function_ref<StringRef(int64_t)> nameOf) {
  std::function<void(AffineExpr)> postfix = [&](AffineExpr e) {
    if (auto k = dyn_cast<AffineConstantExpr>(e)) {
      os << k.getValue();
      return;
    }
    if (auto sym = dyn_cast<AffineSymbolExpr>(e)) {
      unsigned i = sym.getPosition();
      if (std::optional<std::pair<int64_t, int64_t>> dim = c.getArgDim(i))
        os << dim->first << ':' << dim->second << ':' << nameOf(dim->first);
      else
        os << cast<IntegerAttr>(c.getOperands()[i]).getInt();
      return;
    }
    auto bin = cast<AffineBinaryOpExpr>(e);
    postfix(bin.getLHS());
    os << ',';
    if (bin.getKind() == AffineExprKind::Add) {
      if (AffineExpr negated = getNegatedTerm(bin.getRHS())) {
        postfix(negated);
        os << ",-";
        return;
      }
    }
    postfix(bin.getRHS());
    os << ',' << getIntExprOperator(bin.getKind());
  };
  os << "require " << c.getRelation() << ' ';
  postfix(c.getSides().getResult(0));
  os << ' ';
  postfix(c.getSides().getResult(1));
  os << '\n';
}

Fragment KernelEmitter::fragment(Value v) const {
  auto it = plan.fragments.find(v);
  assert(it != plan.fragments.end() && "planned as a fragment");
  return {it->second, fragmentRegs.lookup(v)};
}

std::string tile::kernelInfo(KernelOp kernel, const KernelPlan &plan) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "kernel " << kernel.getSymName() << "\n";
  os << "block " << plan.blockThreads() << " 1 1\n";
  os << "smem " << plan.sharedBytes << "\n";
  if (kernel.getCluster()) {
    SmallVector<int64_t, 3> cluster = kernel.getClusterShape();
    os << "cluster " << cluster[0] << " " << cluster[1] << " " << cluster[2]
       << "\n";
  }
  for (unsigned i = 0, e = kernel.getNumGridDims(); i < e; ++i)
    os << "grid " << i << " " << kernel.getGridArgs()[i] << " "
       << kernel.getGridDims()[i] << " " << kernel.getGridTile(i) << "\n";
  for (auto [i, t] : llvm::enumerate(kernel.getFunctionType().getInputs())) {
    if (auto m = dyn_cast<MemRefType>(t))
      os << "param memref " << i << " " << abiTypeName(m.getElementType())
         << " " << m.getRank() << "\n";
    else
      os << "param scalar " << i << " " << abiTypeName(t) << "\n";
  }
  for (const TensorMapPlan &t : plan.tensorMaps) {
    os << "param tensormap " << t.arg << " " << abiTypeName(t.elementType)
       << " " << t.rank << " box " << t.boxCols << " " << t.boxRows;
    for (int64_t d = 2; d < t.rank; ++d)
      os << " 1";
    os << " swizzle " << t.swizzleBytes << "\n";
  }
  // Which memref arguments are outputs: a caller allocates what is written
  // and declares what is mutated.
  assert(plan.argumentAccess.size() ==
             kernel.getFunctionType().getNumInputs() &&
         "a complete plan");
  for (auto [i, t] : llvm::enumerate(kernel.getFunctionType().getInputs()))
    if (isa<MemRefType>(t))
      os << "access " << i << " " << getAccessName(plan.argumentAccess[i])
         << "\n";
  if (std::optional<ArrayAttr> contracts = kernel.getContracts()) {
    auto nameOf = [&](int64_t arg) -> StringRef {
      StringRef name = kernel.getArgName(arg);
      // The runtime takes identifiers of at most 63 bytes (KernelABI.md).
      return !isValidParamName(name) || name.size() > 63 ? StringRef("-")
                                                         : name;
    };
    for (Attribute a : *contracts)
      writeRequireLine(os, cast<ContractAttr>(a), nameOf);
  }
  os << "end\n";
  return s;
}
