//===- Kernel.cpp - Launching kernels -------------------------------------===//
#include "tile/Kernel.h"

#include "Differential.h"
#include "Internal.h"
#include "tile/Error.h"

#include <array>
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

void Kernel::launchOnGpu(const Grid &G, const Stream &S, const Arg *Args,
                         std::size_t Count) const {
  // cuLaunchKernel reads one pointer per .param of the PTX entry, and from
  // each as many bytes as the .param has. Module::load checked (checkPtx)
  // that the metadata lists exactly the entry's parameters with their sizes,
  // and Sig.check that Args match the metadata, so every slot the driver
  // reads is filled with an Arg of the right size. The inline slots are
  // value-initialised all the same: nothing uninitialised is ever passed.
  constexpr std::size_t InlineArgs = 32;
  std::array<void *, InlineArgs> Inline{};
  std::vector<void *> Heap;
  void **Params = Inline.data();
  if (Count > InlineArgs) {
    Heap.resize(Count);
    Params = Heap.data();
  }
  for (std::size_t I = 0; I < Count; ++I)
    Params[I] = const_cast<void *>(Args[I].data());
  cu::CUresult R = cu::driver().cuLaunchKernel(
      static_cast<cu::CUfunction>(Function), G.X, G.Y, G.Z, blockSize(), 1, 1,
      static_cast<unsigned>(Info->SharedBytes),
      static_cast<cu::CUstream>(S.handle()), Params, nullptr);
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
