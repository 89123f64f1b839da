//===- Kernel.h - Launching kernels ------------------------------*- C++
//-*-===//
//
// tile::Kernel: one entry point of a loaded module, launched on a grid with
// arguments checked against its metadata first.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_KERNEL_H
#define TILE_KERNEL_H

#include "tile/Args.h"
#include "tile/Metadata.h"
#include "tile/Signature.h"
#include "tile/Stream.h"

#include <array>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace tile {

namespace detail {
struct ModuleState;
} // namespace detail

/// The number of programs along each grid axis.
struct Grid {
  unsigned X = 1; ///< Programs along axis 0.
  unsigned Y = 1; ///< Programs along axis 1.
  unsigned Z = 1; ///< Programs along axis 2.
};

/// Ceiling division, for grid sizes: cdiv(N, BLOCK_SIZE).
template <class T> constexpr T cdiv(T A, T B) { return (A + B - 1) / B; }

/// What the driver's JIT made of a kernel: registers per thread and the
/// local memory each thread uses (register spills and stack), as
/// cuFuncGetAttribute reports them.
struct KernelResources {
  int Registers = 0;                 ///< Registers per thread.
  std::size_t LocalBytes = 0;        ///< Local memory per thread (spills, stack).
  std::size_t StaticSharedBytes = 0; ///< Shared memory declared in the PTX.
  int MaxThreadsPerBlock = 0;        ///< The most threads a launch may have.
};

/// A kernel of a loaded module; keeps the module loaded. Get one from
/// Module::kernel().
class Kernel {
public:
  /// The kernel's metadata.
  const KernelInfo &info() const noexcept { return *Info; }
  /// Threads per program: num_warps * 32.
  unsigned blockSize() const noexcept { return Info->NumWarps * 32; }
  /// Registers, spills and static shared memory of the compiled kernel, so
  /// that a slow configuration can be explained. Throws tile::Error if the
  /// driver cannot tell.
  KernelResources resources() const;

  /// Launches on \p G in stream \p S with \p Args (scalars, DeviceBuffers,
  /// DevicePtrs). Throws tile::Error, before anything reaches the driver,
  /// when the arguments do not match the kernel's parameters.
  template <class... Ts>
  void launch(const Grid &G, const Stream &S, const Ts &...Args) const {
    const std::array<Arg, sizeof...(Ts)> List{Arg(Args)...};
    launchImpl(G, S, List.data(), List.size());
  }
  /// Launches with an argument list built at run time.
  void launch(const Grid &G, const Stream &S,
              const std::vector<Arg> &Args) const {
    launchImpl(G, S, Args.data(), Args.size());
  }

private:
  friend class Module;
  friend class JitKernel;
  Kernel(std::shared_ptr<detail::ModuleState> Owner, const KernelInfo &Info,
         void *Function) noexcept
      : Owner(std::move(Owner)), Info(&Info), Sig(Info), Function(Function) {}

  void launchImpl(const Grid &G, const Stream &S, const Arg *Args,
                  std::size_t Count) const;
  /// cuLaunchKernel with \p Args, which launchImpl checked.
  void launchOnGpu(const Grid &G, const Stream &S, const Arg *Args,
                   std::size_t Count) const;

  std::shared_ptr<detail::ModuleState> Owner;
  const KernelInfo *Info;
  Signature Sig;
  void *Function;
};

} // namespace tile

#endif // TILE_KERNEL_H
