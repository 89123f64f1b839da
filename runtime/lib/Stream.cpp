//===- Stream.cpp - Streams and event timers ------------------------------===//
#include "tile/Stream.h"

#include "Internal.h"
#include "tile/Error.h"

#include <chrono>
#include <utility>

namespace tile {

namespace {

cu::CUstream raw(const Stream &S) {
  return static_cast<cu::CUstream>(S.handle());
}

} // namespace

Stream::Stream(const Context &Ctx) : Ctx(Ctx.state()) {
  if (this->Ctx->interpreted())
    return; // Interpreted launches are synchronous: the null handle will do.
  this->Ctx->makeCurrent();
  cu::CUstream S = nullptr;
  cu::check(cu::driver().cuStreamCreate(&S, cu::CU_STREAM_NON_BLOCKING),
            "cuStreamCreate");
  Handle = S;
}

Stream::~Stream() { release(); }

Stream::Stream(Stream &&Other) noexcept
    : Ctx(std::move(Other.Ctx)), Handle(std::exchange(Other.Handle, nullptr)),
      Owned(Other.Owned) {}

Stream &Stream::operator=(Stream &&Other) noexcept {
  if (this != &Other) {
    release();
    Ctx = std::move(Other.Ctx);
    Handle = std::exchange(Other.Handle, nullptr);
    Owned = Other.Owned;
  }
  return *this;
}

Stream Stream::wrap(const Context &Ctx, void *CUstream) {
  Stream S;
  S.Ctx = Ctx.state();
  S.Handle = CUstream;
  S.Owned = false;
  return S;
}

void Stream::release() noexcept {
  if (!Handle || !Owned)
    return;
  if (const cu::DriverApi *D = cu::tryDriver(nullptr))
    D->cuStreamDestroy(static_cast<cu::CUstream>(Handle));
  Handle = nullptr;
}

void Stream::synchronize() const {
  if (Ctx ? Ctx->interpreted() : (!Handle && defaultBackend() == Backend::Interpreter))
    return; // Interpreted work is done when its call returns.
  cu::check(cu::driver().cuStreamSynchronize(raw(*this)),
            "cuStreamSynchronize");
}

namespace {

/// An interpreter context's "event": the host clock, in nanoseconds, kept
/// in the event handle's bits.
void *hostNow() {
  auto Ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::steady_clock::now().time_since_epoch())
                .count();
  return reinterpret_cast<void *>(static_cast<std::uintptr_t>(Ns));
}

} // namespace

Event::Event(const Context &Ctx) : Ctx(Ctx.state()) {
  if (this->Ctx->interpreted())
    return;
  this->Ctx->makeCurrent();
  cu::CUevent E = nullptr;
  cu::check(cu::driver().cuEventCreate(&E, cu::CU_EVENT_DEFAULT), "cuEventCreate");
  Handle = E;
}

Event::~Event() { release(); }

void Event::release() noexcept {
  if (Ctx && !Ctx->interpreted() && Handle)
    if (const cu::DriverApi *D = cu::tryDriver(nullptr))
      D->cuEventDestroy(static_cast<cu::CUevent>(Handle));
  Handle = nullptr;
}

Event::Event(Event &&Other) noexcept
    : Ctx(std::move(Other.Ctx)), Handle(std::exchange(Other.Handle, nullptr)) {}

Event &Event::operator=(Event &&Other) noexcept {
  if (this != &Other) {
    release();
    Ctx = std::move(Other.Ctx);
    Handle = std::exchange(Other.Handle, nullptr);
  }
  return *this;
}

void Event::record(const Stream &S) {
  if (Ctx->interpreted()) {
    Handle = hostNow();
    return;
  }
  Ctx->makeCurrent(); // The calling thread may hold another context.
  cu::check(cu::driver().cuEventRecord(static_cast<cu::CUevent>(Handle), raw(S)),
            "cuEventRecord");
}

void Event::wait(const Stream &S) const {
  if (Ctx->interpreted())
    return; // Interpreted work is done when its call returns.
  Ctx->makeCurrent();
  cu::check(cu::driver().cuStreamWaitEvent(raw(S), static_cast<cu::CUevent>(Handle), 0),
            "cuStreamWaitEvent");
}

void Event::synchronize() const {
  if (Ctx->interpreted())
    return;
  cu::check(cu::driver().cuEventSynchronize(static_cast<cu::CUevent>(Handle)),
            "cuEventSynchronize");
}

float Event::elapsedMs(const Event &Later) const {
  if (Ctx->interpreted() && (!Handle || !Later.Handle))
    throw Error("Event::elapsedMs: an event was never recorded");
  if (Ctx->interpreted())
    return static_cast<float>(reinterpret_cast<std::uintptr_t>(Later.Handle) -
                              reinterpret_cast<std::uintptr_t>(Handle)) /
           1e6f;
  float Ms = 0;
  cu::check(cu::driver().cuEventElapsedTime(&Ms, static_cast<cu::CUevent>(Handle),
                                            static_cast<cu::CUevent>(Later.Handle)),
            "cuEventElapsedTime");
  return Ms;
}

Timer::Timer(const Context &Ctx) : Start(Ctx), Stop(Ctx) {}

void Timer::start(const Stream &S) { Start.record(S); }

void Timer::stop(const Stream &S) { Stop.record(S); }

float Timer::elapsedMs() const {
  Stop.synchronize();
  return Start.elapsedMs(Stop);
}

} // namespace tile
