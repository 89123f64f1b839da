//===- TileValue.cpp - Values of the interpreter --------------------------===//
//
// Element types, and the conversions between elements and their bytes:
// f16, bf16 and e5m2 are encoded here with round-to-nearest-even from
// doubles, e4m3 (whose top exponent holds numbers) through APFloat.
//
//===----------------------------------------------------------------------===//

#include "TileValue.h"

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstring>

using namespace tilec::interp;

ElemType ElemType::of(mlir::Type type) {
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type))
    type = tensor.getElementType();
  ElemType result;
  if (auto ptr = llvm::dyn_cast<mlir::tile::PointerType>(type)) {
    result.kind = ElemKind::Pointer;
    result.bits = 64;
    result.pointee = ptr.getPointeeType();
  } else if (auto integer = llvm::dyn_cast<mlir::IntegerType>(type)) {
    result.bits = integer.getWidth();
  } else if (type.isIndex()) {
    result.bits = 64;
  } else if (auto fp = llvm::dyn_cast<mlir::FloatType>(type)) {
    result.kind = ElemKind::Float;
    result.bits = fp.getWidth();
    result.bfloat = type.isBF16();
    result.e4m3 = llvm::isa<mlir::Float8E4M3FNType>(type);
  } else {
    result.bits = 64;
  }
  return result;
}

unsigned ElemType::storeBytes() const { return bits <= 8 ? 1 : bits / 8; }

std::int64_t tilec::interp::numElements(llvm::ArrayRef<std::int64_t> shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape)
    n *= d;
  return n;
}

std::shared_ptr<TileValue>
tilec::interp::makeTile(llvm::ArrayRef<std::int64_t> shape, ElemType type) {
  auto tile = std::make_shared<TileValue>();
  tile->shape.assign(shape.begin(), shape.end());
  tile->type = type;
  std::size_t n = static_cast<std::size_t>(numElements(shape));
  tile->data.assign(n, Scalar{0});
  if (type.isPointer())
    tile->origin.assign(n, 0);
  return tile;
}

std::string tilec::interp::indexText(const TileValue &tile, std::size_t lane) {
  llvm::SmallVector<std::int64_t, 4> index(tile.shape.size());
  for (int d = static_cast<int>(tile.shape.size()) - 1; d >= 0; --d) {
    index[d] = static_cast<std::int64_t>(lane) % tile.shape[d];
    lane /= tile.shape[d];
  }
  std::string text;
  for (auto [d, i] : llvm::enumerate(index))
    text += (d ? ", " : "") + std::to_string(i);
  return text;
}

std::int64_t tilec::interp::signExtend(std::uint64_t value, unsigned bits) {
  if (bits >= 64)
    return static_cast<std::int64_t>(value);
  std::uint64_t sign = std::uint64_t(1) << (bits - 1);
  value &= (std::uint64_t(1) << bits) - 1;
  return static_cast<std::int64_t>((value ^ sign) - sign);
}

std::uint64_t tilec::interp::zeroExtend(std::int64_t value, unsigned bits) {
  if (bits >= 64)
    return static_cast<std::uint64_t>(value);
  return static_cast<std::uint64_t>(value) & ((std::uint64_t(1) << bits) - 1);
}

