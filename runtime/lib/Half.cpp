//===- Half.cpp - Host-side fp16, bf16 and fp8 conversions ----------------===//
#include "tile/Half.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace tile {

namespace {

std::uint32_t floatBits(float F) {
  std::uint32_t U;
  std::memcpy(&U, &F, sizeof(U));
  return U;
}

float bitsFloat(std::uint32_t U) {
  float F;
  std::memcpy(&F, &U, sizeof(F));
  return F;
}

} // namespace

Half Half::fromFloat(float Value) noexcept {
  std::uint32_t F = floatBits(Value);
  std::uint16_t Sign = static_cast<std::uint16_t>((F >> 16) & 0x8000);
  std::uint32_t Abs = F & 0x7FFFFFFF;
  if (Abs > 0x7F800000) // NaN: keep it quiet.
    return Half{static_cast<std::uint16_t>(Sign | 0x7E00)};
  if (Abs >= 0x477FF000) // Rounds to or beyond 65536: infinity.
    return Half{static_cast<std::uint16_t>(Sign | 0x7C00)};
  if (Abs < 0x38800000) { // Below the smallest normal fp16 (2^-14).
    // Subnormal: the value in units of 2^-24, rounded to nearest even.
    int Exp = static_cast<int>(Abs >> 23);
    if (Exp < 102) // Below half of the smallest subnormal.
      return Half{Sign};
    std::uint32_t Mant = (Abs & 0x7FFFFF) | 0x800000;
    int Shift = 126 - Exp; // 14..24
    std::uint32_t Result = Mant >> Shift;
    std::uint32_t Rest = Mant & ((1u << Shift) - 1);
    std::uint32_t Halfway = 1u << (Shift - 1);
    if (Rest > Halfway || (Rest == Halfway && (Result & 1)))
      ++Result;
    return Half{static_cast<std::uint16_t>(Sign | Result)};
  }
  // Normal: rebias the exponent and round the mantissa to 10 bits.
  std::uint32_t Result = (Abs - 0x38000000) >> 13;
  std::uint32_t Rest = Abs & 0x1FFF;
  if (Rest > 0x1000 || (Rest == 0x1000 && (Result & 1)))
    ++Result;
  return Half{static_cast<std::uint16_t>(Sign | Result)};
}

float Half::toFloat() const noexcept {
  std::uint32_t Sign = static_cast<std::uint32_t>(Bits & 0x8000) << 16;
  std::uint32_t Exp = (Bits >> 10) & 0x1F;
  std::uint32_t Mant = Bits & 0x3FF;
  if (Exp == 0x1F) // Inf or NaN.
    return bitsFloat(Sign | 0x7F800000 | (Mant << 13));
  if (Exp == 0) { // Zero or subnormal: Mant * 2^-24.
    float Magnitude = static_cast<float>(Mant) * 5.9604644775390625e-8f;
    return Sign ? -Magnitude : Magnitude;
  }
  return bitsFloat(Sign | ((Exp + 112) << 23) | (Mant << 13));
}

BFloat16 BFloat16::fromFloat(float Value) noexcept {
  std::uint32_t F = floatBits(Value);
  if ((F & 0x7FFFFFFF) > 0x7F800000) // NaN: keep it quiet.
    return BFloat16{static_cast<std::uint16_t>((F >> 16) | 0x40)};
  std::uint32_t Rounding = 0x7FFF + ((F >> 16) & 1);
  return BFloat16{static_cast<std::uint16_t>((F + Rounding) >> 16)};
}

float BFloat16::toFloat() const noexcept {
  return bitsFloat(static_cast<std::uint32_t>(Bits) << 16);
}


namespace {

/// The bits of an fp8 format with \p MantBits mantissa bits, exponent bias
/// \p Bias and largest finite value \p Largest (bits \p LargestBits) nearest
/// to \p Value: ties to even, saturating, NaN as 0x7F with the sign.
std::uint8_t encodeFP8(float Value, int MantBits, int Bias, float Largest,
                       std::uint8_t LargestBits) {
  std::uint8_t Sign = std::signbit(Value) ? 0x80 : 0;
  if (std::isnan(Value))
    return Sign | 0x7F;
  float A = std::fabs(Value);
  if (A >= Largest)
    return Sign | LargestBits;
  // The step between neighbours at A's binade (subnormals share the
  // smallest normal binade's step).
  int Exp = 0;
  std::frexp(A, &Exp);
  int Binade = std::max(Exp - 1, 1 - Bias);
  float Step = std::ldexp(1.0f, Binade - MantBits);
  float Rounded = std::nearbyint(A / Step) * Step; // ties to even
  if (Rounded == 0)
    return Sign;
  std::frexp(Rounded, &Exp);
  int E = Exp - 1;
  if (E < 1 - Bias) // subnormal: a count of the smallest step
    return Sign | static_cast<std::uint8_t>(Rounded / std::ldexp(1.0f, 1 - Bias - MantBits));
  auto Mant = static_cast<std::uint8_t>((Rounded / std::ldexp(1.0f, E) - 1) * (1 << MantBits));
  return Sign | static_cast<std::uint8_t>((E + Bias) << MantBits) | Mant;
}

/// The value of fp8 bits; \p HasInf for e5m2 (its top exponent is inf/NaN),
/// not for e4m3 (only S.1111.111 is NaN).
float decodeFP8(std::uint8_t Bits, int MantBits, int Bias, bool HasInf) {
  int ExpBits = 7 - MantBits;
  int E = (Bits >> MantBits) & ((1 << ExpBits) - 1);
  int M = Bits & ((1 << MantBits) - 1);
  float Magnitude;
  if (HasInf && E == (1 << ExpBits) - 1)
    Magnitude = M ? std::numeric_limits<float>::quiet_NaN()
                  : std::numeric_limits<float>::infinity();
  else if (!HasInf && (Bits & 0x7F) == 0x7F)
    Magnitude = std::numeric_limits<float>::quiet_NaN();
  else if (E == 0)
    Magnitude = std::ldexp(static_cast<float>(M), 1 - Bias - MantBits);
  else
    Magnitude = std::ldexp(1.0f + std::ldexp(static_cast<float>(M), -MantBits), E - Bias);
  return (Bits & 0x80) ? -Magnitude : Magnitude;
}

} // namespace

Float8E4M3 Float8E4M3::fromFloat(float Value) noexcept {
  return Float8E4M3{encodeFP8(Value, 3, 7, 448.0f, 0x7E)};
}

float Float8E4M3::toFloat() const noexcept { return decodeFP8(Bits, 3, 7, false); }

Float8E5M2 Float8E5M2::fromFloat(float Value) noexcept {
  return Float8E5M2{encodeFP8(Value, 2, 15, 57344.0f, 0x7B)};
}

float Float8E5M2::toFloat() const noexcept { return decodeFP8(Bits, 2, 15, true); }

} // namespace tile
