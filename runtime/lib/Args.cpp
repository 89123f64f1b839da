//===- Args.cpp - Typed kernel arguments ----------------------------------===//
#include "tile/Args.h"

#include "tile/Error.h"

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

} // namespace tile