namespace {

/// The bits of `value` in a binary format with `expBits` exponent and
/// `mantBits` mantissa bits, rounded to nearest even; overflow gives
/// infinity, NaN a quiet NaN.
std::uint64_t encodeIEEE(double value, unsigned expBits, unsigned mantBits) {
  std::uint64_t sign = std::signbit(value) ? 1 : 0;
  std::uint64_t signBit = sign << (expBits + mantBits);
  std::uint64_t expMax = (std::uint64_t(1) << expBits) - 1;
  if (std::isnan(value))
    return signBit | (expMax << mantBits) | (std::uint64_t(1) << (mantBits - 1));
  double a = std::fabs(value);
  if (std::isinf(a))
    return signBit | (expMax << mantBits);
  int bias = (1 << (expBits - 1)) - 1;
  int minExp = 1 - bias;
  if (a < std::ldexp(1.0, minExp)) {
    // Subnormal (or zero): an integer count of the smallest step; rounding
    // up to 2^mantBits gives the smallest normal's encoding by itself.
    auto m = static_cast<std::uint64_t>(std::nearbyint(std::ldexp(a, mantBits - minExp)));
    return signBit | m;
  }
  int exp2;
  std::frexp(a, &exp2); // a = f * 2^exp2, f in [0.5, 1)
  int e = exp2 - 1;
  double frac = std::ldexp(a, -e) - 1.0; // in [0, 1)
  auto m = static_cast<std::uint64_t>(std::nearbyint(std::ldexp(frac, mantBits)));
  if (m == (std::uint64_t(1) << mantBits)) {
    m = 0;
    ++e;
  }
  if (e + bias >= static_cast<int>(expMax))
    return signBit | (expMax << mantBits);
  return signBit | (static_cast<std::uint64_t>(e + bias) << mantBits) | m;
}

/// The value of `bits` in the binary format of encodeIEEE.
double decodeIEEE(std::uint64_t bits, unsigned expBits, unsigned mantBits) {
  bool negative = (bits >> (expBits + mantBits)) & 1;
  std::uint64_t expMax = (std::uint64_t(1) << expBits) - 1;
  std::uint64_t e = (bits >> mantBits) & expMax;
  std::uint64_t m = bits & ((std::uint64_t(1) << mantBits) - 1);
  int bias = (1 << (expBits - 1)) - 1;
  double result;
  if (e == expMax)
    result = m ? std::nan("") : INFINITY;
  else if (e == 0)
    result = std::ldexp(static_cast<double>(m), 1 - bias - static_cast<int>(mantBits));
  else
    result = std::ldexp(1.0 + std::ldexp(static_cast<double>(m), -static_cast<int>(mantBits)),
                        static_cast<int>(e) - bias);
  return negative ? -result : result;
}

unsigned exponentBits(const ElemType &type) {
  return type.bfloat ? 8 : type.bits == 8 ? (type.e4m3 ? 4 : 5) : 5;
}
unsigned mantissaBits(const ElemType &type) {
  return type.bfloat ? 7 : type.bits == 8 ? (type.e4m3 ? 3 : 2) : 10;
}

/// e4m3 (f8E4M3FN): every encoding but S.1111.111 is a number.
std::uint64_t encodeE4M3(double value) {
  if (std::isnan(value))
    return (std::signbit(value) ? 0x80 : 0) | 0x7F;
  llvm::APFloat rounded(value);
  bool lost;
  rounded.convert(llvm::APFloat::Float8E4M3FN(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return rounded.bitcastToAPInt().getZExtValue();
}

double decodeE4M3(std::uint64_t bits) {
  llvm::APFloat value(llvm::APFloat::Float8E4M3FN(), llvm::APInt(8, bits & 0xFF));
  bool lost;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return value.convertToDouble();
}

} // namespace

unsigned tilec::interp::mantissaWidth(const ElemType &type) {
  return type.bits == 64 ? 52 : type.bits == 32 ? 23 : mantissaBits(type);
}

namespace {

/// Exponent bits of the float type `type`.
unsigned exponentWidth(const ElemType &type) {
  return type.bits == 64 ? 11 : type.bits == 32 ? 8 : exponentBits(type);
}

} // namespace

// A NaN of a narrower type is kept in a double NaN whose top mantissa bits
// are the type's mantissa and whose sign is the type's sign, so that a
// load, a store or a bitcast moves its bits unchanged (as the GPU does).
std::uint64_t tilec::interp::floatBits(double value, const ElemType &type) {
  std::uint64_t raw;
  std::memcpy(&raw, &value, 8);
  if (type.bits == 64)
    return raw;
  if (type.e4m3)
    return encodeE4M3(value);
  if (std::isnan(value)) {
    unsigned mant = mantissaWidth(type), exp = exponentWidth(type);
    std::uint64_t sign = raw >> 63;
    std::uint64_t payload = (raw & ((std::uint64_t(1) << 52) - 1)) >> (52 - mant);
    return (sign << (exp + mant)) | (((std::uint64_t(1) << exp) - 1) << mant) | payload;
  }
  if (type.bits == 32) {
    float f = static_cast<float>(value);
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  return encodeIEEE(value, exponentBits(type), mantissaBits(type));
}

double tilec::interp::floatFromBits(std::uint64_t bits, const ElemType &type) {
  if (type.e4m3)
    return decodeE4M3(bits);
  if (type.bits != 64) {
    unsigned mant = mantissaWidth(type), exp = exponentWidth(type);
    std::uint64_t expMask = (std::uint64_t(1) << exp) - 1;
    std::uint64_t payload = bits & ((std::uint64_t(1) << mant) - 1);
    if (((bits >> mant) & expMask) == expMask && payload) {
      std::uint64_t sign = (bits >> (exp + mant)) & 1;
      bits = (sign << 63) | (std::uint64_t(0x7ff) << 52) | (payload << (52 - mant));
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
  }
  if (type.bits == 64) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  if (type.bits == 32) {
    auto narrow = static_cast<std::uint32_t>(bits);
    float f;
    std::memcpy(&f, &narrow, 4);
    return f;
  }
  return decodeIEEE(bits & 0xFFFF, exponentBits(type), mantissaBits(type));
}

double tilec::interp::canonicalNaN(const ElemType &type) {
  // NVIDIA's canonical NaN: positive, every mantissa bit set.
  unsigned mant = mantissaWidth(type), exp = exponentWidth(type);
  return floatFromBits((((std::uint64_t(1) << exp) - 1) << mant) |
                           ((std::uint64_t(1) << mant) - 1),
                       type);
}

double tilec::interp::roundToFloat(double value, const ElemType &type) {
  if (std::isnan(value))
    return canonicalNaN(type);
  if (type.bits == 64)
    return value;
  if (type.bits == 8) {
    // cvt.rn.satfinite: past the largest finite value is that value.
    double largest = type.e4m3 ? 448.0 : 57344.0;
    if (std::fabs(value) > largest) {
      double rounded = floatFromBits(floatBits(value, type), type);
      if (std::isinf(rounded) || std::isnan(rounded) || std::fabs(rounded) > largest)
        return std::copysign(largest, value);
      return rounded;
    }
  }
  if (type.bits == 32)
    return static_cast<float>(value);
  return floatFromBits(floatBits(value, type), type);
}

Scalar tilec::interp::loadElement(const void *bytes, const ElemType &type) {
  std::uint64_t raw = 0;
  std::memcpy(&raw, bytes, type.storeBytes()); // little-endian host
  Scalar s;
  if (type.isFloat())
    s.f = floatFromBits(raw, type);
  else if (type.bits == 1)
    s.i = (raw & 1) ? -1 : 0;
  else
    s.i = signExtend(raw, type.bits);
  return s;
}

void tilec::interp::storeElement(void *bytes, Scalar value, const ElemType &type) {
  std::uint64_t raw = type.isFloat() ? floatBits(value.f, type)
                                     : static_cast<std::uint64_t>(value.i);
  if (type.bits == 1)
    raw &= 1;
  std::memcpy(bytes, &raw, type.storeBytes());
}
