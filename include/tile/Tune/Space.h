//===- Space.h - The configurations a tuner tries ---------------*- C++ -*-===//
//
// A parametric kernel's tuning space: the parameters a tuner varies (those
// with candidates, not bound, not types, not read by a shape contract) and
// every configuration of them, each checked against the kernel's
// constraints, specialised and planned, and compared with the device's
// limits, so that what cannot run is dropped before anything is compiled.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TUNE_SPACE_H
#define TILE_TUNE_SPACE_H

#include "tile/Conversion/Resources.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::tile {

/// One parameter a tuner varies, and the values it tries.
struct TuningAxis {
  std::string name;
  SmallVector<Attribute> values;
};

/// What becomes of one configuration.
enum class CandidateStatus {
  Viable,       ///< Specialised and planned within the limits: compile it.
  Constraint,   ///< Breaks one of the kernel's `where` constraints.
  Contract,     ///< Its shape contracts refuse the problem's shapes.
  Refused,      ///< Specialising or planning it failed (a target rule).
  SharedMemory, ///< Needs more shared memory than the limit.
  Threads,      ///< Needs more threads per block than the limit.
};

/// "viable", "constraint", "refused", "shared-memory" or "threads".
StringRef stringifyCandidateStatus(CandidateStatus status);

/// One configuration and its verdict.
struct TuningCandidate {
  DictionaryAttr config;   ///< The tuned parameters' values.
  DictionaryAttr bindings; ///< Every parameter: config over fixed, defaults.
  CandidateStatus status = CandidateStatus::Viable;
  std::string message;       ///< Why it is dropped; empty when viable.
  KernelResources resources; ///< When it was planned.
};

/// The device limits a configuration must fit.
struct TuningLimits {
  int64_t sharedBytes; ///< Dynamic shared memory per block.
  int64_t threads;     ///< Threads per block.
};

/// The tuning space of one kernel or instance.
class TuningSpace {
public:
  /// The space of kernel or instance `name` of `module`: parameters bound
  /// by the instance or by `fixed` stay fixed; every other integer or
  /// boolean parameter with candidates (`space`) is an axis (one that a
  /// shape contract reads, such as a head dimension, is then decided by the
  /// problem's shapes: see enumerate). Each
  /// entry of `overrides` replaces an axis's values or adds an axis for a
  /// parameter without candidates; its values must be valid bindings. On
  /// failure, `error` says why.
  static FailureOr<TuningSpace> get(ModuleOp module, StringRef name,
                                    DictionaryAttr fixed,
                                    ArrayRef<TuningAxis> overrides,
                                    std::string &error);

  ArrayRef<TuningAxis> getAxes() const { return axes; }
  /// The parameters bound for every configuration (instance and caller).
  DictionaryAttr getFixed() const { return fixed; }
  /// Every parameter's value but for the axes: fixed over the defaults.
  DictionaryAttr getFixedOverDefaults() const;
  /// The number of configurations (the product of the axes' sizes).
  int64_t size() const;

  /// Why the problem's `argShapes` (one shape per kernel argument, empty
  /// for a scalar) cannot be this kernel's arguments, naming both
  /// signatures: a different number of arguments, a memref given a shape
  /// of another rank, or a scalar given a shape. Empty when they match.
  std::string checkSignature(ArrayRef<SmallVector<int64_t>> argShapes) const;

  /// Calls `fn` for every configuration, the last axis varying fastest,
  /// with its verdict against `limits` and, when `argShapes` is not empty
  /// (one shape per kernel argument, empty for a scalar), against the
  /// kernel's shape contracts. Does not modify the module.
  void enumerate(const TuningLimits &limits,
                 ArrayRef<SmallVector<int64_t>> argShapes,
                 function_ref<void(const TuningCandidate &)> fn) const;

private:
  mutable KernelOp generic; // op handles' accessors are not const
  std::string name;
  DictionaryAttr fixed;
  SmallVector<TuningAxis> axes;

  TuningCandidate evaluate(DictionaryAttr config, const TuningLimits &limits,
                           ArrayRef<SmallVector<int64_t>> argShapes) const;
  /// Why `bindings` cannot run on `argShapes`, or an empty string.
  std::string checkContracts(DictionaryAttr bindings,
                             ArrayRef<SmallVector<int64_t>> argShapes) const;
};

/// The most configurations TuningSpace::get accepts.
constexpr int64_t kMaxTuningConfigs = 1 << 20;

} // namespace mlir::tile

#endif // TILE_TUNE_SPACE_H
