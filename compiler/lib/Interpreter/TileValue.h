//===- TileValue.h - Values of the interpreter ------------------*- C++ -*-===//
//
// A TileValue is a whole tile (or a scalar: an empty shape) of one element
// type, its elements row-major. Integers are kept sign-extended from their
// width, floats as doubles that are exactly values of their type (every
// operation rounds its result to the type, and a NaN result is the GPU's
// canonical NaN; a NaN loaded or bitcast keeps its bits in the double's
// payload), pointers as addresses with, per element, the kernel argument
// they were derived from.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_INTERPRETER_TILEVALUE_H
#define TILEC_LIB_INTERPRETER_TILEVALUE_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tilec::interp {

/// The kind of an element type.
enum class ElemKind : std::uint8_t { Int, Float, Pointer };

/// An element type as the interpreter computes with it.
struct ElemType {
  ElemKind kind = ElemKind::Int;
  unsigned bits = 32;   ///< Width: 1..64 for ints, 16/32/64 for floats.
  bool bfloat = false;  ///< bf16 rather than f16.
  /// For 8-bit floats: f8E4M3FN (Triton's fp8e4nv: no infinities, one NaN
  /// encoding per sign) or f8E5M2 (IEEE-like).
  bool e4m3 = false;
  mlir::Type pointee;   ///< For pointers.

  /// The interpreter's view of `type` (a scalar or a tensor's element); a
  /// kind it cannot represent reads as a 64-bit integer, which
  /// validateOp() rejects before anything runs.
  static ElemType of(mlir::Type type);
  /// Bytes one element takes in memory (1 for i1).
  unsigned storeBytes() const;
  bool isInt() const { return kind == ElemKind::Int; }
  bool isFloat() const { return kind == ElemKind::Float; }
  bool isPointer() const { return kind == ElemKind::Pointer; }
};

/// One element: an integer (or address) or a float.
union Scalar {
  std::int64_t i;
  double f;
};

/// A float element.
inline Scalar floatScalar(double f) {
  Scalar s;
  s.f = f;
  return s;
}

/// A tile or a scalar.
struct TileValue {
  llvm::SmallVector<std::int64_t, 4> shape; ///< Empty for a scalar.
  ElemType type;
  std::vector<Scalar> data;
  /// Pointers only: per element, 1 + the index of the kernel argument the
  /// address was derived from (0: unknown). Empty for other types.
  std::vector<std::uint16_t> origin;

  std::size_t size() const { return data.size(); }
  bool isScalar() const { return shape.empty(); }
};

using TilePtr = std::shared_ptr<const TileValue>;

/// Product of `shape`'s dimensions.
std::int64_t numElements(llvm::ArrayRef<std::int64_t> shape);

/// A value of `type` shaped `shape`, elements zero.
std::shared_ptr<TileValue> makeTile(llvm::ArrayRef<std::int64_t> shape,
                                    ElemType type);

/// "i, j": the row-major index of element `lane` of `tile`.
std::string indexText(const TileValue &tile, std::size_t lane);

/// Sign-extends `value` from `bits`.
std::int64_t signExtend(std::uint64_t value, unsigned bits);
/// Zero-extends `value` from `bits`.
std::uint64_t zeroExtend(std::int64_t value, unsigned bits);
/// Rounds `value` to the float type `type` (to nearest even; f16 and bf16
/// overflow to infinity as the hardware's conversions do). Every arithmetic
/// result goes through it, so a NaN result is the GPU's canonical NaN.
double roundToFloat(double value, const ElemType &type);
/// The GPU's canonical NaN of `type` (positive, every mantissa bit set).
double canonicalNaN(const ElemType &type);
/// Mantissa bits (without the implicit one) of the float type `type`.
unsigned mantissaWidth(const ElemType &type);

/// Decodes one element of `type` from its bytes in memory.
Scalar loadElement(const void *bytes, const ElemType &type);
/// Encodes `value` of `type` into its bytes in memory.
void storeElement(void *bytes, Scalar value, const ElemType &type);

/// The bit pattern of a float element (for stores, bitcast and printing);
/// a NaN keeps its payload and sign.
std::uint64_t floatBits(double value, const ElemType &type);
/// The float whose bit pattern of `type` is `bits`.
double floatFromBits(std::uint64_t bits, const ElemType &type);

} // namespace tilec::interp

#endif // TILEC_LIB_INTERPRETER_TILEVALUE_H
