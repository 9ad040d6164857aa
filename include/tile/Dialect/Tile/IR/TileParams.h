//===- TileParams.h - Parameters of parametric kernels ----------*- C++ -*-===//
//
// A parametric tile.kernel declares named parameters (integers, booleans and
// types) with defaults, candidate sets and constraints. These are the queries
// on them shared by the verifiers, the parser and tile-specialize.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEPARAMS_H
#define TILE_DIALECT_TILE_IR_TILEPARAMS_H

#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IntegerSet.h"

#include <optional>
#include <string>

namespace mlir::tile {

/// The kernel's integer parameters (booleans included), in the order of the
/// symbols of its `where` constraints (the sorted order of `params`).
SmallVector<StringRef> getIntegerParams(KernelOp kernel);

/// The value of an integer parameter's binding as constraints and contracts
/// compute with it: a boolean is 0 or 1, another integer its signed value.
int64_t getParamInteger(IntegerAttr value);

/// Whether `name` is usable as a parameter name: an identifier that the
/// `where` and header syntax can read back (letters, digits, `_`, not
/// starting with a digit, and not a keyword of the constraint language).
bool isValidParamName(StringRef name);

/// Why `name` cannot name a kernel or an instance (kernel_c9: it becomes
/// the GPU symbol), or std::nullopt.
std::optional<std::string> checkKernelName(StringRef name);

/// Why `value` cannot be the value of the type parameter `name`, if it is a
/// type that cannot be a tile's element (index, a vector, a memref, ...): a
/// type parameter stands for the elements of memrefs and tiles, integers or
/// floats as the tile types require.
std::optional<std::string> checkTypeParamValue(StringRef name, Attribute value);

/// Checks that `value` may be bound to parameter `name` of `kernel`: the
/// parameter is declared, `value` has its kind (an integer attribute for an
/// integer or boolean parameter, a type attribute for a type parameter) and
/// is among its candidates when `space` lists them. Returns a message saying
/// what is wrong, or std::nullopt.
std::optional<std::string> checkBinding(KernelOp kernel, StringRef name,
                                        Attribute value);

/// The full binding of `kernel` for `overrides` (name -> value) over its
/// defaults, after checkBinding on each override and the `where`
/// constraints on the result. On failure, `error` says what is wrong, naming
/// the parameter or the constraint.
FailureOr<DictionaryAttr>
resolveBindings(KernelOp kernel, DictionaryAttr overrides, std::string &error);

/// Evaluates constraint `set` (one constraint over the integer parameters)
/// with their values: true or false, or std::nullopt when the arithmetic
/// divides by zero or overflows.
std::optional<bool> evaluateConstraint(IntegerSet set,
                                       ArrayRef<int64_t> values);

/// Prints one constraint with parameter names for its symbols:
/// `BM mod 64 == 0`.
void printConstraint(raw_ostream &os, IntegerSet set,
                     ArrayRef<StringRef> names);

/// `BM = 64, CAUSAL = false, T = f16`: bindings as diagnostics show them.
std::string describeBindings(DictionaryAttr bindings);

/// The declaration (default value) of the integer or boolean parameter
/// `name` of the tile.kernel around `op`, or null when there is none.
IntegerAttr getEnclosingIntegerParam(Operation *op, StringRef name);

/// Checks that `flag`, when it is a #tile.param (a schedule choice such as
/// `through %s if FLAG` or `transpose_b = #tile.param<"TB">`), names a
/// boolean parameter of the enclosing kernel; an error at `op` otherwise.
/// Whether the parameter exists at all is the kernel's check (kernel_c6).
LogicalResult verifyFlagParam(Operation *op, Attribute flag);

/// The name of the attribute in which tile-specialize records a kernel's
/// bindings.
inline constexpr llvm::StringLiteral kBindingsAttr = "tile.bindings";

/// The name of the attribute in which tile-estimate-resources records what
/// a specialised kernel needs ({shared_bytes, threads, grid}).
inline constexpr llvm::StringLiteral kResourcesAttr = "tile.resources";

/// While alive, attaches to every error a note at `loc`: "in 'NAME',
/// specialised with BM = 64, ...", so that a rule a specialised kernel
/// breaks says which bindings produced it. Does nothing without bindings.
class BindingsNote : public ScopedDiagnosticHandler {
public:
  BindingsNote(MLIRContext *ctx, Location loc, StringRef name,
               DictionaryAttr bindings);
  /// For a kernel that tile-specialize produced (its tile.bindings).
  explicit BindingsNote(KernelOp kernel);
};

/// Parses `NAME=VALUE`: VALUE is an integer, `true` or `false`, or a type
/// (`f16`, `bf16`, ...). On failure, `error` says why.
FailureOr<std::pair<std::string, Attribute>>
parseBindingText(StringRef text, MLIRContext *ctx, std::string &error);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILEPARAMS_H
