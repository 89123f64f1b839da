//===- Types.cpp - Tile-language scalar and pointer types -----------------===//
#include "tile/Types.h"

#include <array>

namespace tile {

namespace {

struct ScalarEntry {
  const char *Name;
  std::size_t Size;
};

// Indexed by ScalarKind.
constexpr std::array<ScalarEntry, 15> Scalars = {{{"i1", 1},
                                                  {"i8", 1},
                                                  {"i16", 2},
                                                  {"i32", 4},
                                                  {"i64", 8},
                                                  {"u8", 1},
                                                  {"u16", 2},
                                                  {"u32", 4},
                                                  {"u64", 8},
                                                  {"fp8e4nv", 1},
                                                  {"fp8e5", 1},
                                                  {"fp16", 2},
                                                  {"bf16", 2},
                                                  {"fp32", 4},
                                                  {"fp64", 8}}};

static_assert(static_cast<std::size_t>(ScalarKind::FP64) + 1 == Scalars.size(),
              "Scalars must list every ScalarKind");

} // namespace

const char *scalarName(ScalarKind Kind) noexcept {
  return Scalars[static_cast<std::size_t>(Kind)].Name;
}

std::size_t scalarSize(ScalarKind Kind) noexcept {
  return Scalars[static_cast<std::size_t>(Kind)].Size;
}

std::optional<ScalarKind> parseScalar(std::string_view Name) noexcept {
  for (std::size_t I = 0; I < Scalars.size(); ++I)
    if (Name == Scalars[I].Name)
      return static_cast<ScalarKind>(I);
  return std::nullopt;
}

std::optional<TileType> TileType::parse(std::string_view Spelling) noexcept {
  bool IsPointer = !Spelling.empty() && Spelling.front() == '*';
  if (IsPointer)
    Spelling.remove_prefix(1);
  if (std::optional<ScalarKind> Elem = parseScalar(Spelling))
    return TileType{*Elem, IsPointer};
  return std::nullopt;
}

std::string TileType::str() const {
  return (IsPointer ? "*" : "") + std::string(scalarName(Elem));
}

} // namespace tile
