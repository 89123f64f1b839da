//===- HostFunctions.cpp - libdevice and math on the host -----------------===//
//
// Float functions take their fp32 forms in float and fp64 forms in double
// (f16 and bf16 through float). The rounding-mode families (_rz, _rd, _ru)
// round the double (long double for fp64) result in the mode's direction,
// which is exact for add, sub and mul and correct to the last bit for the
// rest. The fast_ forms are computed precisely.
//
//===----------------------------------------------------------------------===//

#include "HostFunctions.h"

#include "llvm/ADT/StringMap.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace tilec::interp;

namespace {

using Table = llvm::StringMap<ElementFunction>;

/// f applied in the precision of `r`: double for fp64, float otherwise.
template <class F> Scalar inPrecision(const ElemType &r, F f) {
  if (r.bits == 64)
    return floatScalar(f(double()));
  return floatScalar(roundToFloat(f(float()), r));
}

#define UNARY(EXPR)                                                                  \
  [](const Scalar *a, const ElemType *, const ElemType &r) {                         \
    return inPrecision(r, [a](auto zero) {                                           \
      using T = decltype(zero);                                                      \
      T x = static_cast<T>(a[0].f);                                                  \
      return static_cast<T>(EXPR);                                                   \
    });                                                                              \
  }
#define BINARY(EXPR)                                                                 \
  [](const Scalar *a, const ElemType *, const ElemType &r) {                         \
    return inPrecision(r, [a](auto zero) {                                           \
      using T = decltype(zero);                                                      \
      T x = static_cast<T>(a[0].f), y = static_cast<T>(a[1].f);                      \
      return static_cast<T>(EXPR);                                                   \
    });                                                                              \
  }
#define TERNARY(EXPR)                                                                \
  [](const Scalar *a, const ElemType *, const ElemType &r) {                         \
    return inPrecision(r, [a](auto zero) {                                           \
      using T = decltype(zero);                                                      \
      T x = static_cast<T>(a[0].f), y = static_cast<T>(a[1].f),                      \
        z = static_cast<T>(a[2].f);                                                  \
      return static_cast<T>(EXPR);                                                   \
    });                                                                              \
  }
/// An integer function of the arguments' values: `x`, `y` sign-extended and
/// `ux`, `uy` zero-extended from the first argument's width. Argument types
/// past the op's arity have 0 bits (MathOps pads them).
#define INTEGER(EXPR)                                                                \
  [](const Scalar *a, const ElemType *t, const ElemType &r) {                        \
    std::int64_t x = a[0].i;                                                         \
    std::uint64_t ux = zeroExtend(a[0].i, t[0].bits);                                \
    [[maybe_unused]] std::int64_t y = t[1].bits ? a[1].i : 0;                        \
    [[maybe_unused]] std::uint64_t uy = t[1].bits ? zeroExtend(a[1].i, t[0].bits) : 0; \
    (void)x;                                                                         \
    (void)ux;                                                                        \
    return Scalar{signExtend(static_cast<std::uint64_t>(EXPR), r.bits)};             \
  }

constexpr double kPi = 3.141592653589793238462643383279502884;

/// erf's inverse: a rational first guess refined by Newton's method.
double erfInverse(double y) {
  if (y <= -1)
    return y == -1 ? -INFINITY : NAN;
  if (y >= 1)
    return y == 1 ? INFINITY : NAN;
  double w = -std::log((1.0 - y) * (1.0 + y)), x;
  if (w < 5.0) {
    w -= 2.5;
    x = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                     -0.00125372503, -0.00417768164, 0.246640727, 1.50140941})
      x = c + x * w;
  } else {
    w = std::sqrt(w) - 3.0;
    x = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                     -0.0076224613, 0.00943887047, 1.00167406, 2.83297682})
      x = c + x * w;
  }
  x *= y;
  for (int i = 0; i < 3; ++i)
    x -= (std::erf(x) - y) / (2.0 / std::sqrt(kPi) * std::exp(-x * x));
  return x;
}

