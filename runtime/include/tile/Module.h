//===- Module.h - Loading PTX and its metadata -------------------*- C++
//-*-===//
//
// tile::Module: PTX JIT-compiled by the driver into one context, together with
// the metadata describing its kernels.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_MODULE_H
#define TILE_MODULE_H

#include "tile/Context.h"
#include "tile/Metadata.h"

#include <memory>
#include <string>
#include <string_view>

namespace tile {

class Kernel;

namespace detail {
struct ModuleState;
} // namespace detail

/// A loaded module. A cheap, copyable handle: the module is unloaded when the
/// last copy and the last Kernel taken from it are gone.
class Module {
public:
  /// Checks \p Meta against \p Ptx (ModuleMetadata::checkPtx), then
  /// JIT-compiles \p Ptx in \p Ctx; a cubin (tilec --emit=cubin: an ELF
  /// image, checked by ModuleMetadata::checkCubin) is loaded as it is, on a
  /// GPU it was assembled for. Throws tile::Error naming both files when
  /// they do not match, carrying the JIT error log when the driver rejects
  /// the PTX, or naming both targets when the device is older than
  /// Meta.Target (or, for a cubin, of another major version). \p Origin
  /// names the PTX in messages.
  static Module load(const Context &Ctx, const std::string &Ptx,
                     ModuleMetadata Meta, const std::string &Origin = "<ptx>");
  /// Reads \p PtxPath ("x.ptx", or a cubin "x.cubin") and the metadata
  /// beside it ("x.json"), then loads them. Throws tile::Error naming a missing or malformed file, or
  /// both files when they do not match.
  static Module loadFile(const Context &Ctx, const std::string &PtxPath);

  /// Returns the kernel \p Name; throws tile::Error listing the module's
  /// kernels when there is no such kernel.
  Kernel kernel(std::string_view Name) const;
  /// The metadata the module was loaded with.
  const ModuleMetadata &metadata() const noexcept;

private:
  explicit Module(std::shared_ptr<detail::ModuleState> State)
      : State(std::move(State)) {}

  std::shared_ptr<detail::ModuleState> State;
};

/// Returns the metadata path beside \p PtxPath: "dir/x.ptx" (or
/// "dir/x.cubin") -> "dir/x.json".
std::string metadataPathFor(const std::string &PtxPath);

} // namespace tile

#endif // TILE_MODULE_H
