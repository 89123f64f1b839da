//===- Jit.h - Compiling .tile kernels at run time ---------------*- C++ -*-===//
//
// tile::JitModule loads a .tile source; tile::JitKernel launches one of its
// kernels like a tile::Kernel, compiling it on the first launch of each
// specialization: the argument types (for unannotated parameters), integer
// arguments divisible by 16 or equal to 1, pointers aligned to 16 bytes,
// the constexpr values, num_warps, num_stages and the device's target, as
// Triton's JIT does. Later launches find it in memory; other processes find
// it in the disk cache. Kernels with @autotune are timed over their configs
// on the first launch of each key. Link tile::jit (the runtime and libtilec).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_JIT_H
#define TILE_JIT_H

#include "tile/Args.h"
#include "tile/Context.h"
#include "tile/Kernel.h"
#include "tile/Metadata.h"
#include "tile/Stream.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tile {

namespace detail {
struct JitModuleState;
} // namespace detail

/// How a JitModule compiles and caches.
struct JitOptions {
  /// The target; empty picks the device's (sm_90a on 9.0, sm_80 on 8.x,
  /// sm_90 above 9.0). Required for a module made without a Context.
  std::string Arch;
  /// Read and write the disk cache.
  bool DiskCache = true;
  /// The disk cache's directory; empty: $TILEC_CACHE_DIR, else
  /// $XDG_CACHE_HOME/tilec, else $HOME/.cache/tilec.
  std::string CacheDir;
  /// Save every stage of every compilation (and the IR after each pass)
  /// under this directory, also when the cache holds the kernel (it is then
  /// compiled again to produce them); empty: $TILEC_DUMP_DIR.
  std::string DumpDir;
};

/// Constexpr values of a launch, e.g. {{"BLOCK", 1024}, {"ACT", "gelu"}}.
using Constexprs = std::vector<std::pair<std::string, ConstexprValue>>;

/// What a launch specializes on besides its arguments.
struct LaunchOptions {
  /// Constexpr parameters (defaults fill the rest; an @autotune config
  /// sets its own).
  Constexprs Values;
  /// Override the decorator's (and an @autotune config's).
  std::optional<unsigned> NumWarps, NumStages;
};

/// A launch grid: fixed, or computed from the compiled kernel's metadata
/// (its constexprs, which autotuning picks), like Triton's
/// `grid = lambda META: (triton.cdiv(n, META["BLOCK"]),)`.
class LaunchGrid {
public:
  /// A fixed grid.
  LaunchGrid(const Grid &G) : Fixed(G) {}
  /// A grid computed from the kernel: [](const tile::KernelInfo &K) {
  /// return tile::Grid{cdiv(n, K.constexprInt("BLOCK"))}; }.
  template <class F, std::enable_if_t<std::is_invocable_r_v<Grid, const F &,
                                                             const KernelInfo &>,
                                      int> = 0>
  LaunchGrid(F Fn) : Compute(std::move(Fn)) {}
  /// The grid for \p Info.
  Grid operator()(const KernelInfo &Info) const {
    return Compute ? Compute(Info) : Fixed;
  }

private:
  Grid Fixed;
  std::function<Grid(const KernelInfo &)> Compute;
};

/// One configuration to tune over: the C++ form of @autotune's
/// `config(BLOCK=128, num_warps=8)`.
struct TuneConfig {
  Constexprs Values;                      ///< Constexpr parameters it sets.
  std::optional<unsigned> NumWarps, NumStages; ///< Unset: the decorator's.
};

/// The C++ form of @autotune's arguments (JitKernel::setAutotune).
struct AutotuneSpec {
  std::vector<TuneConfig> Configs; ///< At least one.
  /// Parameters whose argument values select a tuning result.
  std::vector<std::string> Key;
  /// Pointer parameters zeroed before each timed run and after tuning, and
  /// pointer parameters saved before tuning and restored after it.
  std::vector<std::string> ResetToZero, RestoreValue;
  unsigned WarmupMs = 25, RepMs = 100; ///< As Triton's warmup and rep.
};

