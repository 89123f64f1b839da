//===- Args.h - Typed kernel arguments ---------------------------*- C++
//-*-===//
//
// A tile::Arg is one kernel argument: its tile-language type and its bytes.
// Scalars, device buffers, raw device pointers and host tensor descriptors
// convert to it implicitly.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_ARGS_H
#define TILE_ARGS_H

#include "tile/Types.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

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

/// A host tensor descriptor, Triton's TensorDescriptor: a tensor in device
/// memory (base, shape and strides in elements) read and written in blocks
/// of BlockShape, the argument of a `tensordesc<fp16[64, 64]>` parameter.
/// As Triton's (and the tensor memory accelerator's), the base is 16-byte
/// aligned, the last stride is 1 and the other strides are whole 16 bytes;
/// a launch checks it all, and the block shape against the parameter's.
struct TensorDescriptor {
  /// A descriptor of the tensor at \p Base.
  TensorDescriptor(DevicePtr Base, std::vector<std::int64_t> Shape,
                   std::vector<std::int64_t> Strides,
                   std::vector<std::int64_t> BlockShape)
      : Base(Base), Shape(std::move(Shape)), Strides(std::move(Strides)),
        BlockShape(std::move(BlockShape)) {}
  /// A descriptor of the tensor in \p Buffer.
  template <class T>
  TensorDescriptor(const DeviceBuffer<T> &Buffer, std::vector<std::int64_t> Shape,
                   std::vector<std::int64_t> Strides,
                   std::vector<std::int64_t> BlockShape)
      : TensorDescriptor(DevicePtr(Buffer.devicePtr(), scalarKindOf<T>()),
                         std::move(Shape), std::move(Strides), std::move(BlockShape)) {}

  DevicePtr Base;                       ///< The element at index 0.
  std::vector<std::int64_t> Shape;      ///< Elements along each dimension.
  std::vector<std::int64_t> Strides;    ///< Elements between neighbours.
  std::vector<std::int64_t> BlockShape; ///< One load or store.
};

/// The CUtensorMap argument of a host tensor descriptor (kernels for sm_90;
/// Signature::expandDescriptors makes it): the descriptor, the box (outermost
/// dimension first) and swizzle (bytes) the kernel was compiled for, and the
/// 128 bytes a launch on a GPU encodes (cuTensorMapEncodeTiled) and passes.
struct TensorMapArg {
  TensorDescriptor Desc;
  std::vector<std::int64_t> Box;
  unsigned Swizzle = 0;
  std::string Where; ///< "argument 2 'a' of k: ", for messages.
  alignas(64) unsigned char Map[128] = {};
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
  /// A host tensor descriptor (a copy): the launch passes its base, shape
  /// and strides as the parameters of the descriptor.
  Arg(const TensorDescriptor &Desc)
      : Type{Desc.Base.Elem, true}, Desc(std::make_shared<TensorDescriptor>(Desc)) {
    std::memcpy(Bytes, &Desc.Base.Address, sizeof(Desc.Base.Address));
  }

  /// A descriptor's tensor map (the launch encodes it).
  explicit Arg(std::shared_ptr<TensorMapArg> Map)
      : Type{ScalarKind::I8, false}, TMap(std::move(Map)) {}

  /// The tensor descriptor this argument holds, or nullptr.
  const TensorDescriptor *descriptor() const noexcept { return Desc.get(); }
  /// The tensor map this argument holds, or nullptr.
  TensorMapArg *tensorMap() const noexcept { return TMap.get(); }
  /// The type as a signature spells it: "*fp32", "i32", or for a tensor
  /// descriptor "tensordesc<fp16[64, 64]>".
  std::string typeName() const;

  /// The argument's tile-language type.
  const TileType &type() const noexcept { return Type; }
  /// The argument's bytes, as cuLaunchKernel reads them.
  const void *data() const noexcept { return TMap ? TMap->Map : Bytes; }
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
  std::shared_ptr<const TensorDescriptor> Desc;
  std::shared_ptr<TensorMapArg> TMap;
};

} // namespace tile

#endif // TILE_ARGS_H
