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
#include "tile/Context.h"
#include "tile/Jit.h"
#include "tile/Kernel.h"

#include <cstddef>
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
/// the median milliseconds of one run. Throws tile::Error when a launch
/// fails.
double timeKernel(const Context &Ctx, const Kernel &K, const LaunchGrid &G,
                  const Stream &S, const TuneRequest &Request);

/// Copies of the memory the restore_value arguments point to, from the
/// pointer to the end of its allocation; restored by restore().
class SavedArguments {
public:
  SavedArguments(const Context &Ctx, const TuneRequest &Request);
  /// Copies the saved bytes back.
  void restore() const;

private:
  struct Saved {
    std::uint64_t Address = 0;
    std::size_t Bytes = 0;
    std::vector<unsigned char> Copy;
  };
  std::vector<Saved> Items;
};

/// Zeroes the memory of the reset_to_zero arguments (to their allocations'
/// ends).
void resetToZero(const TuneRequest &Request);

} // namespace tile

#endif // TILE_LIB_AUTOTUNER_H
