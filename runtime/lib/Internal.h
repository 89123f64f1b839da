//===- Internal.h - Shared state behind the public handles -------*- C++
//-*-===//
//
// The state that Context and Module handles share with the objects created
// from them. Private to the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_INTERNAL_H
#define TILE_LIB_INTERNAL_H

#include "DriverApi.h"
#include "InterpreterBackend.h"
#include "tile/Context.h"
#include "tile/Metadata.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tile {
namespace detail {

/// A retained primary context and the properties of its device.
struct ContextState {
  Backend Kind = Backend::Gpu;
  int Ordinal = 0;
  cu::CUdevice Device = 0;
  cu::CUcontext Ctx = nullptr; ///< Null until retained.
  std::string Name;
  ComputeCapability CC;
  int SmCount = 0;
  std::size_t MaxSharedOptin = 0;

  ContextState() = default;
  ContextState(const ContextState &) = delete;
  ContextState &operator=(const ContextState &) = delete;
  /// Releases the primary context; errors are ignored.
  ~ContextState();

  /// Makes the context current on the calling thread (nothing to do for
  /// the interpreter).
  void makeCurrent() const;
  bool interpreted() const noexcept { return Kind == Backend::Interpreter; }
};

/// A loaded CUmodule with its metadata and one CUfunction per kernel.
struct ModuleState {
  std::shared_ptr<ContextState> Ctx;
  ModuleMetadata Meta;
  std::string Origin;                    ///< The PTX's name, for messages.
  cu::CUmodule Handle = nullptr;         ///< Null until loaded.
  std::vector<cu::CUfunction> Functions; ///< Parallel to Meta.Kernels.
  /// The module in the interpreter, for an interpreter context.
  std::shared_ptr<InterpretedProgram> Program;
  /// The module in the interpreter beside the GPU's, for differential
  /// launches (TILE_DIFFERENTIAL=1); loaded on the first.
  std::shared_ptr<InterpretedProgram> Shadow;
  std::mutex ShadowLock;

  ModuleState() = default;
  ModuleState(const ModuleState &) = delete;
  ModuleState &operator=(const ModuleState &) = delete;
  /// Unloads the module; errors are ignored.
  ~ModuleState();
};

} // namespace detail
} // namespace tile

#endif // TILE_LIB_INTERNAL_H
