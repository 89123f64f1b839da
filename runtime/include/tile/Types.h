//===- Types.h - Tile-language scalar and pointer types ----------*- C++
//-*-===//
//
// The types a kernel parameter can have ("i32", "*fp16", ...), their spelling,
// their size as a kernel parameter, and the mapping from C++ host types.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_TYPES_H
#define TILE_TYPES_H

#include "tile/Half.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace tile {

/// A scalar element type of the tile language.
enum class ScalarKind : std::uint8_t {
  I1,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  FP8E4M3, ///< "fp8e4nv": torch.float8_e4m3fn.
  FP8E5M2, ///< "fp8e5": torch.float8_e5m2.
  FP16,
  BF16,
  FP32,
  FP64
};

/// Returns the tile-language spelling of \p Kind, e.g. "fp32".
const char *scalarName(ScalarKind Kind) noexcept;

/// Returns the size in bytes of \p Kind as a kernel parameter (i1 takes 1).
std::size_t scalarSize(ScalarKind Kind) noexcept;

/// Parses a scalar spelling such as "fp16"; std::nullopt when unknown.
std::optional<ScalarKind> parseScalar(std::string_view Name) noexcept;

/// The type of a kernel parameter: a scalar, or a pointer to one ("*fp32").
struct TileType {
  ScalarKind Elem = ScalarKind::I32; ///< The scalar, or the pointee.
  bool IsPointer = false;            ///< True for "*<Elem>".

  /// Parses "i32" or "*fp16"; std::nullopt when the spelling is unknown.
  static std::optional<TileType> parse(std::string_view Spelling) noexcept;
  /// Returns the spelling, e.g. "*fp32".
  std::string str() const;
  /// Returns the size in bytes of a value of this type as a kernel parameter.
  std::size_t paramSize() const noexcept {
    return IsPointer ? sizeof(std::uint64_t) : scalarSize(Elem);
  }
  /// Two types are equal when they have the same spelling.
  bool operator==(const TileType &O) const noexcept {
    return Elem == O.Elem && IsPointer == O.IsPointer;
  }
  /// Negation of operator==.
  bool operator!=(const TileType &O) const noexcept { return !(*this == O); }
};

/// The tile scalar type of the C++ host type \p T (float -> fp32, int32_t ->
/// i32, bool -> i1, tile::Half -> fp16, ...). Unmapped types fail to compile.
template <class T> constexpr ScalarKind scalarKindOf() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>)
    return ScalarKind::I1;
  else if constexpr (std::is_same_v<U, float>)
    return ScalarKind::FP32;
  else if constexpr (std::is_same_v<U, double>)
    return ScalarKind::FP64;
  else if constexpr (std::is_same_v<U, Half>)
    return ScalarKind::FP16;
  else if constexpr (std::is_same_v<U, BFloat16>)
    return ScalarKind::BF16;
  else if constexpr (std::is_same_v<U, Float8E4M3>)
    return ScalarKind::FP8E4M3;
  else if constexpr (std::is_same_v<U, Float8E5M2>)
    return ScalarKind::FP8E5M2;
  else if constexpr (std::is_integral_v<U> && !std::is_same_v<U, char>) {
    constexpr bool S = std::is_signed_v<U>;
    if constexpr (sizeof(U) == 1)
      return S ? ScalarKind::I8 : ScalarKind::U8;
    else if constexpr (sizeof(U) == 2)
      return S ? ScalarKind::I16 : ScalarKind::U16;
    else if constexpr (sizeof(U) == 4)
      return S ? ScalarKind::I32 : ScalarKind::U32;
    else {
      static_assert(sizeof(U) == 8, "unsupported integer size");
      return S ? ScalarKind::I64 : ScalarKind::U64;
    }
  } else {
    static_assert(sizeof(U) == 0, "no tile-language type for this C++ type "
                                  "(use int8_t/uint8_t instead of char)");
    return ScalarKind::I32;
  }
}

} // namespace tile

#endif // TILE_TYPES_H
