//===- Types.cpp - Types and compile-time values of the tile language -----===//
//
// Scalar kind names, Type/ConstValue printing, NumPy broadcasting.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Types.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace tilec;

llvm::StringRef tilec::getScalarKindName(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I1: return "i1";
  case ScalarKind::I8: return "i8";
  case ScalarKind::I16: return "i16";
  case ScalarKind::I32: return "i32";
  case ScalarKind::I64: return "i64";
  case ScalarKind::U8: return "u8";
  case ScalarKind::U16: return "u16";
  case ScalarKind::U32: return "u32";
  case ScalarKind::U64: return "u64";
  case ScalarKind::F8E4M3: return "fp8e4nv";
  case ScalarKind::F8E5M2: return "fp8e5";
  case ScalarKind::F16: return "fp16";
  case ScalarKind::BF16: return "bf16";
  case ScalarKind::F32: return "fp32";
  case ScalarKind::F64: return "fp64";
  }
  return "?";
}

std::optional<std::string> tilec::getUnsupportedDTypeMarker(llvm::StringRef name) {
  if (!name.consume_front("tl.") && !name.consume_front("triton.language."))
    return std::nullopt;
  for (llvm::StringRef fp8 : {"float8e4b15", "float8e4b8", "float8e5b16", "float8e4b15x4"})
    if (name == fp8)
      return "<unsupported dtype " + name.str() + ">";
  return std::nullopt;
}

bool tilec::isUnsupportedDTypeMarker(llvm::StringRef value) {
  return value.starts_with("<unsupported dtype ") && value.ends_with(">");
}

std::optional<ScalarKind> tilec::parseScalarKindName(llvm::StringRef name) {
  for (llvm::StringRef prefix : {"triton.language.", "tl."})
    if (name.consume_front(prefix))
      break;
  using SK = ScalarKind;
  return llvm::StringSwitch<std::optional<SK>>(name)
      .Cases({"i1", "int1", "bool"}, SK::I1)
      .Cases({"i8", "int8"}, SK::I8)
      .Cases({"i16", "int16"}, SK::I16)
      .Cases({"i32", "int32"}, SK::I32)
      .Cases({"i64", "int64"}, SK::I64)
      .Cases({"u8", "uint8"}, SK::U8)
      .Cases({"u16", "uint16"}, SK::U16)
      .Cases({"u32", "uint32"}, SK::U32)
      .Cases({"u64", "uint64"}, SK::U64)
      .Cases({"fp8e4nv", "float8e4nv", "float8_e4m3fn"}, SK::F8E4M3)
      .Cases({"fp8e5", "float8e5", "float8_e5m2"}, SK::F8E5M2)
      .Cases({"fp16", "float16"}, SK::F16)
      .Cases({"bf16", "bfloat16"}, SK::BF16)
      .Cases({"fp32", "float32"}, SK::F32)
      .Cases({"fp64", "float64"}, SK::F64)
      .Default(std::nullopt);
}

unsigned tilec::getBitWidth(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I1: return 1;
  case ScalarKind::I8: case ScalarKind::U8: case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2: return 8;
  case ScalarKind::I16: case ScalarKind::U16: case ScalarKind::F16:
  case ScalarKind::BF16: return 16;
  case ScalarKind::I32: case ScalarKind::U32: case ScalarKind::F32: return 32;
  case ScalarKind::I64: case ScalarKind::U64: case ScalarKind::F64: return 64;
  }
  return 0;
}

bool tilec::isFP8(ScalarKind kind) {
  return kind == ScalarKind::F8E4M3 || kind == ScalarKind::F8E5M2;
}

bool tilec::isFloat(ScalarKind kind) {
  return isFP8(kind) || kind == ScalarKind::F16 || kind == ScalarKind::BF16 ||
         kind == ScalarKind::F32 || kind == ScalarKind::F64;
}
bool tilec::isInteger(ScalarKind kind) { return !isFloat(kind); }
bool tilec::isUnsigned(ScalarKind kind) {
  return kind == ScalarKind::U8 || kind == ScalarKind::U16 ||
         kind == ScalarKind::U32 || kind == ScalarKind::U64;
}

std::string tilec::formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string result = "[";
  llvm::raw_string_ostream os(result);
  llvm::interleaveComma(shape, os);
  os << "]";
  return result;
}

std::optional<Shape> tilec::broadcastShapes(llvm::ArrayRef<int64_t> a,
                                            llvm::ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  Shape result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    result[rank - 1 - i] = da == 1 ? db : da;
  }
  return result;
}

