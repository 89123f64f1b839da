//===- Half.h - Host-side fp16, bf16 and fp8 values --------------*- C++
//-*-===//
//
// Tiny POD wrappers holding the bits of an fp16, bf16 or fp8 value, so that
// host programs can fill and read such device buffers.
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

/// An fp8 e4m3 value (Triton's fp8e4nv, torch.float8_e4m3fn: no infinities,
/// largest finite 448, NaN 0x7F/0xFF), stored as its bits.
struct Float8E4M3 {
  std::uint8_t Bits = 0; ///< The raw bits.

  /// Rounds \p Value to the nearest e4m3 (ties to even); magnitudes past 448
  /// saturate to 448 and NaN gives NaN, as the GPU's cvt.rn.satfinite does.
  static Float8E4M3 fromFloat(float Value) noexcept;
  /// Returns the exact float value.
  float toFloat() const noexcept;
};

/// An fp8 e5m2 value (Triton's fp8e5, torch.float8_e5m2: largest finite
/// 57344), stored as its bits.
struct Float8E5M2 {
  std::uint8_t Bits = 0; ///< The raw bits.

  /// Rounds \p Value to the nearest e5m2 (ties to even); magnitudes past
  /// 57344 (infinity included) saturate to 57344 and NaN gives NaN, as the
  /// GPU's cvt.rn.satfinite does.
  static Float8E5M2 fromFloat(float Value) noexcept;
  /// Returns the exact float value (infinities and NaN included).
  float toFloat() const noexcept;
};

static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2 && sizeof(Float8E4M3) == 1 &&
                  sizeof(Float8E5M2) == 1,
              "Half and BFloat16 must have the size of their device type");

} // namespace tile

#endif // TILE_HALF_H
