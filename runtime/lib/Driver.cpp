//===- Driver.cpp - Loading libcuda at run time ---------------------------===//
//
// Opens libcuda.so.1 (or $TILE_LIBCUDA_PATH) with dlopen, resolves the entry
// points by their exported names, and runs cuInit once per process.
//
//===----------------------------------------------------------------------===//
#include "DriverApi.h"

#include "tile/Context.h"
#include "tile/Error.h"

#include <cstdlib>
#include <dlfcn.h>
#include <initializer_list>

namespace tile {
namespace cu {

namespace {

struct LoadedDriver {
  DriverApi Api = {};
  bool Usable = false;
  std::string Reason;
};

/// Resolves the first of \p Names that \p Lib exports into \p Fn.
template <class Fn>
bool resolve(void *Lib, const std::string &LibName, Fn &Slot,
             std::initializer_list<const char *> Names, std::string &Reason) {
  for (const char *Name : Names)
    if (void *Sym = ::dlsym(Lib, Name)) {
      Slot = reinterpret_cast<Fn>(Sym);
      return true;
    }
  Reason = LibName + " does not export " + *Names.begin() +
           " (CUDA driver too old?)";
  return false;
}

LoadedDriver load() {
  LoadedDriver D;
  const char *Env = std::getenv("TILE_LIBCUDA_PATH");
  std::string LibName = Env && *Env ? Env : "libcuda.so.1";
  // Never closed: objects with static storage may still call the driver.
  void *Lib = ::dlopen(LibName.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    const char *Why = ::dlerror();
    D.Reason = LibName + " not found (" + (Why ? Why : "dlopen failed") + ")";
    return D;
  }
  DriverApi &A = D.Api;
  std::string &R = D.Reason;
#define TILE_RESOLVE(Field, ...)                                               \
  resolve(Lib, LibName, A.Field, {__VA_ARGS__}, R)
  bool Ok =
      TILE_RESOLVE(cuInit, "cuInit") &&
      TILE_RESOLVE(cuGetErrorName, "cuGetErrorName") &&
      TILE_RESOLVE(cuGetErrorString, "cuGetErrorString") &&
      TILE_RESOLVE(cuDeviceGet, "cuDeviceGet") &&
      TILE_RESOLVE(cuDeviceGetCount, "cuDeviceGetCount") &&
      TILE_RESOLVE(cuDeviceGetName, "cuDeviceGetName") &&
      TILE_RESOLVE(cuDeviceGetAttribute, "cuDeviceGetAttribute") &&
      TILE_RESOLVE(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain") &&
      TILE_RESOLVE(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2") &&
      TILE_RESOLVE(cuCtxSetCurrent, "cuCtxSetCurrent") &&
      TILE_RESOLVE(cuCtxSynchronize, "cuCtxSynchronize") &&
      TILE_RESOLVE(cuMemAlloc, "cuMemAlloc_v2") &&
      TILE_RESOLVE(cuMemFree, "cuMemFree_v2") &&
      TILE_RESOLVE(cuMemcpyHtoD, "cuMemcpyHtoD_v2") &&
      TILE_RESOLVE(cuMemcpyDtoH, "cuMemcpyDtoH_v2") &&
      TILE_RESOLVE(cuMemsetD8, "cuMemsetD8_v2") &&
      TILE_RESOLVE(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2") &&
      TILE_RESOLVE(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2") &&
      TILE_RESOLVE(cuMemHostAlloc, "cuMemHostAlloc") &&
      TILE_RESOLVE(cuMemFreeHost, "cuMemFreeHost") &&
      TILE_RESOLVE(cuMemcpyDtoD, "cuMemcpyDtoD_v2") &&
      TILE_RESOLVE(cuMemGetAddressRange, "cuMemGetAddressRange_v2") &&
      TILE_RESOLVE(cuModuleLoadDataEx, "cuModuleLoadDataEx") &&
      TILE_RESOLVE(cuModuleUnload, "cuModuleUnload") &&
      TILE_RESOLVE(cuModuleGetFunction, "cuModuleGetFunction") &&
      TILE_RESOLVE(cuFuncGetAttribute, "cuFuncGetAttribute") &&
      TILE_RESOLVE(cuFuncSetAttribute, "cuFuncSetAttribute") &&
      TILE_RESOLVE(cuLaunchKernel, "cuLaunchKernel") &&
      TILE_RESOLVE(cuStreamCreate, "cuStreamCreate") &&
      TILE_RESOLVE(cuStreamDestroy, "cuStreamDestroy_v2") &&
      TILE_RESOLVE(cuStreamSynchronize, "cuStreamSynchronize") &&
      TILE_RESOLVE(cuEventCreate, "cuEventCreate") &&
      TILE_RESOLVE(cuEventRecord, "cuEventRecord") &&
      TILE_RESOLVE(cuEventSynchronize, "cuEventSynchronize") &&
      TILE_RESOLVE(cuEventElapsedTime, "cuEventElapsedTime_v2",
                   "cuEventElapsedTime") &&
      TILE_RESOLVE(cuEventDestroy, "cuEventDestroy_v2") &&
      TILE_RESOLVE(cuStreamWaitEvent, "cuStreamWaitEvent");
#undef TILE_RESOLVE
  if (!Ok)
    return D;
  // Optional entry points: the runtime works without them.
  A.cuFuncGetParamInfo = reinterpret_cast<decltype(A.cuFuncGetParamInfo)>(
      ::dlsym(Lib, "cuFuncGetParamInfo"));
  A.cuTensorMapEncodeTiled = reinterpret_cast<decltype(A.cuTensorMapEncodeTiled)>(
      ::dlsym(Lib, "cuTensorMapEncodeTiled"));
  A.cuMemAllocAsync =
      reinterpret_cast<decltype(A.cuMemAllocAsync)>(::dlsym(Lib, "cuMemAllocAsync"));
  A.cuMemFreeAsync =
      reinterpret_cast<decltype(A.cuMemFreeAsync)>(::dlsym(Lib, "cuMemFreeAsync"));
  if (CUresult Res = A.cuInit(0); Res != CUDA_SUCCESS) {
    D.Reason = "cuInit failed: " + errorText(A, Res);
    return D;
  }
  int Count = 0;
  if (CUresult Res = A.cuDeviceGetCount(&Count); Res != CUDA_SUCCESS) {
    D.Reason = "cuDeviceGetCount failed: " + errorText(A, Res);
    return D;
  }
  if (Count == 0) {
    D.Reason = "no CUDA device found";
    return D;
  }
  D.Usable = true;
  return D;
}

const LoadedDriver &loaded() {
  static const LoadedDriver D = load();
  return D;
}

} // namespace

std::string errorText(const DriverApi &Api, CUresult Result) {
  const char *Name = nullptr;
  const char *Text = nullptr;
  if (!Api.cuGetErrorName ||
      Api.cuGetErrorName(Result, &Name) != CUDA_SUCCESS || !Name) {
    // A driver that failed cuInit may not describe its errors.
    switch (Result) {
    case 34:
      return "CUDA_ERROR_STUB_LIBRARY (libcuda is the toolkit's stub, not a "
             "driver)";
    case 100:
      return "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)";
    default:
      return "CUDA error " + std::to_string(Result);
    }
  }
  std::string Out = Name;
  if (Api.cuGetErrorString(Result, &Text) == CUDA_SUCCESS && Text)
    Out += std::string(" (") + Text + ")";
  return Out;
}

const DriverApi *tryDriver(std::string *Reason) noexcept {
  try {
    const LoadedDriver &D = loaded();
    if (!D.Usable && Reason)
      *Reason = D.Reason;
    return D.Usable ? &D.Api : nullptr;
  } catch (...) { // Only std::bad_alloc can get here.
    if (Reason)
      Reason->clear();
    return nullptr;
  }
}

const DriverApi &driver() {
  std::string Reason;
  if (const DriverApi *Api = tryDriver(&Reason))
    return *Api;
  throw Error("no usable GPU: " + Reason);
}

void fail(CUresult Result, const char *Call, const std::string &Detail) {
  std::string Message =
      std::string(Call) + " failed: " + errorText(loaded().Api, Result);
  if (!Detail.empty())
    Message += "\n" + Detail;
  throw Error(Message, Result);
}

} // namespace cu

bool gpuAvailable() noexcept { return cu::tryDriver(nullptr) != nullptr; }

std::string gpuUnavailableReason() {
  std::string Reason;
  cu::tryDriver(&Reason);
  return Reason;
}

int deviceCount() {
  int Count = 0;
  cu::check(cu::driver().cuDeviceGetCount(&Count), "cuDeviceGetCount");
  return Count;
}

} // namespace tile
