//===- Kernel.cpp - Launching kernels -------------------------------------===//
#include "tile/Kernel.h"

#include "Differential.h"
#include "Internal.h"
#include "tile/Error.h"

#include <array>
#include <cstdint>
#include <vector>

namespace tile {

void Kernel::launchImpl(const Grid &G, const Stream &S, const Arg *Args,
                        std::size_t Count) const {
  // With tensor descriptors, expandDescriptors checks every argument (and
  // names it by its place in the caller's list).
  std::vector<Arg> Expanded;
  if (Sig.needsExpansion(Args, Count)) {
    Expanded = Sig.expandDescriptors(Args, Count);
    Args = Expanded.data();
    Count = Expanded.size();
  } else {
    Sig.check(Args, Count);
  }
  if (G.X == 0 || G.Y == 0 || G.Z == 0)
    throw Error("launch of " + Info->Name + ": grid (" + std::to_string(G.X) +
                ", " + std::to_string(G.Y) + ", " + std::to_string(G.Z) +
                ") is empty");
  if (Owner->Program)
    return Owner->Program->launch(*Info, G, Args, Count);
  if (detail::differentialEnabled())
    return detail::launchDifferential(*Owner, *Info, G, Args, Count,
                                      [&] { launchOnGpu(G, S, Args, Count); });
  launchOnGpu(G, S, Args, Count);
}

namespace {

/// The CUtensorMapDataType of \p Elem (fp8 as bytes).
int tensorMapDataType(ScalarKind Elem) {
  switch (Elem) {
  case ScalarKind::FP16:
    return cu::CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case ScalarKind::BF16:
    return cu::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case ScalarKind::FP32:
    return cu::CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case ScalarKind::FP64:
    return cu::CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  case ScalarKind::I32:
    return cu::CU_TENSOR_MAP_DATA_TYPE_INT32;
  case ScalarKind::I64:
    return cu::CU_TENSOR_MAP_DATA_TYPE_INT64;
  default:
    return scalarSize(Elem) == 2 ? cu::CU_TENSOR_MAP_DATA_TYPE_UINT16
                                 : cu::CU_TENSOR_MAP_DATA_TYPE_UINT8;
  }
}

/// Encodes \p Map's CUtensorMap from its descriptor; throws tile::Error
/// naming the argument when the driver cannot.
void encodeTensorMap(TensorMapArg &Map) {
  const cu::DriverApi &D = cu::driver();
  if (!D.cuTensorMapEncodeTiled)
    throw Error(Map.Where + "this kernel copies tensor descriptors with the tensor memory "
                "accelerator, and the CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 "
                "or newer is needed)");
  const TensorDescriptor &Desc = Map.Desc;
  std::size_t Rank = Desc.Shape.size();
  std::uint64_t Bytes = scalarSize(Desc.Base.Elem);
  // Innermost dimension first; the strides of all but the innermost, in bytes.
  unsigned long long Dims[5], Strides[5];
  unsigned Box[5], ElementStrides[5];
  for (std::size_t I = 0; I < Rank; ++I) {
    std::size_t Dim = Rank - 1 - I;
    Dims[I] = static_cast<unsigned long long>(Desc.Shape[Dim]);
    Box[I] = static_cast<unsigned>(Map.Box[Dim]);
    ElementStrides[I] = 1;
    if (I > 0)
      Strides[I - 1] = static_cast<unsigned long long>(Desc.Strides[Dim]) * Bytes;
  }
  int Swizzle = Map.Swizzle == 128 ? 3 : Map.Swizzle == 64 ? 2 : Map.Swizzle == 32 ? 1 : 0;
  cu::CUresult R = D.cuTensorMapEncodeTiled(
      Map.Map, tensorMapDataType(Desc.Base.Elem), static_cast<unsigned>(Rank),
      reinterpret_cast<void *>(static_cast<std::uintptr_t>(Desc.Base.Address)), Dims,
      Strides, Box, ElementStrides, cu::CU_TENSOR_MAP_INTERLEAVE_NONE, Swizzle,
      cu::CU_TENSOR_MAP_L2_PROMOTION_L2_128B, cu::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (R != cu::CUDA_SUCCESS)
    cu::fail(R, "cuTensorMapEncodeTiled",
             Map.Where + "the descriptor cannot be copied by the tensor memory accelerator "
                         "(its tensor map could not be encoded)");
}

} // namespace

void Kernel::launchOnGpu(const Grid &G, const Stream &S, const Arg *Args,
                         std::size_t Count) const {
  // cuLaunchKernel reads one pointer per .param of the PTX entry, and from
  // each as many bytes as the .param has. Module::load checked (checkPtx)
  // that the metadata lists exactly the entry's parameters with their sizes,
  // and Sig.check that Args match the metadata, so every slot the driver
  // reads is filled with an Arg of the right size. The inline slots are
  // value-initialised all the same: nothing uninitialised is ever passed.
  // A kernel that builds tensor maps takes its global scratch last (PtxCheck
  // checked that the PTX has that one more parameter).
  std::size_t Slots = Count + (Info->GlobalScratchBytes ? 1 : 0);
  constexpr std::size_t InlineArgs = 32;
  std::array<void *, InlineArgs> Inline{};
  std::vector<void *> Heap;
  void **Params = Inline.data();
  if (Slots > InlineArgs) {
    Heap.resize(Slots);
    Params = Heap.data();
  }
  for (std::size_t I = 0; I < Count; ++I) {
    if (TensorMapArg *Map = Args[I].tensorMap())
      encodeTensorMap(*Map);
    Params[I] = const_cast<void *>(Args[I].data());
  }
  const cu::DriverApi &D = cu::driver();
  auto Stream = static_cast<cu::CUstream>(S.handle());
  cu::CUdeviceptr Scratch = 0;
  if (Info->GlobalScratchBytes) {
    if (!D.cuMemAllocAsync || !D.cuMemFreeAsync)
      throw Error("kernel " + Info->Name +
                  " builds tensor maps in global memory, and the CUDA driver has no "
                  "cuMemAllocAsync (CUDA 12.3 or newer is needed for such kernels)");
    std::size_t Bytes = Info->GlobalScratchBytes;
    for (unsigned Programs : {G.X, G.Y, G.Z})
      if (__builtin_mul_overflow(Bytes, std::size_t(Programs), &Bytes))
        throw Error("kernel " + Info->Name + ": the global scratch of a " +
                    std::to_string(G.X) + " x " + std::to_string(G.Y) + " x " +
                    std::to_string(G.Z) + " grid does not fit in memory");
    if (cu::CUresult R = D.cuMemAllocAsync(&Scratch, Bytes ? Bytes : 1, Stream);
        R != cu::CUDA_SUCCESS)
      cu::fail(R, "cuMemAllocAsync",
               "while allocating the " + std::to_string(Bytes) + "-byte global scratch of " +
                   Info->Name);
    if (Scratch % 128) { // Maps need 64 bytes; the stores and the pool give more.
      (void)D.cuMemFreeAsync(Scratch, Stream);
      throw Error("kernel " + Info->Name + ": cuMemAllocAsync returned global scratch at " +
                  std::to_string(Scratch) + ", not 128-byte aligned");
    }
    Params[Count] = &Scratch;
  }
  cu::CUresult R = D.cuLaunchKernel(static_cast<cu::CUfunction>(Function), G.X, G.Y, G.Z,
                                    blockSize(), 1, 1,
                                    static_cast<unsigned>(Info->SharedBytes), Stream,
                                    Params, nullptr);
  // After the kernel, in stream order; a failure here would leak only.
  if (Scratch)
    (void)D.cuMemFreeAsync(Scratch, Stream);
  if (R != cu::CUDA_SUCCESS)
    cu::fail(R, "cuLaunchKernel", "while launching " + Info->Name);
}

KernelResources Kernel::resources() const {
  if (Owner->Program)
    return KernelResources{}; // No registers or shared memory on the CPU.
  auto Attribute = [&](cu::CUfunction_attribute Attr, const char *What) {
    int Value = 0;
    cu::CUresult Result = cu::driver().cuFuncGetAttribute(
        &Value, Attr, static_cast<cu::CUfunction>(Function));
    if (Result != cu::CUDA_SUCCESS)
      cu::fail(Result, "cuFuncGetAttribute",
               std::string("asking for the ") + What + " of " + Info->Name);
    return Value;
  };
  KernelResources R;
  R.Registers = Attribute(cu::CU_FUNC_ATTRIBUTE_NUM_REGS, "registers");
  R.LocalBytes = static_cast<std::size_t>(
      Attribute(cu::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, "local memory"));
  R.StaticSharedBytes = static_cast<std::size_t>(
      Attribute(cu::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "static shared memory"));
  R.MaxThreadsPerBlock =
      Attribute(cu::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "threads per block");
  return R;
}

} // namespace tile
