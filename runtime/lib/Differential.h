//===- Differential.h - GPU launches checked against the interpreter -*- C++ -*-===//
//
// With TILE_DIFFERENTIAL=1, every launch on a GPU context also runs on the
// interpreter from a copy of the same inputs, and every buffer an argument
// points into is compared afterwards. Private to the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_DIFFERENTIAL_H
#define TILE_LIB_DIFFERENTIAL_H

#include "Internal.h"
#include "tile/Args.h"
#include "tile/Kernel.h"

#include <functional>

namespace tile::detail {

/// True when TILE_DIFFERENTIAL is "1".
bool differentialEnabled() noexcept;

/// Runs \p Kernel of \p Owner on the interpreter from a snapshot of the
/// buffers \p Args point into, then on the GPU through \p LaunchOnGpu,
/// waits, and compares each buffer: integers must be equal, floats within
/// a norm-wise tolerance of their type. Writes one line per buffer, and a
/// verdict, to $TILE_DIFFERENTIAL_LOG (appended) or stderr. Exceptions of
/// the GPU launch propagate; an interpreter failure is logged.
void launchDifferential(ModuleState &Owner, const KernelInfo &Kernel, const Grid &G,
                        const Arg *Args, std::size_t Count,
                        const std::function<void()> &LaunchOnGpu);

} // namespace tile::detail

#endif // TILE_LIB_DIFFERENTIAL_H
