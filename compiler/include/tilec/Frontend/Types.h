//===- Types.h - Types and compile-time values of the tile language -*- C++ -*-===//
//
// ScalarKind (element types), Type (scalar / tile / pointer / constexpr / void)
// and ConstValue (the value of a constexpr: int, float, bool, string, None,
// dtype or tuple), plus the shape and promotion helpers Sema uses.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_TYPES_H
#define TILEC_FRONTEND_TYPES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// Element types. Signed ints are I*, unsigned U*, floats F16/BF16/F32/F64
/// and the two fp8 formats of sm_89+ (Triton's fp8e4nv: e4m3 with no
/// infinities, one NaN; fp8e5: e5m2, IEEE-like).
enum class ScalarKind {
  I1, I8, I16, I32, I64, U8, U16, U32, U64, F8E4M3, F8E5M2, F16, BF16, F32, F64
};

/// The language spelling of a scalar kind: "i32", "fp16", "bf16", ...
llvm::StringRef getScalarKindName(ScalarKind kind);
/// Parses a type name: "i32", "fp32", "bool", "float16", "int32", "uint8",
/// with an optional "tl."/"triton.language." prefix. None if unknown.
std::optional<ScalarKind> parseScalarKindName(llvm::StringRef name);
/// For Triton's other fp8 dtype names (`tl.float8e4b15`, `float8e4b8`,
/// `float8e5b16`), which tilec has no type for: the string constexpr that stands for them
/// ("<unsupported dtype float8e5>"), equal only to itself; None otherwise.
std::optional<std::string> getUnsupportedDTypeMarker(llvm::StringRef name);
/// True for such a stand-in.
bool isUnsupportedDTypeMarker(llvm::StringRef value);

/// Bit width (1 for I1, 16 for BF16, ...).
unsigned getBitWidth(ScalarKind kind);
bool isFloat(ScalarKind kind);
bool isFP8(ScalarKind kind); ///< F8E4M3 or F8E5M2.
bool isInteger(ScalarKind kind); ///< Including I1.
bool isUnsigned(ScalarKind kind);

/// A tile shape; empty means scalar.
using Shape = llvm::SmallVector<int64_t, 4>;
/// Formats a shape as "[64, 32]".
std::string formatShape(llvm::ArrayRef<int64_t> shape);
/// NumPy broadcasting (align on the right; 1 stretches). None if incompatible.
std::optional<Shape> broadcastShapes(llvm::ArrayRef<int64_t> a,
                                     llvm::ArrayRef<int64_t> b);

/// The type of an expression after Sema.
///  - Value: a runtime scalar (shape empty) or tile of `elem`, or of pointers
///    to `elem` when `pointer` is set (`*fp32`, `[1024] *fp32`).
///  - Constexpr: a compile-time value; the value is on the ConstantExpr.
///  - Void: the result of e.g. tl.store.
///  - BlockPointer: a `tl.make_block_ptr` value of pointee `elem` and block
///    shape `shape`. It never reaches MLIRGen: Sema lowers block pointers in
///    the frontend. A block-pointer value in the typed tree is a
///    BuiltinCallExpr(MakeBlockPtr) whose arguments are its runtime parts
///    (see SemaBlockPointers.cpp): base (*elem scalar), shape[d] (i64),
///    stride[d] (i64), offset[d] (i32) for each of the rank dims, then the
///    constexpr block_shape and order tuples. A variable holding one is kept
///    as one scalar variable per runtime part, named "<name>.base",
///    "<name>.shape<d>", "<name>.stride<d>", "<name>.offset<d>"
///    (Sema::getVariableParts); carrying it through a loop means
///    carrying each part.
class Type {
public:
  enum class Kind { Void, Value, Constexpr, BlockPointer };

  Type() = default;
  static Type getVoid() { return Type(); }
  static Type getConstexpr() {
    Type t;
    t.kind = Kind::Constexpr;
    return t;
  }
  static Type getScalar(ScalarKind elem, bool pointer = false) {
    return getTile(elem, {}, pointer);
  }
  static Type getTile(ScalarKind elem, llvm::ArrayRef<int64_t> shape,
                      bool pointer = false) {
    Type t;
    t.kind = Kind::Value;
    t.elem = elem;
    t.pointer = pointer;
    t.shape.assign(shape.begin(), shape.end());
    return t;
  }

  /// What a load through a tensor descriptor gives where its block leaves
  /// the tensor; None marks a block pointer.
  enum class Padding { None, Zero, NaN };

  /// A block pointer to `elem` with block shape `blockShape`; with a
  /// padding, a tensor descriptor (tl.make_tensor_descriptor: a block
  /// pointer at offsets 0 whose loads and stores check every dimension).
  static Type getBlockPointer(ScalarKind elem, llvm::ArrayRef<int64_t> blockShape,
                              Padding padding = Padding::None) {
    Type t = getTile(elem, blockShape, /*pointer=*/true);
    t.kind = Kind::BlockPointer;
    t.padding = padding;
    return t;
  }
  bool isTensorDescriptor() const {
    return kind == Kind::BlockPointer && padding != Padding::None;
  }
  Padding getPadding() const { return padding; }

  Kind getKind() const { return kind; }
  bool isVoid() const { return kind == Kind::Void; }
  bool isBlockPointer() const { return kind == Kind::BlockPointer; }
  bool isConstexpr() const { return kind == Kind::Constexpr; }
  bool isValue() const { return kind == Kind::Value; }
  /// A runtime value with a non-empty shape.
  bool isTile() const { return isValue() && !shape.empty(); }
  /// A runtime value with an empty shape.
  bool isScalar() const { return isValue() && shape.empty(); }
  bool isPointer() const { return isValue() && pointer; }

