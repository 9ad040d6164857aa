//===- ArgumentAccess.cpp - What a kernel does to its memref arguments ----===//
//
// A walk over the uses of each memref argument and of every value that may
// alias it. kernel_c10 lets only tile operations write memory, and they
// declare on which operand they read or write (tile.copy reads its source
// and writes its destination, be it a TMA load or store, a masked load or
// store, or a row copy). The walk does not rely on kernel_c10, though: any
// op that declares a write on an alias counts, and any op whose effects are
// unknown counts as reading and writing. A wrong "read" would let a caller
// skip declaring a mutation; a wrong "readwrite" only costs it a copy.
//
//===----------------------------------------------------------------------===//

#include "ArgumentAccess.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tile;

static ArgumentAccess operator|(ArgumentAccess a, ArgumentAccess b) {
  return static_cast<ArgumentAccess>(static_cast<unsigned>(a) |
                                     static_cast<unsigned>(b));
}

/// Whether `v` may hold an address of an argument's memory: a memref (the
/// argument, a view of it) or an LLVM pointer.
static bool mayHoldAddress(Value v) {
  return isa<BaseMemRefType, LLVM::LLVMPointerType>(v.getType());
}

/// What `user` does to the memory behind its operand `v`, by the effects it
/// declares itself (not those of the ops it holds).
static ArgumentAccess getDeclaredAccess(Operation *user, Value v) {
  // An address turned into an integer can no longer be followed.
  if (isa<memref::ExtractAlignedPointerAsIndexOp>(user))
    return ArgumentAccess::ReadWrite;
  auto effects = dyn_cast<MemoryEffectOpInterface>(user);
  // scf.for and the like touch memory only through the ops in their
  // regions, which the walk reaches through the values they forward; any
  // other op that declares nothing may do anything.
  if (!effects)
    return user->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
               ? ArgumentAccess::None
               : ArgumentAccess::ReadWrite;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  ArgumentAccess access = ArgumentAccess::None;
  for (const MemoryEffects::EffectInstance &e : instances) {
    // An effect on another operand or on a symbol is not on `v`; one on no
    // value in particular may be.
    if (e.getSymbolRef() || (e.getValue() && e.getValue() != v))
      continue;
    if (isa<MemoryEffects::Read>(e.getEffect()))
      access = access | ArgumentAccess::Read;
    else if (!isa<MemoryEffects::Allocate>(e.getEffect()))
      access = access | ArgumentAccess::Write; // a write or a free
  }
  return access;
}

/// Calls `f` on the arguments of `block`.
static void forEachArgument(Block &block, function_ref<void(Value)> f) {
  for (BlockArgument a : block.getArguments())
    f(a);
}

/// Calls `f` on every value through which `user` may pass on one of its
/// operands: its results, the arguments of the blocks it holds or branches
/// to, and for a terminator (scf.yield), its parent's results and the
/// arguments of its parent's blocks (a loop's next iteration). Generous on
/// purpose: a value that may alias must not be missed.
static void forEachForwarded(Operation *user, KernelOp kernel,
                             function_ref<void(Value)> f) {
  auto forwardFrom = [&](Operation *op) {
    for (Value r : op->getResults())
      f(r);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        forEachArgument(block, f);
  };
  forwardFrom(user);
  for (Block *successor : user->getSuccessors())
    forEachArgument(*successor, f);
  Operation *parent = user->getParentOp();
  // The kernel's own block arguments are the other arguments, no aliases.
  if (user->hasTrait<OpTrait::IsTerminator>() && parent && parent != kernel)
    forwardFrom(parent);
}

/// The access of `kernel` to the memory of its argument `arg`.
static ArgumentAccess getAccessOf(KernelOp kernel, BlockArgument arg) {
  SmallVector<Value> worklist{arg};
  llvm::DenseSet<Value> seen{arg};
  ArgumentAccess access = ArgumentAccess::None;
  while (!worklist.empty() && access != ArgumentAccess::ReadWrite) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      access = access | getDeclaredAccess(user, v);
      forEachForwarded(user, kernel, [&](Value alias) {
        if (mayHoldAddress(alias) && seen.insert(alias).second)
          worklist.push_back(alias);
      });
    }
  }
  return access;
}

SmallVector<ArgumentAccess> tile::getArgumentAccess(KernelOp kernel) {
  SmallVector<ArgumentAccess> access;
  for (BlockArgument arg : kernel.getBodyBlock().getArguments())
    access.push_back(isa<BaseMemRefType>(arg.getType())
                         ? getAccessOf(kernel, arg)
                         : ArgumentAccess::None);
  return access;
}

StringRef tile::getAccessName(ArgumentAccess access) {
  switch (access) {
  case ArgumentAccess::None:
  case ArgumentAccess::Read:
    return "read";
  case ArgumentAccess::Write:
    return "write";
  case ArgumentAccess::ReadWrite:
    return "readwrite";
  }
  llvm_unreachable("an ArgumentAccess has two bits");
}
