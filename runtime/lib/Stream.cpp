//===- Stream.cpp - Streams and event timers ------------------------------===//
#include "tile/Stream.h"

#include "Internal.h"
#include "tile/Error.h"

#include <utility>

namespace tile {

namespace {

cu::CUstream raw(const Stream &S) {
  return static_cast<cu::CUstream>(S.handle());
}

} // namespace

Stream::Stream(const Context &Ctx) : Ctx(Ctx.state()) {
  this->Ctx->makeCurrent();
  cu::CUstream S = nullptr;
  cu::check(cu::driver().cuStreamCreate(&S, cu::CU_STREAM_NON_BLOCKING),
            "cuStreamCreate");
  Handle = S;
}

Stream::~Stream() { release(); }

Stream::Stream(Stream &&Other) noexcept
    : Ctx(std::move(Other.Ctx)), Handle(std::exchange(Other.Handle, nullptr)) {}

Stream &Stream::operator=(Stream &&Other) noexcept {
  if (this != &Other) {
    release();
    Ctx = std::move(Other.Ctx);
    Handle = std::exchange(Other.Handle, nullptr);
  }
  return *this;
}

void Stream::release() noexcept {
  if (!Handle)
    return;
  if (const cu::DriverApi *D = cu::tryDriver(nullptr))
    D->cuStreamDestroy(static_cast<cu::CUstream>(Handle));
  Handle = nullptr;
}

void Stream::synchronize() const {
  cu::check(cu::driver().cuStreamSynchronize(raw(*this)),
            "cuStreamSynchronize");
}

Timer::Timer(const Context &Ctx) : Ctx(Ctx.state()) {
  const cu::DriverApi &D = cu::driver();
  this->Ctx->makeCurrent();
  cu::CUevent E = nullptr;
  cu::check(D.cuEventCreate(&E, cu::CU_EVENT_DEFAULT), "cuEventCreate");
  Start = E;
  cu::CUresult R = D.cuEventCreate(&E, cu::CU_EVENT_DEFAULT);
  if (R != cu::CUDA_SUCCESS) {
    D.cuEventDestroy(static_cast<cu::CUevent>(Start));
    cu::fail(R, "cuEventCreate");
  }
  Stop = E;
}

Timer::~Timer() {
  if (const cu::DriverApi *D = cu::tryDriver(nullptr)) {
    D->cuEventDestroy(static_cast<cu::CUevent>(Start));
    D->cuEventDestroy(static_cast<cu::CUevent>(Stop));
  }
}

void Timer::start(const Stream &S) {
  cu::check(cu::driver().cuEventRecord(static_cast<cu::CUevent>(Start), raw(S)),
            "cuEventRecord");
}

void Timer::stop(const Stream &S) {
  cu::check(cu::driver().cuEventRecord(static_cast<cu::CUevent>(Stop), raw(S)),
            "cuEventRecord");
}

float Timer::elapsedMs() const {
  const cu::DriverApi &D = cu::driver();
  cu::check(D.cuEventSynchronize(static_cast<cu::CUevent>(Stop)),
            "cuEventSynchronize");
  float Ms = 0;
  cu::check(D.cuEventElapsedTime(&Ms, static_cast<cu::CUevent>(Start),
                                 static_cast<cu::CUevent>(Stop)),
            "cuEventElapsedTime");
  return Ms;
}

} // namespace tile