  /// The element (for pointers: the pointee). Meaningful for Value types.
  ScalarKind getElement() const { return elem; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getNumElements() const;

  /// The same kind of value with another shape / element.
  Type withShape(llvm::ArrayRef<int64_t> newShape) const {
    return getTile(elem, newShape, pointer);
  }
  Type withElement(ScalarKind newElem, bool newPointer = false) const {
    return getTile(newElem, shape, newPointer);
  }

  /// "fp32", "*fp32", "[1024] fp32", "[64, 32] *fp16", "constexpr", "void".
  std::string str() const;

  friend bool operator==(const Type &a, const Type &b) {
    bool hasElement = a.kind == Kind::Value || a.kind == Kind::BlockPointer;
    return a.kind == b.kind &&
           (!hasElement || (a.elem == b.elem && a.pointer == b.pointer &&
                            a.shape == b.shape && a.padding == b.padding));
  }
  friend bool operator!=(const Type &a, const Type &b) { return !(a == b); }

private:
  Kind kind = Kind::Void;
  ScalarKind elem = ScalarKind::I32;
  bool pointer = false;
  Shape shape;
  Padding padding = Padding::None;
};

/// A compile-time value: the value of a constexpr parameter, a literal, or a
/// folded constexpr expression. Python semantics for arithmetic.
class ConstValue {
public:
  /// PointerDType: `tl.pointer_type(tl.float16)`, the type of a cast to a
  /// pointer (never the dtype of a tile).
  enum class Kind { None, Bool, Int, Float, String, DType, PointerDType, Tuple };

  ConstValue() = default; ///< None.
  static ConstValue getNone() { return ConstValue(); }
  static ConstValue getBool(bool v);
  static ConstValue getInt(int64_t v);
  static ConstValue getFloat(double v);
  static ConstValue getString(llvm::StringRef v);
  static ConstValue getDType(ScalarKind v);
  /// `tl.pointer_type(v)`.
  static ConstValue getPointerDType(ScalarKind v);
  static ConstValue getTuple(std::vector<ConstValue> elements);

  Kind getKind() const { return kind; }
  bool isNone() const { return kind == Kind::None; }
  bool isBool() const { return kind == Kind::Bool; }
  bool isInt() const { return kind == Kind::Int; }
  bool isFloat() const { return kind == Kind::Float; }
  bool isString() const { return kind == Kind::String; }
  bool isDType() const { return kind == Kind::DType; }
  bool isPointerDType() const { return kind == Kind::PointerDType; }
  bool isTuple() const { return kind == Kind::Tuple; }
  /// Int or Bool (Python's bool is an int).
  bool isIntLike() const { return isInt() || isBool(); }
  /// Int, Bool or Float.
  bool isNumber() const { return isIntLike() || isFloat(); }

  bool getBool() const { return intValue != 0; }
  /// Int (or Bool as 0/1).
  int64_t getInt() const { return intValue; }
  /// Float, or an int/bool converted.
  double getFloat() const {
    return isFloat() ? floatValue : static_cast<double>(intValue);
  }
  llvm::StringRef getString() const { return stringValue; }
  ScalarKind getDType() const { return dtype; }
  llvm::ArrayRef<ConstValue> getTuple() const { return elements; }

  /// Python truthiness.
  bool isTruthy() const;
  /// Python-like repr: 1024, 0.5, True, None, 'abc', fp16, (64, 32).
  std::string str() const;

  friend bool operator==(const ConstValue &a, const ConstValue &b);

private:
  Kind kind = Kind::None;
  int64_t intValue = 0;
  double floatValue = 0;
  std::string stringValue;
  ScalarKind dtype = ScalarKind::I32;
  std::vector<ConstValue> elements;
};

/// Python equality (1 == 1.0 == True).
bool operator==(const ConstValue &a, const ConstValue &b);
inline bool operator!=(const ConstValue &a, const ConstValue &b) { return !(a == b); }

/// The runtime type a constexpr number takes when it meets runtime values
/// without a partner type ("weak" typing): bool -> i1, int -> i32 (i64 if it
/// does not fit), float -> fp32. None for non-numbers.
std::optional<ScalarKind> getNaturalScalarKind(const ConstValue &value);

/// `value` rounded to fp8 kind `kind` as the GPU's cvt.rn.satfinite does:
/// to nearest even, saturating at the largest finite value; NaN stays NaN.
double roundToFP8(double value, ScalarKind kind);

/// True if integer `value` is in the range of integer kind `kind`.
bool fitsIn(int64_t value, ScalarKind kind);

/// Why constexpr number `value` cannot become a value of `kind` without
/// losing what it is (a float with a fraction into an integer kind, an
/// integer out of the kind's range, an int other than 0/1 into i1); empty
/// when it can. Floats into float kinds round as a cast does and are accepted.
std::string checkRepresentable(const ConstValue &value, ScalarKind kind);

/// Number `value` converted to `kind` exactly as the GPU's conversion does:
/// integers wrap to the kind's width, floats round to its precision, floats
/// into integers truncate toward zero (saturating; NaN is 0), anything into
/// i1 is `value != 0`.
ConstValue convertConstant(const ConstValue &value, ScalarKind kind);

} // namespace tilec

#endif // TILEC_FRONTEND_TYPES_H
