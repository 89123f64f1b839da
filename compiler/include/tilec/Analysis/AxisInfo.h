//===- AxisInfo.h - Contiguity, divisibility and constancy ------*- C++ -*-===//
//
// A forward dataflow analysis of integer and pointer values (scalars and
// tiles): along each dimension, how many consecutive elements form runs of
// consecutive values (contiguity), the largest power of two dividing the first
// value of each run (divisibility; bytes for pointers), and how many
// consecutive elements are equal (constancy). Coalescing and vectorization of
// memory accesses are decided from it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_ANALYSIS_AXISINFO_H
#define TILEC_ANALYSIS_AXISINFO_H

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tilec {

/// What is known of one value, per dimension (one entry for a scalar).
class AxisInfo {
public:
  /// The largest divisibility tracked (a power of two).
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

  AxisInfo() = default;
  AxisInfo(SmallVector<int64_t> contiguity, SmallVector<int64_t> divisibility,
           SmallVector<int64_t> constancy)
      : contiguity(std::move(contiguity)),
        divisibility(std::move(divisibility)), constancy(std::move(constancy)) {}

  /// Nothing known of a value of `rank` dimensions (a scalar has rank 0).
  static AxisInfo getPessimistic(unsigned rank);
  /// A value equal everywhere with the given divisibility.
  static AxisInfo getConstant(ArrayRef<int64_t> shape, int64_t divisibility);
  /// The largest power of two that divides `value` (kMaxDivisibility for 0).
  static int64_t divisibilityOf(int64_t value);

  /// True before any information reached the value.
  bool isUninitialized() const { return contiguity.empty(); }
  /// Number of tracked dimensions (1 for scalars).
  unsigned getRank() const { return contiguity.size(); }

  int64_t getContiguity(unsigned dim) const { return contiguity[dim]; }
  int64_t getDivisibility(unsigned dim) const { return divisibility[dim]; }
  int64_t getConstancy(unsigned dim) const { return constancy[dim]; }
  /// The divisibility every element along `dim` has, not only the start of
  /// each contiguous run (1 along a contiguous dimension).
  int64_t getElementDivisibility(unsigned dim) const {
    return contiguity[dim] > 1 ? 1 : divisibility[dim];
  }

  /// The most that is true of both `lhs` and `rhs` (per-dimension gcd).
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);
  bool operator==(const AxisInfo &other) const {
    return contiguity == other.contiguity &&
           divisibility == other.divisibility && constancy == other.constancy;
  }
  void print(raw_ostream &os) const;

private:
  SmallVector<int64_t> contiguity, divisibility, constancy;
};

/// The lattice element of the analysis.
using AxisInfoLattice = dataflow::Lattice<AxisInfo>;

/// Runs the axis-info analysis over a module once and answers queries about
/// its values. Pointer arguments of kernels carry `tile.divisibility` (bytes),
/// integer arguments may too; without it nothing is assumed.
class ModuleAxisInfo {
public:
  explicit ModuleAxisInfo(ModuleOp module);

  /// The information for `value`, or pessimistic information when the
  /// analysis never reached it.
  AxisInfo lookup(Value value) const;

  /// How many consecutive elements along the fastest dimension `dim` of the
  /// pointer tile `ptr` can be accessed as one aligned vector of at most
  /// 128 bits, given `elementsPerThread` consecutive elements per thread.
  unsigned getVectorWidth(Value ptr, unsigned dim,
                          unsigned elementsPerThread) const;

private:
  DataFlowSolver solver;
};

/// The name of the argument attribute giving an argument's divisibility.
constexpr StringLiteral kDivisibilityAttr = "tile.divisibility";

} // namespace mlir::tilec

#endif // TILEC_ANALYSIS_AXISINFO_H
