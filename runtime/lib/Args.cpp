//===- Args.cpp - Typed kernel arguments ----------------------------------===//
#include "tile/Args.h"

#include "tile/Error.h"

#include <cstring>
#include <string>

namespace tile {

DevicePtr::DevicePtr(std::uint64_t Address, std::string_view ElemType)
    : Address(Address), Elem(ScalarKind::I8) {
  std::optional<ScalarKind> Kind = parseScalar(ElemType);
  if (!Kind)
    throw Error("DevicePtr: unknown element type '" + std::string(ElemType) +
                "' (expected i1, i8, ..., u64, fp16, bf16, fp32 or fp64)");
  Elem = *Kind;
}

std::string Arg::typeName() const {
  if (TMap)
    return "tensormap";
  if (!Desc)
    return Type.str();
  std::string Name = "tensordesc<" + TileType{Type.Elem, false}.str() + "[";
  for (std::size_t I = 0; I < Desc->BlockShape.size(); ++I)
    Name += (I ? ", " : "") + std::to_string(Desc->BlockShape[I]);
  return Name + "]>";
}

std::int64_t Arg::intValue() const noexcept {
  auto read = [&](auto Value) {
    std::memcpy(&Value, Bytes, sizeof(Value));
    return static_cast<std::int64_t>(Value);
  };
  switch (Type.Elem) {
  case ScalarKind::I8:
    return read(std::int8_t());
  case ScalarKind::I16:
    return read(std::int16_t());
  case ScalarKind::I32:
    return read(std::int32_t());
  case ScalarKind::I64:
  case ScalarKind::U64:
    return read(std::int64_t());
  case ScalarKind::U8:
  case ScalarKind::I1:
    return read(std::uint8_t());
  case ScalarKind::U16:
    return read(std::uint16_t());
  case ScalarKind::U32:
    return read(std::uint32_t());
  default:
    return 0;
  }
}

} // namespace tile
