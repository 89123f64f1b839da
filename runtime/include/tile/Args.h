//===- Args.h - Typed kernel arguments ---------------------------*- C++
//-*-===//
//
// A tile::Arg is one kernel argument: its tile-language type and its bytes.
// Scalars, device buffers and raw device pointers convert to it implicitly.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_ARGS_H
#define TILE_ARGS_H

#include "tile/Types.h"

#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace tile {

template <class T> class DeviceBuffer;

/// A raw device address with the element type it points to, for memory the
/// runtime did not allocate: tile::DevicePtr{Address, "fp32"}.
struct DevicePtr {
  /// Throws tile::Error when \p ElemType is not a scalar type name.
  DevicePtr(std::uint64_t Address, std::string_view ElemType);
  /// Points to \p Elem values at \p Address.
  DevicePtr(std::uint64_t Address, ScalarKind Elem) noexcept
      : Address(Address), Elem(Elem) {}

  std::uint64_t Address; ///< The CUdeviceptr.
  ScalarKind Elem;       ///< The pointee type.
};

/// A device pointer to \p T elements, the pointer parameters of the typed
/// launchers `tilec --emit=header` writes: a DeviceBuffer<T> converts to it,
/// a buffer of another type does not compile.
template <class T> class TypedPtr {
public:
  /// Points to \p Buffer's first element.
  TypedPtr(const DeviceBuffer<T> &Buffer) noexcept : Address(Buffer.devicePtr()) {}
  /// Points to \p Address (a CUdeviceptr, e.g. a PyTorch tensor's data_ptr()).
  explicit TypedPtr(std::uint64_t Address) noexcept : Address(Address) {}
  /// The device address.
  std::uint64_t address() const noexcept { return Address; }

private:
  std::uint64_t Address;
};

/// One kernel argument, passed by value.
class Arg {
public:
  /// A scalar: int32_t -> i32, float -> fp32, bool -> i1 (1 byte), ...
  template <class T, std::enable_if_t<std::is_arithmetic_v<T> ||
                                          std::is_same_v<T, Half> ||
                                          std::is_same_v<T, BFloat16>,
                                      int> = 0>
  Arg(T Value) noexcept : Type{scalarKindOf<T>(), false} {
    static_assert(sizeof(T) <= sizeof(Bytes), "scalar too large");
    std::memcpy(Bytes, &Value, sizeof(T));
  }
  /// A pointer to device memory.
  Arg(const DevicePtr &Ptr) noexcept : Type{Ptr.Elem, true} {
    std::memcpy(Bytes, &Ptr.Address, sizeof(Ptr.Address));
  }
  /// The device address of \p Buffer, typed "*<T>".
  template <class T>
  Arg(const DeviceBuffer<T> &Buffer) noexcept
      : Arg(DevicePtr(Buffer.devicePtr(), scalarKindOf<T>())) {}
  /// The address \p Ptr holds, typed "*<T>".
  template <class T>
  Arg(const TypedPtr<T> &Ptr) noexcept : Arg(DevicePtr(Ptr.address(), scalarKindOf<T>())) {}

  /// The argument's tile-language type.
  const TileType &type() const noexcept { return Type; }
  /// The argument's bytes, as cuLaunchKernel reads them.
  const void *data() const noexcept { return Bytes; }
  /// The address a pointer argument holds (meaningless for scalars).
  std::uint64_t address() const noexcept {
    std::uint64_t A;
    std::memcpy(&A, Bytes, sizeof(A));
    return A;
  }

  /// The value an integer scalar argument holds, sign- or zero-extended by
  /// its type (meaningless for other arguments).
  std::int64_t intValue() const noexcept;

private:
  TileType Type;
  alignas(8) unsigned char Bytes[8] = {};
};

} // namespace tile

#endif // TILE_ARGS_H
