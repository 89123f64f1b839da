//===- Interpreter.h - Running tile kernels on the CPU ----------*- C++ -*-===//
//
// The public interface of tilec's interpreter: it runs the kernels of a
// module at the `tile` stage (the "tile_ir" tilec writes into its metadata,
// or `tilec --emit=tile`) on host threads, whole tiles at a time, over
// memory it owns (HostMemory). Every load and store of an enabled lane is
// checked against the buffer its pointer was derived from, and reads of
// bytes nothing wrote are reported: errors carry the op's file:line:col and
// the program id.
//
// This header includes only the standard library. Interpreted modules may
// be launched from several threads at once; HostMemory is thread-safe.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_INTERPRETER_H
#define TILEC_INTERPRETER_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// The memory interpreted kernels read and write: host allocations at
/// stable addresses, each with a shadow of which of its bytes were written.
class HostMemory {
public:
  HostMemory();
  ~HostMemory();
  HostMemory(const HostMemory &) = delete;
  HostMemory &operator=(const HostMemory &) = delete;

  /// Allocates `bytes` (uninitialized, 256-byte aligned) and returns its
  /// address; 0 when `bytes` is 0 or the host is out of memory.
  std::uint64_t allocate(std::size_t bytes);
  /// Frees the allocation that starts at `address`; false when none does.
  bool release(std::uint64_t address);
  /// Copies `bytes` from `src` to `address`, marking them written; false
  /// when the range is not inside one allocation.
  bool write(std::uint64_t address, const void *src, std::size_t bytes);
  /// Copies `bytes` at `address` to `dst`; false when the range is not
  /// inside one allocation.
  bool read(std::uint64_t address, void *dst, std::size_t bytes) const;
  /// Sets `bytes` at `address` to `value`, marking them written.
  bool fill(std::uint64_t address, std::uint8_t value, std::size_t bytes);

  struct Impl;
  /// The allocations; for the interpreter itself.
  Impl &impl() const { return *State; }

private:
  std::unique_ptr<Impl> State;
};

/// The host threads a launch uses by default: TILE_INTERPRETER_THREADS, or
/// one per core, at most 256.
unsigned defaultInterpreterThreads();

/// The grid of one launch: programs along axes 0, 1 and 2.
using InterpreterGrid = std::array<unsigned, 3>;

/// A parsed module whose kernels can be launched on the interpreter.
class InterpretedModule {
public:
  ~InterpretedModule();

  /// Parses `tileIR` (MLIR text of the tile dialect). On failure returns
  /// null and sets `error` ("<origin>: ..." or "file:line:col: error: ..."
  /// for an op the interpreter cannot run).
  static std::shared_ptr<InterpretedModule>
  parse(std::string_view tileIR, std::string_view origin, std::string &error);

  /// The kernels, in the module's order.
  std::vector<std::string> kernels() const;

  /// Runs kernel `name` on `grid` over `memory`. `params` holds one pointer
  /// per kernel argument, to its bytes (as cuLaunchKernel's kernelParams);
  /// `argNames` names them in messages. Programs run on `threads` host
  /// threads (0: defaultInterpreterThreads(); never more than programs or
  /// 256). Returns "" on
  /// success, else the first error ("file:line:col: error: ... in program
  /// (x, y, z)").
  std::string launch(std::string_view name, InterpreterGrid grid,
                     void *const *params, std::size_t paramCount,
                     const std::vector<std::string> &argNames,
                     HostMemory &memory, unsigned threads = 0) const;

  struct Impl;

private:
  explicit InterpretedModule(std::unique_ptr<Impl> state);
  std::unique_ptr<Impl> State;
};

} // namespace tilec

#endif // TILEC_INTERPRETER_H