/// erfc's inverse on (0, 2): through erfInverse(1 - y) in the middle, by
/// Newton's method on erfc itself in the tails, where 1 - y loses y.
double erfcInverse(double y) {
  if (y <= 0 || y >= 2)
    return y == 0 ? INFINITY : y == 2 ? -INFINITY : NAN;
  if (y > 1)
    return -erfcInverse(2 - y);
  if (y > 1e-3)
    return erfInverse(1 - y);
  double x = std::sqrt(-std::log(y)); // erfc(x) ~ exp(-x^2)
  for (int i = 0; i < 50; ++i) {
    double step = (std::erfc(x) - y) / (2.0 / std::sqrt(kPi) * std::exp(-x * x));
    x += step;
    if (std::fabs(step) <= 1e-15 * x)
      break;
  }
  return x;
}

/// exp(x^2) * erfc(x), with its asymptotic series where exp(x^2) overflows.
double erfcScaled(double x) {
  if (x < 10)
    return std::exp(x * x) * std::erfc(x);
  double inv2 = 1 / (2 * x * x);
  return (1 - inv2 + 3 * inv2 * inv2 - 15 * inv2 * inv2 * inv2) / (x * std::sqrt(kPi));
}

/// The rounding directions of libdevice's suffixes.
enum class Mode { Nearest, Zero, Down, Up };

/// `hi + lo` (hi the long double nearest the exact value, lo the sign of
/// what it misses) rounded to float (or double) in direction `mode`.
template <class T> T roundIn(long double hi, Mode mode, long double lo = 0) {
  T r = static_cast<T>(hi);
  if (std::isnan(hi) || std::isinf(hi) || mode == Mode::Nearest)
    return r;
  long double back = r;
  // Where r lies against the exact value: above (1), below (-1) or on it.
  int side = back > hi ? 1 : back < hi ? -1 : lo < 0 ? 1 : lo > 0 ? -1 : 0;
  bool positive = hi > 0 || (hi == 0 && lo > 0);
  bool needDown = (mode == Mode::Down || (mode == Mode::Zero && positive)) && side > 0;
  bool needUp = (mode == Mode::Up || (mode == Mode::Zero && !positive)) && side < 0;
  if (needDown)
    return std::nextafter(r, -std::numeric_limits<T>::infinity());
  if (needUp)
    return std::nextafter(r, std::numeric_limits<T>::infinity());
  return r;
}

/// A float op of the rounding-mode families: the long double result and
/// the sign of its error (TwoSum for sums, the fma residual otherwise), so
/// that a result a long double cannot hold still rounds the right way.
template <Mode M, int Op> Scalar rounded(const Scalar *a, const ElemType *, const ElemType &r) {
  long double x = a[0].f, y = a[1].f, z = a[2].f, hi, lo = 0;
  switch (Op) {
  case 0:
  case 1: {
    long double b = Op == 0 ? y : -y;
    hi = x + b;
    long double bb = hi - x;
    lo = (x - (hi - bb)) + (b - bb);
    break;
  }
  case 2:
    hi = x * y;
    lo = std::fma(x, y, -hi);
    break;
  case 3:
  case 4: {
    long double num = Op == 3 ? x : 1.0L, den = Op == 3 ? y : x;
    hi = num / den;
    long double rem = std::fma(-hi, den, num); // exact - hi has rem / den's sign
    lo = den < 0 ? -rem : rem;
    break;
  }
  case 5:
    hi = std::sqrt(x);
    lo = std::fma(-hi, hi, x);
    break;
  default:
    hi = std::fma(x, y, z);
    lo = std::fma(x, y, z - hi);
    break;
  }
  double value = r.bits == 64 ? roundIn<double>(hi, M, lo) : roundIn<float>(hi, M, lo);
  return floatScalar(std::isnan(value) ? canonicalNaN(r) : value);
}

