//===- Context.cpp - Devices and primary contexts -------------------------===//
#include "tile/Context.h"

#include "Internal.h"
#include "tile/Error.h"

#include <atomic>
#include <cstdlib>
#include <thread>

namespace tile {

namespace detail {

ContextState::~ContextState() {
  if (!Ctx)
    return;
  if (const cu::DriverApi *D = cu::tryDriver(nullptr))
    D->cuDevicePrimaryCtxRelease(Device);
}

namespace {
std::atomic<InterpreterBackend *> Installed{nullptr};
} // namespace

InterpreterBackend *interpreterBackend() noexcept { return Installed.load(); }

void installInterpreterBackend(InterpreterBackend *Backend) noexcept {
  Installed.store(Backend);
}

InterpreterBackend &requireInterpreter() {
  if (InterpreterBackend *B = interpreterBackend())
    return *B;
  throw Error("the interpreter backend was asked for, but this program does "
              "not link it: link tile::interpreter (CMake target "
              "tile_interpreter) beside tile::runtime");
}

void ContextState::makeCurrent() const {
  if (interpreted())
    return;
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

Backend defaultBackend() {
  const char *Value = std::getenv("TILE_BACKEND");
  std::string Name = Value ? Value : "";
  if (Name.empty() || Name == "gpu")
    return Backend::Gpu;
  if (Name == "interpreter")
    return Backend::Interpreter;
  throw Error("TILE_BACKEND is '" + Name +
              "'; expected 'gpu' or 'interpreter' (or unset)");
}

bool backendAvailable() noexcept {
  try {
    return defaultBackend() == Backend::Gpu ? gpuAvailable()
                                            : detail::interpreterBackend() != nullptr;
  } catch (...) {
    return false;
  }
}

std::string backendUnavailableReason() {
  try {
    if (defaultBackend() == Backend::Gpu)
      return gpuUnavailableReason();
    detail::requireInterpreter();
    return "";
  } catch (const Error &E) {
    return E.what();
  }
}

Context::Context(int Device) : Context(defaultBackend(), Device) {}

Context::Context(Backend B, int Device) {
  if (B == Backend::Interpreter) {
    detail::InterpreterBackend &I = detail::requireInterpreter();
    if (Device != 0)
      throw Error("the interpreter has one device, 0; asked for " +
                  std::to_string(Device));
    auto S = std::make_shared<detail::ContextState>();
    S->Kind = Backend::Interpreter;
    S->Name = I.name();
    S->CC = {9, 0};
    S->SmCount = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    S->MaxSharedOptin = 232448;
    State = std::move(S);
    return;
  }
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

Backend Context::backend() const noexcept { return State->Kind; }

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
  if (State->interpreted())
    return; // Interpreted launches finish before they return.
  State->makeCurrent();
  cu::check(cu::driver().cuCtxSynchronize(), "cuCtxSynchronize");
}

} // namespace tile
