//===- Half.cpp - Host-side fp16 and bf16 conversions ---------------------===//
#include "tile/Half.h"

#include <cstring>

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

} // namespace tile
