//===- Context.h - GPU availability, devices and contexts --------*- C++
//-*-===//
//
// Finding out whether a GPU can be used at all, and the primary context of a
// device, which every other runtime object belongs to. A context runs its
// kernels on the GPU or, when asked (Backend::Interpreter, or
// TILE_BACKEND=interpreter for contexts that do not say), on tilec's CPU
// interpreter: the same program then runs without a GPU, every memory
// access checked.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_CONTEXT_H
#define TILE_CONTEXT_H

#include <cstddef>
#include <memory>
#include <string>

namespace tile {

namespace detail {
struct ContextState;
} // namespace detail

/// True when the CUDA driver (libcuda.so.1, or $TILE_LIBCUDA_PATH) loads,
/// initializes and reports at least one device. Never throws.
bool gpuAvailable() noexcept;

/// Why gpuAvailable() is false, e.g. "libcuda.so.1 not found (...)"; empty
/// when a GPU is available.
std::string gpuUnavailableReason();

/// The number of CUDA devices; throws tile::Error when there is no driver.
int deviceCount();

/// Where a Context runs kernels.
enum class Backend {
  Gpu,         ///< The CUDA device, through the driver.
  Interpreter, ///< tilec's interpreter, on host threads (tile/Interpreter.h).
};

/// The backend of a Context that does not name one: Interpreter when the
/// environment variable TILE_BACKEND is "interpreter", Gpu when it is unset,
/// empty or "gpu". Throws tile::Error for any other value.
Backend defaultBackend();

/// True when a Context(0) can be created: the default backend is the GPU
/// and gpuAvailable(), or it is the interpreter and the program links
/// tile::interpreter. Never throws.
bool backendAvailable() noexcept;

/// Why backendAvailable() is false; empty when it is true.
std::string backendUnavailableReason();

/// A compute capability such as 9.0.
struct ComputeCapability {
  int Major = 0; ///< E.g. 9 for sm_90.
  int Minor = 0; ///< E.g. 0 for sm_90.
  /// Returns Major * 10 + Minor, comparable with ModuleMetadata::targetArch().
  int arch() const noexcept { return Major * 10 + Minor; }
};

/// The primary context of one device. A cheap, copyable handle: the context
/// is retained while any copy, or any object created from it, is alive.
class Context {
public:
  /// A context on defaultBackend(): for the GPU, retains the primary context
  /// of device \p Device and makes it current on the calling thread. Throws
  /// tile::Error when there is no such device.
  explicit Context(int Device = 0);
  /// A context on \p B: for Backend::Gpu as Context(Device); for
  /// Backend::Interpreter, the interpreter (Device must be 0), which throws
  /// tile::Error when the program does not link tile::interpreter.
  Context(Backend B, int Device = 0);

  /// Where this context runs kernels.
  Backend backend() const noexcept;

  /// The device ordinal.
  int device() const noexcept;
  /// The device's name, e.g. "NVIDIA H100 80GB HBM3".
  const std::string &deviceName() const noexcept;
  /// The device's compute capability.
  ComputeCapability computeCapability() const noexcept;
  /// The number of streaming multiprocessors.
  int smCount() const noexcept;
  /// The most dynamic shared memory one block may opt in to, in bytes.
  std::size_t maxSharedBytesOptin() const noexcept;

  /// Makes this context current on the calling thread (needed once per
  /// thread other than the one that created the Context).
  void makeCurrent() const;
  /// Waits for all work in this context; throws tile::Error on a failure.
  void synchronize() const;

  /// The shared state, for objects that must keep the context alive.
  const std::shared_ptr<detail::ContextState> &state() const noexcept {
    return State;
  }

private:
  std::shared_ptr<detail::ContextState> State;
};

} // namespace tile

#endif // TILE_CONTEXT_H