int64_t Type::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string Type::str() const {
  switch (kind) {
  case Kind::Void: return "void";
  case Kind::Constexpr: return "constexpr";
  case Kind::BlockPointer:
    return (padding == Padding::None ? "block_ptr<" : "tensor_descriptor<") +
           formatShape(shape) + " " + getScalarKindName(elem).str() + ">";
  case Kind::Value: break;
  }
  std::string result;
  if (!shape.empty())
    result = formatShape(shape) + " ";
  if (pointer)
    result += "*";
  result += getScalarKindName(elem).str();
  return result;
}

ConstValue ConstValue::getBool(bool v) {
  ConstValue c;
  c.kind = Kind::Bool;
  c.intValue = v;
  return c;
}
ConstValue ConstValue::getInt(int64_t v) {
  ConstValue c;
  c.kind = Kind::Int;
  c.intValue = v;
  return c;
}
ConstValue ConstValue::getFloat(double v) {
  ConstValue c;
  c.kind = Kind::Float;
  c.floatValue = v;
  return c;
}
ConstValue ConstValue::getString(llvm::StringRef v) {
  ConstValue c;
  c.kind = Kind::String;
  c.stringValue = v.str();
  return c;
}
ConstValue ConstValue::getDType(ScalarKind v) {
  ConstValue c;
  c.kind = Kind::DType;
  c.dtype = v;
  return c;
}
ConstValue ConstValue::getPointerDType(ScalarKind v) {
  ConstValue c;
  c.kind = Kind::PointerDType;
  c.dtype = v;
  return c;
}
ConstValue ConstValue::getTuple(std::vector<ConstValue> elements) {
  ConstValue c;
  c.kind = Kind::Tuple;
  c.elements = std::move(elements);
  return c;
}

bool ConstValue::isTruthy() const {
  switch (kind) {
  case Kind::None: return false;
  case Kind::Bool: case Kind::Int: return intValue != 0;
  case Kind::Float: return floatValue != 0;
  case Kind::String: return !stringValue.empty();
  case Kind::DType: case Kind::PointerDType: return true;
  case Kind::Tuple: return !elements.empty();
  }
  return false;
}

std::string ConstValue::str() const {
  switch (kind) {
  case Kind::None: return "None";
  case Kind::Bool: return intValue ? "True" : "False";
  case Kind::Int: return std::to_string(intValue);
  case Kind::Float: {
    if (std::isnan(floatValue))
      return "nan";
    if (std::isinf(floatValue))
      return floatValue > 0 ? "inf" : "-inf";
    // Shortest representation that round-trips, Python style.
    for (int precision = 1; precision <= 17; ++precision) {
      std::string s;
      llvm::raw_string_ostream(s) << llvm::format("%.*g", precision, floatValue);
      if (std::strtod(s.c_str(), nullptr) == floatValue) {
        if (s.find_first_of(".en") == std::string::npos)
          s += ".0";
        return s;
      }
    }
    return std::to_string(floatValue);
  }
  case Kind::String: return "'" + stringValue + "'";
  case Kind::DType: return getScalarKindName(dtype).str();
  case Kind::PointerDType: return "pointer<" + getScalarKindName(dtype).str() + ">";
  case Kind::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < elements.size(); ++i)
      s += (i ? ", " : "") + elements[i].str();
    return s + (elements.size() == 1 ? ",)" : ")");
  }
  }
  return "?";
}

bool tilec::operator==(const ConstValue &a, const ConstValue &b) {
  if (a.isNumber() && b.isNumber()) {
    if (a.isFloat() || b.isFloat())
      return a.getFloat() == b.getFloat();
    return a.getInt() == b.getInt();
  }
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case ConstValue::Kind::String: return a.stringValue == b.stringValue;
  case ConstValue::Kind::DType:
  case ConstValue::Kind::PointerDType: return a.dtype == b.dtype;
  case ConstValue::Kind::Tuple: return a.elements == b.elements;
  default: return true; // None
  }
}

std::optional<ScalarKind> tilec::getNaturalScalarKind(const ConstValue &value) {
  if (value.isBool())
    return ScalarKind::I1;
  if (value.isInt()) {
    int64_t v = value.getInt();
    bool fits = v >= std::numeric_limits<int32_t>::min() &&
                v <= std::numeric_limits<int32_t>::max();
    return fits ? ScalarKind::I32 : ScalarKind::I64;
  }
  if (value.isFloat())
    return ScalarKind::F32;
  return std::nullopt;
}

