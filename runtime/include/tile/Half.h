//===- Half.h - Host-side fp16 and bf16 values -------------------*- C++
//-*-===//
//
// Tiny POD wrappers holding the bits of an fp16 or bf16 value, so that host
// programs can fill and read fp16/bf16 device buffers.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_HALF_H
#define TILE_HALF_H

#include <cstdint>

namespace tile {

/// An IEEE-754 binary16 value, stored as its bits.
struct Half {
  std::uint16_t Bits = 0; ///< The raw binary16 bits.

  /// Rounds \p Value to the nearest fp16 (ties to even; overflow gives inf).
  static Half fromFloat(float Value) noexcept;
  /// Returns the exact float value of this fp16.
  float toFloat() const noexcept;
};

/// A bfloat16 value (the top 16 bits of an fp32), stored as its bits.
struct BFloat16 {
  std::uint16_t Bits = 0; ///< The raw bfloat16 bits.

  /// Rounds \p Value to the nearest bf16 (ties to even; NaN stays NaN).
  static BFloat16 fromFloat(float Value) noexcept;
  /// Returns the exact float value of this bf16.
  float toFloat() const noexcept;
};

static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2,
              "Half and BFloat16 must have the size of their device type");

} // namespace tile

#endif // TILE_HALF_H