/// Float or integer conversions of the double2int_rz family.
template <Mode M> Scalar convert(const Scalar *a, const ElemType *t, const ElemType &r) {
  long double value = t[0].isFloat() ? static_cast<long double>(a[0].f)
                                     : static_cast<long double>(a[0].i);
  if (r.isFloat())
    return floatScalar(r.bits == 64 ? roundIn<double>(value, M) : roundIn<float>(value, M));
  if (std::isnan(value))
    return Scalar{0};
  long double v = M == Mode::Nearest ? std::nearbyint(value)
                  : M == Mode::Zero  ? std::trunc(value)
                  : M == Mode::Down  ? std::floor(value)
                                     : std::ceil(value);
  long double lo = -std::ldexp(1.0L, r.bits - 1), hi = std::ldexp(1.0L, r.bits - 1) - 1;
  v = std::min(std::max(v, lo), hi);
  return Scalar{static_cast<std::int64_t>(v)};
}

/// Unsigned conversions (double2uint_rz, ...): saturate to [0, 2^bits - 1].
template <Mode M> Scalar convertUnsigned(const Scalar *a, const ElemType *, const ElemType &r) {
  long double value = a[0].f;
  if (std::isnan(value) || value <= 0)
    return Scalar{0};
  long double v = M == Mode::Nearest ? std::nearbyint(value)
                  : M == Mode::Zero  ? std::trunc(value)
                  : M == Mode::Down  ? std::floor(value)
                                     : std::ceil(value);
  if (v >= std::ldexp(1.0L, r.bits))
    return Scalar{-1};
  return Scalar{signExtend(static_cast<std::uint64_t>(v), r.bits)};
}

/// Unsigned integers to float (uint2float_rn, ull2double_rz, ...).
template <Mode M> Scalar fromUnsigned(const Scalar *a, const ElemType *t, const ElemType &r) {
  long double value = static_cast<long double>(zeroExtend(a[0].i, t[0].bits));
  return floatScalar(r.bits == 64 ? roundIn<double>(value, M) : roundIn<float>(value, M));
}

std::uint64_t reverseBits(std::uint64_t v, unsigned bits) {
  std::uint64_t out = 0;
  for (unsigned i = 0; i < bits; ++i)
    out |= ((v >> i) & 1) << (bits - 1 - i);
  return out;
}

unsigned leadingZeros(std::uint64_t v, unsigned bits) {
  unsigned n = 0;
  for (int i = static_cast<int>(bits) - 1; i >= 0 && !((v >> i) & 1); --i)
    ++n;
  return n;
}

unsigned popCount(std::uint64_t v) {
  unsigned n = 0;
  for (; v; v &= v - 1)
    ++n;
  return n;
}

unsigned firstSet(std::uint64_t v, unsigned bits) {
  for (unsigned i = 0; i < bits; ++i)
    if ((v >> i) & 1)
      return i + 1;
  return 0;
}

std::int64_t highProduct(std::int64_t x, std::int64_t y, unsigned bits, bool isSigned) {
  if (bits <= 32) {
    std::int64_t p = isSigned ? x * y
                              : static_cast<std::int64_t>(zeroExtend(x, 32) * zeroExtend(y, 32));
    return p >> 32;
  }
  if (isSigned)
    return static_cast<std::int64_t>((static_cast<__int128>(x) * y) >> 64);
  return static_cast<std::int64_t>(
      (static_cast<unsigned __int128>(static_cast<std::uint64_t>(x)) * static_cast<std::uint64_t>(y)) >>
      64);
}

std::uint64_t bitsOfDouble(double d) {
  std::uint64_t bits;
  std::memcpy(&bits, &d, 8);
  return bits;
}

