//===- Buffer.cpp - Device memory -----------------------------------------===//
#include "tile/Buffer.h"

#include "Internal.h"
#include "tile/Error.h"
#include "tile/Stream.h"

#include <cstdlib>
#include <string>
#include <utility>

namespace tile {
namespace detail {

namespace {

void checkFits(std::size_t Bytes, std::size_t Size, const char *What) {
  if (Bytes > Size)
    throw Error(std::string(What) + ": " + std::to_string(Bytes) +
                " bytes do not fit in a device buffer of " +
                std::to_string(Size) + " bytes");
}

} // namespace

DeviceAllocation::DeviceAllocation(const Context &Ctx, std::size_t Bytes)
    : Ctx(Ctx.state()) {
  if (Bytes == 0)
    return;
  if (this->Ctx->interpreted()) {
    Ptr = detail::requireInterpreter().allocate(Bytes);
    Size = Bytes;
    return;
  }
  this->Ctx->makeCurrent();
  cu::CUdeviceptr Address = 0;
  cu::CUresult R = cu::driver().cuMemAlloc(&Address, Bytes);
  if (R != cu::CUDA_SUCCESS)
    cu::fail(R, "cuMemAlloc",
             "while allocating " + std::to_string(Bytes) + " bytes on " +
                 this->Ctx->Name);
  Ptr = Address;
  Size = Bytes;
}

DeviceAllocation::~DeviceAllocation() { release(); }

DeviceAllocation::DeviceAllocation(DeviceAllocation &&Other) noexcept
    : Ctx(std::move(Other.Ctx)), Ptr(std::exchange(Other.Ptr, 0)),
      Size(std::exchange(Other.Size, 0)) {}

DeviceAllocation &
DeviceAllocation::operator=(DeviceAllocation &&Other) noexcept {
  if (this != &Other) {
    release();
    Ctx = std::move(Other.Ctx);
    Ptr = std::exchange(Other.Ptr, 0);
    Size = std::exchange(Other.Size, 0);
  }
  return *this;
}

void DeviceAllocation::release() noexcept {
  if (!Ptr)
    return;
  if (Ctx->interpreted()) {
    detail::requireInterpreter().release(Ptr);
    Ptr = 0;
    Size = 0;
    return;
  }
  if (const cu::DriverApi *D = cu::tryDriver(nullptr)) {
    D->cuCtxSetCurrent(Ctx->Ctx);
    D->cuMemFree(Ptr);
  }
  Ptr = 0;
  Size = 0;
}

void DeviceAllocation::upload(const void *Src, std::size_t Bytes) {
  checkFits(Bytes, Size, "copyFromHost");
  if (Bytes == 0)
    return;
  if (Ctx->interpreted())
    return detail::requireInterpreter().upload(Ptr, Src, Bytes);
  Ctx->makeCurrent();
  cu::check(cu::driver().cuMemcpyHtoD(Ptr, Src, Bytes), "cuMemcpyHtoD");
}

void DeviceAllocation::download(void *Dst, std::size_t Bytes) const {
  checkFits(Bytes, Size, "copyToHost");
  if (Bytes == 0)
    return;
  if (Ctx->interpreted())
    return detail::requireInterpreter().download(Dst, Ptr, Bytes);
  Ctx->makeCurrent();
  cu::check(cu::driver().cuMemcpyDtoH(Dst, Ptr, Bytes), "cuMemcpyDtoH");
}

void DeviceAllocation::uploadAsync(const void *Src, std::size_t Bytes, const Stream &S) {
  checkFits(Bytes, Size, "copyFromHostAsync");
  if (Bytes == 0)
    return;
  if (Ctx->interpreted()) // Interpreted work is synchronous.
    return detail::requireInterpreter().upload(Ptr, Src, Bytes);
  Ctx->makeCurrent();
  cu::check(cu::driver().cuMemcpyHtoDAsync(Ptr, Src, Bytes,
                                           static_cast<cu::CUstream>(S.handle())),
            "cuMemcpyHtoDAsync");
}

void DeviceAllocation::downloadAsync(void *Dst, std::size_t Bytes, const Stream &S) const {
  checkFits(Bytes, Size, "copyToHostAsync");
  if (Bytes == 0)
    return;
  if (Ctx->interpreted())
    return detail::requireInterpreter().download(Dst, Ptr, Bytes);
  Ctx->makeCurrent();
  cu::check(cu::driver().cuMemcpyDtoHAsync(Dst, Ptr, Bytes,
                                           static_cast<cu::CUstream>(S.handle())),
            "cuMemcpyDtoHAsync");
}

void DeviceAllocation::fillBytes(std::uint8_t Value) {
  if (Size == 0)
    return;
  if (Ctx->interpreted())
    return detail::requireInterpreter().fill(Ptr, Value, Size);
  Ctx->makeCurrent();
  cu::check(cu::driver().cuMemsetD8(Ptr, Value, Size), "cuMemsetD8");
}

PinnedAllocation::PinnedAllocation(const Context &C, std::size_t Bytes) : Ctx(C.state()) {
  if (Bytes == 0)
    return;
  if (Ctx->interpreted()) {
    Ptr = std::malloc(Bytes);
    if (!Ptr)
      throw Error("PinnedBuffer: cannot allocate " + std::to_string(Bytes) + " bytes");
    return;
  }
  Ctx->makeCurrent();
  if (cu::CUresult R = cu::driver().cuMemHostAlloc(&Ptr, Bytes, 0); R != cu::CUDA_SUCCESS)
    cu::fail(R, "cuMemHostAlloc",
             "allocating " + std::to_string(Bytes) + " bytes of pinned host memory");
}

PinnedAllocation::~PinnedAllocation() { release(); }

PinnedAllocation::PinnedAllocation(PinnedAllocation &&Other) noexcept
    : Ctx(std::move(Other.Ctx)), Ptr(std::exchange(Other.Ptr, nullptr)) {}

PinnedAllocation &PinnedAllocation::operator=(PinnedAllocation &&Other) noexcept {
  if (this != &Other) {
    release();
    Ctx = std::move(Other.Ctx);
    Ptr = std::exchange(Other.Ptr, nullptr);
  }
  return *this;
}

void PinnedAllocation::release() noexcept {
  if (!Ptr)
    return;
  if (Ctx->interpreted())
    std::free(Ptr);
  else if (const cu::DriverApi *D = cu::tryDriver(nullptr))
    D->cuMemFreeHost(Ptr);
  Ptr = nullptr;
}

} // namespace detail
} // namespace tile
