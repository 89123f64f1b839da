//===- Stream.h - Streams and event timers -----------------------*- C++
//-*-===//
//
// tile::Stream (a CUDA stream, or the null stream) and tile::Timer, which
// measures GPU time between two points of a stream with events.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_STREAM_H
#define TILE_STREAM_H

#include "tile/Context.h"

#include <memory>

namespace tile {

/// A CUDA stream. Default-constructed, it is the null (legacy default)
/// stream of the current context. Move-only; destroying it destroys the
/// stream it created.
class Stream {
public:
  /// The null stream.
  Stream() noexcept = default;
  /// Creates a new stream in \p Ctx.
  explicit Stream(const Context &Ctx);
  /// Destroys the stream it created; errors are ignored.
  ~Stream();
  Stream(Stream &&Other) noexcept;
  Stream &operator=(Stream &&Other) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;

  /// A stream that someone else created and destroys (PyTorch's current
  /// stream, `at::cuda::getCurrentCUDAStream().stream()`, or CuPy's
  /// `cupy.cuda.get_current_stream().ptr`): launches and copies on it are
  /// ordered with that framework's work. It must belong to \p Ctx's device
  /// and outlive the Stream; nullptr is the null stream.
  static Stream wrap(const Context &Ctx, void *CUstream);

  /// The CUstream (nullptr for the null stream).
  void *handle() const noexcept { return Handle; }
  /// Waits for all work queued on the stream; throws on a failure.
  void synchronize() const;

private:
  void release() noexcept;

  std::shared_ptr<detail::ContextState> Ctx;
  void *Handle = nullptr;
  bool Owned = true; ///< Destroyed with this object (false for wrap()).
};

/// A CUDA event: a point in a stream's work that the host or another
/// stream can wait for, with the time it was reached. On the interpreter,
/// whose work is synchronous, it records the host clock.
class Event {
public:
  /// Creates the event in \p Ctx.
  explicit Event(const Context &Ctx);
  /// Destroys the event; errors are ignored.
  ~Event();
  Event(Event &&Other) noexcept;
  Event &operator=(Event &&Other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;

  /// Marks the point reached by the work queued on \p S so far.
  void record(const Stream &S = Stream());
  /// Makes \p S wait, on the device, until the recorded point is reached
  /// (the host does not block).
  void wait(const Stream &S) const;
  /// Blocks the host until the recorded point is reached.
  void synchronize() const;
  /// Milliseconds from this event to \p Later; both must have been reached.
  float elapsedMs(const Event &Later) const;

private:
  void release() noexcept;

  std::shared_ptr<detail::ContextState> Ctx;
  void *Handle = nullptr;
};

/// Measures GPU time between start() and stop() on a stream with two events.
class Timer {
public:
  /// Creates the events in \p Ctx.
  explicit Timer(const Context &Ctx);

  /// Records the start event on \p S.
  void start(const Stream &S = Stream());
  /// Records the stop event on \p S.
  void stop(const Stream &S = Stream());
  /// Waits for the stop event and returns the milliseconds between the two.
  float elapsedMs() const;

private:
  Event Start, Stop;
};

} // namespace tile

#endif // TILE_STREAM_H