double doubleOfBits(std::uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

const Table &libdeviceTable() {
  static const Table table = [] {
    Table t;
    auto both = [&t](llvm::StringRef name, ElementFunction f) {
      t[("__nv_" + name + "f").str()] = f;
      t[("__nv_" + name).str()] = f;
    };
    both("floor", UNARY(std::floor(x)));
    both("ceil", UNARY(std::ceil(x)));
    both("trunc", UNARY(std::trunc(x)));
    both("exp2", UNARY(std::exp2(x)));
    both("rsqrt", UNARY(T(1) / std::sqrt(x)));
    both("sqrt", UNARY(std::sqrt(x)));
    both("rint", UNARY(std::rint(x)));
    both("nearbyint", UNARY(std::nearbyint(x)));
    both("sin", UNARY(std::sin(x)));
    both("cos", UNARY(std::cos(x)));
    both("sinpi", UNARY(std::sin(kPi * static_cast<double>(x))));
    both("cospi", UNARY(std::cos(kPi * static_cast<double>(x))));
    both("tan", UNARY(std::tan(x)));
    both("log2", UNARY(std::log2(x)));
    both("exp", UNARY(std::exp(x)));
    both("exp10", UNARY(std::pow(T(10), x)));
    both("cosh", UNARY(std::cosh(x)));
    both("sinh", UNARY(std::sinh(x)));
    both("tanh", UNARY(std::tanh(x)));
    both("atan", UNARY(std::atan(x)));
    both("asin", UNARY(std::asin(x)));
    both("acos", UNARY(std::acos(x)));
    both("log", UNARY(std::log(x)));
    both("log10", UNARY(std::log10(x)));
    both("log1p", UNARY(std::log1p(x)));
    both("acosh", UNARY(std::acosh(x)));
    both("asinh", UNARY(std::asinh(x)));
    both("atanh", UNARY(std::atanh(x)));
    both("expm1", UNARY(std::expm1(x)));
    both("cbrt", UNARY(std::cbrt(x)));
    both("rcbrt", UNARY(T(1) / std::cbrt(x)));
    both("j0", UNARY(::j0(static_cast<double>(x))));
    both("j1", UNARY(::j1(static_cast<double>(x))));
    both("y0", UNARY(::y0(static_cast<double>(x))));
    both("y1", UNARY(::y1(static_cast<double>(x))));
    both("cyl_bessel_i0", UNARY(std::cyl_bessel_i(0.0, static_cast<double>(x))));
    both("cyl_bessel_i1", UNARY(std::cyl_bessel_i(1.0, static_cast<double>(x))));
    both("erf", UNARY(std::erf(x)));
    both("erfinv", UNARY(erfInverse(static_cast<double>(x))));
    both("erfc", UNARY(std::erfc(x)));
    both("erfcx", UNARY(erfcScaled(static_cast<double>(x))));
    both("erfcinv", UNARY(erfcInverse(static_cast<double>(x))));
    both("normcdfinv", UNARY(-std::sqrt(2.0) * erfcInverse(2.0 * static_cast<double>(x))));
    both("normcdf", UNARY(0.5 * std::erfc(-static_cast<double>(x) / std::sqrt(2.0))));
    both("lgamma", UNARY(std::lgamma(x)));
    both("tgamma", UNARY(std::tgamma(x)));
    both("round", UNARY(std::round(x)));
    both("logb", UNARY(std::logb(x)));
    both("atan2", BINARY(std::atan2(x, y)));
    both("hypot", BINARY(std::hypot(x, y)));
    both("rhypot", BINARY(T(1) / std::hypot(x, y)));
    both("nextafter", BINARY(std::nextafter(x, y)));
    both("fmod", BINARY(std::fmod(x, y)));
    both("remainder", BINARY(std::remainder(x, y)));
    both("fdim", BINARY(std::fdim(x, y)));
    both("pow", BINARY(std::pow(x, y)));
    both("fma", TERNARY(std::fma(x, y, z)));
    both("norm3d", TERNARY(std::sqrt(x * x + y * y + z * z)));
    both("rnorm3d", TERNARY(T(1) / std::sqrt(x * x + y * y + z * z)));
    t["__nv_norm4df"] = t["__nv_norm4d"] = [](const Scalar *a, const ElemType *, const ElemType &r) {
      return floatScalar(roundToFloat(
          std::sqrt(a[0].f * a[0].f + a[1].f * a[1].f + a[2].f * a[2].f + a[3].f * a[3].f), r));
    };
    t["__nv_rnorm4df"] = t["__nv_rnorm4d"] = [](const Scalar *a, const ElemType *, const ElemType &r) {
      return floatScalar(roundToFloat(
          1.0 / std::sqrt(a[0].f * a[0].f + a[1].f * a[1].f + a[2].f * a[2].f + a[3].f * a[3].f), r));
    };
    // Bit operations on the GPU (and.b32, lop3), which keep a NaN's payload.
    both("fabs", [](const Scalar *a, const ElemType *, const ElemType &) {
      return floatScalar(std::fabs(a[0].f));
    });
    both("copysign", [](const Scalar *a, const ElemType *, const ElemType &) {
      return floatScalar(std::copysign(a[0].f, a[1].f));
    });
    both("saturate", UNARY(std::isnan(x) ? T(0) : std::min(T(1), std::max(T(0), x))));
    t["__nv_frsqrt_rn"] = t["__nv_rsqrtf"];
    t["__nv_rcp64h"] = UNARY(T(1) / x);
    t["__nv_fast_fdividef"] = BINARY(x / y);
    t["__nv_fast_powf"] = t["__nv_powf"];
    for (llvm::StringRef name : {"sin", "cos", "log2", "log", "exp", "tan", "exp10", "log10"})
      t[("__nv_fast_" + name + "f").str()] = t[("__nv_" + name + "f").str()];
    t["__nv_powif"] = t["__nv_powi"] = [](const Scalar *a, const ElemType *, const ElemType &r) {
      return floatScalar(roundToFloat(std::pow(a[0].f, static_cast<double>(a[1].i)), r));
    };
    t["__nv_ldexpf"] = t["__nv_ldexp"] = t["__nv_scalbnf"] =
        t["__nv_scalbn"] = [](const Scalar *a, const ElemType *, const ElemType &r) {
          int e = static_cast<int>(std::max<std::int64_t>(-100000, std::min<std::int64_t>(100000, a[1].i)));
          return floatScalar(roundToFloat(std::ldexp(a[0].f, e), r));
        };
    auto toInt = [&t](llvm::StringRef name, ElementFunction f) {
      t[("__nv_" + name + "f").str()] = f;
      t[("__nv_" + name + "d").str()] = f;
    };
    toInt("isnan", [](const Scalar *a, const ElemType *, const ElemType &) {
      return Scalar{std::isnan(a[0].f) ? 1 : 0};
    });
    toInt("isinf", [](const Scalar *a, const ElemType *, const ElemType &) {
      return Scalar{std::isinf(a[0].f) ? 1 : 0};
    });
    toInt("signbit", [](const Scalar *a, const ElemType *, const ElemType &) {
      return Scalar{std::signbit(a[0].f) ? 1 : 0};
    });
    t["__nv_finitef"] = t["__nv_isfinited"] = [](const Scalar *a, const ElemType *,
                                                 const ElemType &) {
      return Scalar{std::isfinite(a[0].f) ? 1 : 0};
    };
    t["__nv_ilogbf"] = t["__nv_ilogb"] = [](const Scalar *a, const ElemType *, const ElemType &) {
      return Scalar{std::ilogb(a[0].f)};
    };
    t["__nv_llrintf"] = t["__nv_llrint"] = [](const Scalar *a, const ElemType *types, const ElemType &r) {
      return convert<Mode::Nearest>(a, types, r);
    };
    t["__nv_llroundf"] = t["__nv_llround"] = [](const Scalar *a, const ElemType *,
                                                const ElemType &r) {
      if (std::isnan(a[0].f))
        return Scalar{0};
      long double v = std::round(static_cast<long double>(a[0].f));
      long double lim = std::ldexp(1.0L, r.bits - 1);
      return Scalar{static_cast<std::int64_t>(std::min(std::max(v, -lim), lim - 1))};
    };

    // The rounding-mode families.
    auto modes = [&t](llvm::StringRef f, llvm::StringRef d, auto nearest, auto zero,
                      auto down, auto up) {
      llvm::StringRef names[] = {"_rn", "_rz", "_rd", "_ru"};
      ElementFunction fns[] = {nearest, zero, down, up};
      for (int i = 0; i < 4; ++i) {
        t[(f + names[i]).str()] = fns[i];
        t[(d + names[i]).str()] = fns[i];
      }
    };
#define MODES(F, D, OP)                                                              \
  modes(F, D, rounded<Mode::Nearest, OP>, rounded<Mode::Zero, OP>,                   \
        rounded<Mode::Down, OP>, rounded<Mode::Up, OP>)
    MODES("__nv_fadd", "__nv_dadd", 0);
    MODES("__nv_fsub", "__nv_dsub", 1);
    MODES("__nv_fmul", "__nv_dmul", 2);
    MODES("__nv_fdiv", "__nv_ddiv", 3);
    MODES("__nv_frcp", "__nv_drcp", 4);
    MODES("__nv_fsqrt", "__nv_dsqrt", 5);
    MODES("__nv_fmaf", "__nv_fma", 6);
#undef MODES
    auto conversions = [&t](std::initializer_list<llvm::StringRef> names, ElementFunction n,
                            ElementFunction z, ElementFunction d, ElementFunction u) {
      for (llvm::StringRef name : names) {
        t[("__nv_" + name + "_rn").str()] = n;
        t[("__nv_" + name + "_rz").str()] = z;
        t[("__nv_" + name + "_rd").str()] = d;
        t[("__nv_" + name + "_ru").str()] = u;
      }
    };
    conversions({"double2float", "double2int", "double2ll", "float2int", "float2ll", "int2float",
                 "ll2float", "ll2double", "int2double"},
                convert<Mode::Nearest>, convert<Mode::Zero>, convert<Mode::Down>,
                convert<Mode::Up>);
    conversions({"double2uint", "double2ull", "float2uint", "float2ull"},
                convertUnsigned<Mode::Nearest>, convertUnsigned<Mode::Zero>,
                convertUnsigned<Mode::Down>, convertUnsigned<Mode::Up>);
    conversions({"uint2float", "ull2float", "ull2double", "uint2double"},
                fromUnsigned<Mode::Nearest>, fromUnsigned<Mode::Zero>,
                fromUnsigned<Mode::Down>, fromUnsigned<Mode::Up>);

    // Integers and bits.
    t["__nv_abs"] = t["__nv_llabs"] = INTEGER(x < 0 ? -static_cast<std::uint64_t>(x) : x);
    t["__nv_clz"] = INTEGER(leadingZeros(ux, 32));
    t["__nv_clzll"] = INTEGER(leadingZeros(ux, 64));
    t["__nv_popc"] = INTEGER(popCount(zeroExtend(x, 32)));
    t["__nv_popcll"] = INTEGER(popCount(ux));
    t["__nv_ffs"] = INTEGER(firstSet(ux, 32));
    t["__nv_ffsll"] = INTEGER(firstSet(ux, 64));
    t["__nv_brev"] = INTEGER(reverseBits(ux, 32));
    t["__nv_brevll"] = INTEGER(reverseBits(ux, 64));
    t["__nv_mulhi"] = INTEGER(highProduct(x, y, 32, true));
    t["__nv_umulhi"] = INTEGER(highProduct(x, y, 32, false));
    t["__nv_mul64hi"] = INTEGER(highProduct(x, y, 64, true));
    t["__nv_umul64hi"] = INTEGER(highProduct(x, y, 64, false));
    t["__nv_mul24"] = INTEGER(signExtend(static_cast<std::uint64_t>(x), 24) *
                              signExtend(static_cast<std::uint64_t>(y), 24));
    t["__nv_umul24"] = INTEGER((ux & 0xFFFFFF) * (uy & 0xFFFFFF));
    t["__nv_hadd"] = INTEGER((x + y) >> 1);
    t["__nv_rhadd"] = INTEGER((x + y + 1) >> 1);
    t["__nv_uhadd"] = INTEGER((ux + uy) >> 1);
    t["__nv_urhadd"] = INTEGER((ux + uy + 1) >> 1);
    t["__nv_sad"] = [](const Scalar *a, const ElemType *, const ElemType &r) {
      std::int64_t d = a[0].i > a[1].i ? a[0].i - a[1].i : a[1].i - a[0].i;
      return Scalar{signExtend(static_cast<std::uint64_t>(d + a[2].i), r.bits)};
    };
    t["__nv_usad"] = [](const Scalar *a, const ElemType *types, const ElemType &r) {
      std::uint64_t x = zeroExtend(a[0].i, types[0].bits), y = zeroExtend(a[1].i, types[1].bits);
      std::uint64_t d = x > y ? x - y : y - x;
      return Scalar{signExtend(d + zeroExtend(a[2].i, types[2].bits), r.bits)};
    };
    t["__nv_byte_perm"] = [](const Scalar *a, const ElemType *, const ElemType &r) {
      std::uint64_t both = zeroExtend(a[0].i, 32) | (zeroExtend(a[1].i, 32) << 32);
      std::uint64_t selector = zeroExtend(a[2].i, 32), out = 0;
      for (unsigned i = 0; i < 4; ++i) {
        unsigned pick = (selector >> (4 * i)) & 7;
        out |= ((both >> (8 * pick)) & 0xFF) << (8 * i);
      }
      return Scalar{signExtend(out, r.bits)};
    };
    auto reinterpret = [](const Scalar *a, const ElemType *types, const ElemType &r) {
      std::uint64_t bits = types[0].isFloat() ? floatBits(a[0].f, types[0])
                                              : zeroExtend(a[0].i, types[0].bits);
      return r.isFloat() ? floatScalar(floatFromBits(bits, r)) : Scalar{signExtend(bits, r.bits)};
    };
    for (llvm::StringRef name : {"int_as_float", "float_as_int", "uint_as_float",
                                 "float_as_uint", "longlong_as_double", "double_as_longlong"})
      t[("__nv_" + name).str()] = reinterpret;
    t["__nv_hiloint2double"] = [](const Scalar *a, const ElemType *, const ElemType &) {
      return floatScalar(doubleOfBits((zeroExtend(a[0].i, 32) << 32) | zeroExtend(a[1].i, 32)));
    };
    t["__nv_double2loint"] = [](const Scalar *a, const ElemType *, const ElemType &) {
      return Scalar{signExtend(bitsOfDouble(a[0].f), 32)};
    };
    t["__nv_double2hiint"] = [](const Scalar *a, const ElemType *, const ElemType &) {
      return Scalar{signExtend(bitsOfDouble(a[0].f) >> 32, 32)};
    };
    return t;
  }();
  return table;
}

const Table &mathTable() {
  static const Table table = [] {
    Table t;
    const Table &lib = libdeviceTable();
    for (llvm::StringRef name :
         {"exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt", "sin",
          "cos", "tan", "tanh", "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh",
          "atanh", "erf", "erfc", "floor", "ceil", "trunc", "round", "cbrt", "atan2",
          "copysign", "fma"})
      t[("math." + name).str()] = lib.lookup(("__nv_" + name).str());
    t["math.absf"] = lib.lookup("__nv_fabs");
    t["math.powf"] = lib.lookup("__nv_pow");
    t["math.roundeven"] = lib.lookup("__nv_rint");
    t["math.absi"] = INTEGER(x < 0 ? -static_cast<std::uint64_t>(x) : x);
    t["math.ctpop"] = INTEGER(popCount(ux));
    t["math.ctlz"] = [](const Scalar *a, const ElemType *types, const ElemType &) {
      return Scalar{leadingZeros(zeroExtend(a[0].i, types[0].bits), types[0].bits)};
    };
    t["math.cttz"] = [](const Scalar *a, const ElemType *types, const ElemType &) {
      unsigned n = firstSet(zeroExtend(a[0].i, types[0].bits), types[0].bits);
      return Scalar{n == 0 ? std::int64_t(types[0].bits) : std::int64_t(n - 1)};
    };
    return t;
  }();
  return table;
}

#undef UNARY
#undef BINARY
#undef TERNARY
#undef INTEGER

} // namespace

ElementFunction tilec::interp::lookupLibdeviceFunction(llvm::StringRef symbol) {
  return libdeviceTable().lookup(symbol);
}

ElementFunction tilec::interp::lookupMathFunction(llvm::StringRef opName) {
  return mathTable().lookup(opName);
}

std::vector<llvm::StringRef> tilec::interp::getMathOpNames() {
  std::vector<llvm::StringRef> names;
  for (const auto &entry : mathTable())
    names.push_back(entry.getKey());
  return names;
}
