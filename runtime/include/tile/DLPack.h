//===- DLPack.h - Kernel arguments from DLPack tensors -----------*- C++ -*-===//
//
// tile::fromDLPack turns a DLTensor (or DLManagedTensor, as PyTorch's
// torch.utils.dlpack.to_dlpack and CuPy's toDlpack give) into a kernel
// argument: the address of its first element, typed by its dtype, so that
// Kernel::launch checks it against the kernel's signature like any pointer.
// Header-only: it needs <dlpack/dlpack.h> (Debian's libdlpack-dev), which
// the runtime library itself does not.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_DLPACK_H
#define TILE_DLPACK_H

#include "tile/Args.h"
#include "tile/Context.h"
#include "tile/Error.h"

#include <dlpack/dlpack.h>

#include <string>

namespace tile {

/// The tile-language scalar of a DLPack dtype; throws tile::Error for one
/// the language has no type for (complex numbers, vectors of lanes > 1,
/// 8-bit floats before DLPack 1.1 named them).
inline ScalarKind scalarKindOf(const DLDataType &Type) {
  auto fail = [&]() -> ScalarKind {
    throw Error("DLPack dtype (code " + std::to_string(Type.code) + ", " +
                std::to_string(Type.bits) + " bits, " + std::to_string(Type.lanes) +
                " lanes) has no tile-language type");
  };
  if (Type.lanes != 1)
    return fail();
  // kDLBool (6) is newer than some dlpack.h headers: compared by value.
  if (Type.code == 6 && Type.bits == 8)
    return ScalarKind::I1;
  switch (Type.code) {
  case kDLInt:
    switch (Type.bits) {
    case 8: return ScalarKind::I8;
    case 16: return ScalarKind::I16;
    case 32: return ScalarKind::I32;
    case 64: return ScalarKind::I64;
    }
    break;
  case kDLUInt:
    switch (Type.bits) {
    case 8: return ScalarKind::U8;
    case 16: return ScalarKind::U16;
    case 32: return ScalarKind::U32;
    case 64: return ScalarKind::U64;
    }
    break;
  case kDLFloat:
    switch (Type.bits) {
    case 16: return ScalarKind::FP16;
    case 32: return ScalarKind::FP32;
    case 64: return ScalarKind::FP64;
    }
    break;
  case kDLBfloat:
    if (Type.bits == 16)
      return ScalarKind::BF16;
    break;
  default:
    break;
  }
  return fail();
}

/// A pointer argument to \p Tensor's first element (data + byte_offset),
/// typed by its dtype. Its device must be \p Ctx's: a CUDA device (or
/// managed memory) with \p Ctx's ordinal, or, for an interpreter context,
/// host memory the interpreter allocated (DeviceBuffer on that context).
/// Strides are not looked at: pass them as the kernel's own arguments.
inline Arg fromDLPack(const DLTensor &Tensor, const Context &Ctx) {
  const DLDevice &Dev = Tensor.device;
  if (Ctx.backend() == Backend::Interpreter) {
    if (Dev.device_type != kDLCPU)
      throw Error("DLPack tensor on device type " + std::to_string(Dev.device_type) +
                  ": an interpreter context takes host (kDLCPU) memory");
  } else if ((Dev.device_type != kDLCUDA && Dev.device_type != kDLCUDAManaged) ||
             Dev.device_id != Ctx.device()) {
    throw Error("DLPack tensor on device type " + std::to_string(Dev.device_type) + " id " +
                std::to_string(Dev.device_id) + ": the context is CUDA device " +
                std::to_string(Ctx.device()));
  }
  std::uint64_t Address =
      reinterpret_cast<std::uint64_t>(Tensor.data) + Tensor.byte_offset;
  return Arg(DevicePtr(Address, scalarKindOf(Tensor.dtype)));
}

/// fromDLPack of a managed tensor's DLTensor; the caller keeps \p Tensor
/// alive (and calls its deleter) as DLPack says.
inline Arg fromDLPack(const DLManagedTensor *Tensor, const Context &Ctx) {
  if (!Tensor)
    throw Error("fromDLPack: null DLManagedTensor");
  return fromDLPack(Tensor->dl_tensor, Ctx);
}

} // namespace tile

#endif // TILE_DLPACK_H
