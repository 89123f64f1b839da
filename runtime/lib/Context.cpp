//===- Context.cpp - Devices and primary contexts -------------------------===//
#include "tile/Context.h"

#include "Internal.h"
#include "tile/Error.h"

namespace tile {

namespace detail {

ContextState::~ContextState() {
  if (!Ctx)
    return;
  if (const cu::DriverApi *D = cu::tryDriver(nullptr))
    D->cuDevicePrimaryCtxRelease(Device);
}

void ContextState::makeCurrent() const {
  cu::check(cu::driver().cuCtxSetCurrent(Ctx), "cuCtxSetCurrent");
}

} // namespace detail

namespace {

int attribute(const cu::DriverApi &D, cu::CUdevice Device,
              cu::CUdevice_attribute Attr) {
  int Value = 0;
  cu::check(D.cuDeviceGetAttribute(&Value, Attr, Device),
            "cuDeviceGetAttribute");
  return Value;
}

} // namespace

Context::Context(int Device) {
  const cu::DriverApi &D = cu::driver();
  int Count = deviceCount();
  if (Device < 0 || Device >= Count)
    throw Error("no CUDA device " + std::to_string(Device) + " (there are " +
                std::to_string(Count) + ")");
  auto S = std::make_shared<detail::ContextState>();
  S->Ordinal = Device;
  cu::check(D.cuDeviceGet(&S->Device, Device), "cuDeviceGet");
  char Name[256] = {};
  cu::check(D.cuDeviceGetName(Name, sizeof(Name) - 1, S->Device),
            "cuDeviceGetName");
  S->Name = Name;
  S->CC.Major =
      attribute(D, S->Device, cu::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  S->CC.Minor =
      attribute(D, S->Device, cu::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  S->SmCount =
      attribute(D, S->Device, cu::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  S->MaxSharedOptin = static_cast<std::size_t>(attribute(
      D, S->Device, cu::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
  cu::check(D.cuDevicePrimaryCtxRetain(&S->Ctx, S->Device),
            "cuDevicePrimaryCtxRetain");
  S->makeCurrent();
  State = std::move(S);
}

int Context::device() const noexcept { return State->Ordinal; }

const std::string &Context::deviceName() const noexcept { return State->Name; }

ComputeCapability Context::computeCapability() const noexcept {
  return State->CC;
}

int Context::smCount() const noexcept { return State->SmCount; }

std::size_t Context::maxSharedBytesOptin() const noexcept {
  return State->MaxSharedOptin;
}

void Context::makeCurrent() const { State->makeCurrent(); }

void Context::synchronize() const {
  State->makeCurrent();
  cu::check(cu::driver().cuCtxSynchronize(), "cuCtxSynchronize");
}

} // namespace tile