double tilec::roundToFP8(double value, ScalarKind kind) {
  if (std::isnan(value))
    return value;
  const llvm::fltSemantics &semantics = kind == ScalarKind::F8E4M3
                                            ? llvm::APFloat::Float8E4M3FN()
                                            : llvm::APFloat::Float8E5M2();
  llvm::APFloat rounded(value);
  bool lost;
  rounded.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
  // Saturated as cvt.rn.satfinite does: what rounds past the largest finite
  // value (to e5m2's infinity, or e4m3's NaN) is that value.
  if (rounded.isInfinity() || rounded.isNaN())
    rounded = llvm::APFloat::getLargest(semantics, std::signbit(value));
  rounded.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return rounded.convertToDouble();
}

bool tilec::fitsIn(int64_t value, ScalarKind kind) {
  unsigned width = getBitWidth(kind);
  if (width >= 64)
    return !isUnsigned(kind) || value >= 0;
  if (kind == ScalarKind::I1)
    return value == 0 || value == 1;
  if (isUnsigned(kind))
    return value >= 0 && value < (int64_t(1) << width);
  return value >= -(int64_t(1) << (width - 1)) && value < (int64_t(1) << (width - 1));
}

std::string tilec::checkRepresentable(const ConstValue &value, ScalarKind kind) {
  if (isFloat(kind) || value.isBool())
    return "";
  if (value.isFloat()) {
    double v = value.getFloat();
    // Integral floats within i64's range convert exactly (2^63 is not in it).
    bool integral = std::trunc(v) == v && v >= -0x1p63 && v < 0x1p63;
    if (!integral)
      return "the float " + value.str() + " cannot become an integer of type " +
             getScalarKindName(kind).str() + " without losing its value";
    if (!fitsIn(static_cast<int64_t>(v), kind))
      return value.str() + " does not fit in " + getScalarKindName(kind).str();
    return "";
  }
  if (!fitsIn(value.getInt(), kind))
    return value.str() + " does not fit in " + getScalarKindName(kind).str();
  return "";
}

ConstValue tilec::convertConstant(const ConstValue &value, ScalarKind kind) {
  if (kind == ScalarKind::I1)
    return ConstValue::getBool(value.isTruthy());
  if (isFloat(kind)) {
    double v = value.getFloat();
    switch (kind) {
    case ScalarKind::F16:
    case ScalarKind::BF16: {
      llvm::APFloat rounded(v);
      bool lost;
      rounded.convert(kind == ScalarKind::F16 ? llvm::APFloat::IEEEhalf()
                                              : llvm::APFloat::BFloat(),
                      llvm::APFloat::rmNearestTiesToEven, &lost);
      rounded.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                      &lost);
      return ConstValue::getFloat(rounded.convertToDouble());
    }
    case ScalarKind::F8E4M3:
    case ScalarKind::F8E5M2:
      return ConstValue::getFloat(roundToFP8(v, kind));
    case ScalarKind::F32:
      return ConstValue::getFloat(static_cast<float>(v));
    default:
      return ConstValue::getFloat(v);
    }
  }
  uint64_t bits;
  if (value.isFloat()) {
    double v = std::trunc(value.getFloat());
    bool isSigned = !isUnsigned(kind);
    double lo = isSigned ? -std::ldexp(1.0, getBitWidth(kind) - 1) : 0.0;
    double hi = std::ldexp(1.0, getBitWidth(kind) - (isSigned ? 1 : 0));
    if (std::isnan(v))
      bits = 0;
    else if (v < lo)
      bits = static_cast<uint64_t>(static_cast<int64_t>(lo));
    else if (v >= hi) // The largest value of the kind.
      bits = isSigned ? (uint64_t(1) << (getBitWidth(kind) - 1)) - 1
                      : ~uint64_t(0) >> (64 - getBitWidth(kind));
    else
      bits = v < 0 ? static_cast<uint64_t>(static_cast<int64_t>(v))
                   : static_cast<uint64_t>(v);
  } else {
    bits = static_cast<uint64_t>(value.getInt());
  }
  unsigned width = getBitWidth(kind);
  if (width < 64) {
    bits &= (uint64_t(1) << width) - 1;
    if (!isUnsigned(kind) && (bits >> (width - 1)))
      bits |= ~uint64_t(0) << width; // Sign-extend.
  }
  return ConstValue::getInt(static_cast<int64_t>(bits));
}
