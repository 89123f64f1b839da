//===- InterpreterBackend.h - The seam to tilec's interpreter ---*- C++ -*-===//
//
// What the runtime asks of the interpreter: host memory standing in for
// device memory, and modules loaded from the tile IR in their metadata. The
// runtime itself does not link the compiler; the tile::interpreter library
// (Interpreter.cpp) installs an implementation when a program links it.
// Private to the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_INTERPRETERBACKEND_H
#define TILE_LIB_INTERPRETERBACKEND_H

#include "tile/Args.h"
#include "tile/Kernel.h"
#include "tile/Metadata.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tile::detail {

/// A module loaded into the interpreter.
class InterpretedProgram {
public:
  virtual ~InterpretedProgram() = default;
  /// Runs \p Kernel on \p G with \p Args (already checked against its
  /// signature); throws tile::Error with the interpreter's located message.
  virtual void launch(const KernelInfo &Kernel, const Grid &G, const Arg *Args,
                      std::size_t Count) const = 0;
};

/// The interpreter's memory and loader.
class InterpreterBackend {
public:
  virtual ~InterpreterBackend() = default;
  /// Host memory of \p Bytes standing in for a device allocation; throws
  /// tile::Error when the host is out of memory.
  virtual std::uint64_t allocate(std::size_t Bytes) = 0;
  virtual void release(std::uint64_t Address) noexcept = 0;
  virtual void upload(std::uint64_t Address, const void *Src, std::size_t Bytes) = 0;
  virtual void download(void *Dst, std::uint64_t Address, std::size_t Bytes) const = 0;
  virtual void fill(std::uint64_t Address, std::uint8_t Value, std::size_t Bytes) = 0;
  /// Loads the "tile_ir" of \p Meta; throws tile::Error naming \p Origin
  /// when there is none or the interpreter cannot run it.
  virtual std::shared_ptr<InterpretedProgram> load(const ModuleMetadata &Meta,
                                                   const std::string &Origin) = 0;
  /// What the interpreter calls itself in Context::deviceName().
  virtual std::string name() const = 0;
};

/// The installed interpreter, or null when the program does not link
/// tile::interpreter.
InterpreterBackend *interpreterBackend() noexcept;

/// Installs \p Backend (called once, from tile::interpreter's static
/// initializer).
void installInterpreterBackend(InterpreterBackend *Backend) noexcept;

/// The installed interpreter; throws tile::Error saying how to link it when
/// there is none.
InterpreterBackend &requireInterpreter();

} // namespace tile::detail

#endif // TILE_LIB_INTERPRETERBACKEND_H
