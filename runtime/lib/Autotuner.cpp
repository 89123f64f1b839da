//===- Autotuner.cpp - Timing an @autotune kernel's configurations --------===//
#include "Autotuner.h"

#include "Internal.h"
#include "tile/Buffer.h"
#include "tile/Error.h"

#include <algorithm>

namespace tile {

namespace {

/// The bytes from \p Address to the end of its allocation.
std::size_t bytesToAllocationEnd(std::uint64_t Address) {
  cu::CUdeviceptr Base = 0;
  std::size_t Size = 0;
  cu::check(cu::driver().cuMemGetAddressRange(&Base, &Size, Address),
            "cuMemGetAddressRange");
  return static_cast<std::size_t>(Base + Size - Address);
}

} // namespace

void resetToZero(const TuneRequest &Request) {
  for (std::size_t I : Request.ResetToZero) {
    std::uint64_t Address = Request.Args[I].address();
    cu::check(cu::driver().cuMemsetD8(Address, 0, bytesToAllocationEnd(Address)),
              "cuMemsetD8");
  }
}

SavedArguments::SavedArguments(const Context &Ctx, const TuneRequest &Request)
    : Ctx(Ctx) {
  Ctx.synchronize();
  for (const auto *List : {&Request.ResetToZero, &Request.RestoreValue})
    for (std::size_t I : *List) {
      if (!Request.Args[I].type().IsPointer)
        throw Error("autotuning: argument " + std::to_string(I + 1) +
                    " is named in reset_to_zero or restore_value but is not a pointer");
      Saved Item;
      Item.Address = Request.Args[I].address();
      Item.Bytes = bytesToAllocationEnd(Item.Address);
      Item.Copy = std::make_unique<DeviceBuffer<unsigned char>>(Ctx, Item.Bytes);
      cu::check(cu::driver().cuMemcpyDtoD(Item.Copy->devicePtr(), Item.Address, Item.Bytes),
                "cuMemcpyDtoD");
      Items.push_back(std::move(Item));
    }
  Ctx.synchronize();
}

void SavedArguments::restore() {
  Ctx.synchronize();
  for (const Saved &Item : Items)
    cu::check(cu::driver().cuMemcpyDtoD(Item.Address, Item.Copy->devicePtr(), Item.Bytes),
              "cuMemcpyDtoD");
  Ctx.synchronize();
  Restored = true;
}

SavedArguments::~SavedArguments() {
  if (Restored)
    return;
  try {
    restore();
  } catch (...) {
    // Best effort while an error propagates.
  }
}

double timeKernel(const Context &Ctx, const Kernel &K, const LaunchGrid &G,
                  const Stream &S, const TuneRequest &Request,
                  const DeviceBuffer<unsigned char> &Flush) {
  Grid Dims = G(K.info());
  Timer T(Ctx);
  auto runOnce = [&] {
    cu::check(cu::driver().cuMemsetD8(Flush.devicePtr(), 1, FlushBytes), "cuMemsetD8");
    resetToZero(Request);
    Ctx.synchronize();
    T.start(S);
    K.launch(Dims, S, std::vector<Arg>(Request.Args, Request.Args + Request.Count));
    T.stop(S);
    return static_cast<double>(T.elapsedMs());
  };
  // Estimate from a few runs, then warm up and measure for the times asked.
  double Estimate = 0;
  for (int I = 0; I < 3; ++I)
    Estimate = runOnce();
  Estimate = std::max(Estimate, 1e-3);
  int Warmup = std::clamp(static_cast<int>(Request.WarmupMs / Estimate), 1, 100);
  int Reps = std::clamp(static_cast<int>(Request.RepMs / Estimate), 5, 200);
  for (int I = 0; I < Warmup; ++I)
    runOnce();
  std::vector<double> Times;
  for (int I = 0; I < Reps; ++I)
    Times.push_back(runOnce());
  std::nth_element(Times.begin(), Times.begin() + Times.size() / 2, Times.end());
  return Times[Times.size() / 2];
}

} // namespace tile