/// PTX and metadata of one specialization, compiled or read from the cache.
struct JitCompiled {
  std::string Ptx;      ///< The PTX text.
  std::string Metadata; ///< Its metadata JSON.
  bool FromDiskCache = false; ///< Read from the disk cache, not compiled.
};

/// A kernel of a JitModule; a cheap, copyable handle.
class JitKernel {
public:
  /// Launches with \p Options on \p G in \p S, compiling on the first launch
  /// of this specialization (and autotuning on the first launch of a new
  /// @autotune key). Throws tile::Error, before the driver sees anything,
  /// when the arguments do not fit the parameters or the source does not
  /// compile (the compiler's diagnostics in the message).
  template <class... Ts>
  void launch(const LaunchGrid &G, const Stream &S, const LaunchOptions &Options,
              const Ts &...Args) const {
    const std::array<Arg, sizeof...(Ts)> List{Arg(Args)...};
    launchImpl(G, S, Options, List.data(), List.size());
  }
  /// Launches with the constexprs' defaults.
  template <class... Ts,
            std::enable_if_t<(!std::is_same_v<Ts, LaunchOptions> && ...), int> = 0>
  void launch(const LaunchGrid &G, const Stream &S, const Ts &...Args) const {
    launch(G, S, LaunchOptions{}, Args...);
  }
  /// Launches with an argument list built at run time.
  void launch(const LaunchGrid &G, const Stream &S, const LaunchOptions &Options,
              const std::vector<Arg> &Args) const {
    launchImpl(G, S, Options, Args.data(), Args.size());
  }

  /// The compiled kernel these arguments and options launch (compiling it
  /// first when needed), e.g. to read its resources(). An @autotune kernel
  /// must have been launched (tuned) for such arguments first.
  Kernel specialize(const LaunchOptions &Options, const std::vector<Arg> &Args,
                    const Stream &S = Stream()) const;
  /// Compiles the specialization for \p Args without loading it: needs no
  /// GPU. Throws tile::Error with the compiler's diagnostics.
  JitCompiled compile(const LaunchOptions &Options, const std::vector<Arg> &Args) const;

  /// Tunes the kernel over \p Spec on the first launch of each key, as an
  /// @autotune decorator would (replacing the source's, if any). Call it
  /// before launching, not while other threads launch the kernel. Throws
  /// tile::Error when a name is not a parameter (or a config sets a runtime
  /// parameter).
  void setAutotune(const AutotuneSpec &Spec) const;

  /// The kernel's name.
  const std::string &name() const noexcept;
  /// The number of compilations this kernel has loaded in this process.
  std::size_t specializations() const;

private:
  friend class JitModule;
  JitKernel(std::shared_ptr<detail::JitModuleState> Module, std::size_t Index)
      : Module(std::move(Module)), Index(Index) {}
  void launchImpl(const LaunchGrid &G, const Stream &S, const LaunchOptions &Options,
                  const Arg *Args, std::size_t Count) const;

  std::shared_ptr<detail::JitModuleState> Module;
  std::size_t Index;
};

/// A .tile source whose kernels compile on demand; a cheap, copyable handle.
class JitModule {
public:
  /// Reads \p Path; its kernels launch in \p Ctx. Throws tile::Error when
  /// the file cannot be read or does not parse (with the diagnostics).
  static JitModule fromFile(const Context &Ctx, const std::string &Path,
                            JitOptions Options = {});
  /// \p Source named \p Name in messages.
  static JitModule fromSource(const Context &Ctx, std::string Source,
                              std::string Name = "<source>", JitOptions Options = {});
  /// Without a GPU: kernels can only compile() (Options.Arch is required).
  static JitModule fromSource(std::string Source, std::string Name, JitOptions Options);

  /// The kernel \p Name; throws tile::Error listing the source's kernels.
  JitKernel kernel(std::string_view Name) const;

private:
  explicit JitModule(std::shared_ptr<detail::JitModuleState> State)
      : State(std::move(State)) {}
  std::shared_ptr<detail::JitModuleState> State;
};

/// The directory the disk cache uses for \p Options (see JitOptions).
std::string jitCacheDir(const JitOptions &Options = {});

} // namespace tile

#endif // TILE_JIT_H
