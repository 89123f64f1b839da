//===- Autotuner.h - Timing an @autotune kernel's configurations -*- C++ -*-===//
//
// The JIT's autotuner: times each compiled configuration on the launch's own
// arguments, as Triton's do_bench does (L2 flushed before every run, warm-up
// then measured runs sized by time, the median kept), zeroing the
// reset_to_zero arguments before each run and restoring the restore_value
// arguments afterwards.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_AUTOTUNER_H
#define TILE_LIB_AUTOTUNER_H

#include "tile/Args.h"
#include "tile/Buffer.h"
#include "tile/Context.h"
#include "tile/Jit.h"
#include "tile/Kernel.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace tile {

/// What to time and how.
struct TuneRequest {
  const Arg *Args = nullptr;
  std::size_t Count = 0;
  /// Indices into Args of the pointers zeroed before each run.
  std::vector<std::size_t> ResetToZero;
  /// Indices into Args of the pointers saved before tuning and restored
  /// after it.
  std::vector<std::size_t> RestoreValue;
  unsigned WarmupMs = 25, RepMs = 100;
};

/// Times \p Kernel (launched on \p G in \p S with the request's arguments):
/// the median milliseconds of one run, \p Flush (at least 256 MiB) written
/// before each run to empty L2. Throws tile::Error when a launch fails.
double timeKernel(const Context &Ctx, const Kernel &K, const LaunchGrid &G,
                  const Stream &S, const TuneRequest &Request,
                  const DeviceBuffer<unsigned char> &Flush);

/// The bytes L2 flushes write.
constexpr std::size_t FlushBytes = 256u << 20;

/// Device copies of the memory that the reset_to_zero and restore_value
/// arguments point to, from the pointer to the end of its allocation (which
/// may hold other tensors: a caching allocator's block), taken before
/// tuning and copied back when tuning ends, also by an exception.
class SavedArguments {
public:
  /// Copies; throws tile::Error when an argument is not a pointer.
  SavedArguments(const Context &Ctx, const TuneRequest &Request);
  /// Copies the saved bytes back (ignoring errors) unless restore() did.
  ~SavedArguments();
  SavedArguments(const SavedArguments &) = delete;
  SavedArguments &operator=(const SavedArguments &) = delete;
  /// Copies the saved bytes back and waits for the copies.
  void restore();

private:
  struct Saved {
    std::uint64_t Address = 0;
    std::size_t Bytes = 0;
    std::unique_ptr<DeviceBuffer<unsigned char>> Copy;
  };
  const Context &Ctx;
  std::vector<Saved> Items;
  bool Restored = false;
};

/// Zeroes the memory of the reset_to_zero arguments (to their allocations'
/// ends; SavedArguments restores it).
void resetToZero(const TuneRequest &Request);

} // namespace tile

#endif // TILE_LIB_AUTOTUNER_H
