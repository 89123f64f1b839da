//===- Signature.h - Kernel argument checking --------------------*- C++
//-*-===//
//
// Checks a list of arguments against a kernel's metadata before anything
// reaches the driver: count, types and pointer alignment.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_SIGNATURE_H
#define TILE_SIGNATURE_H

#include "tile/Args.h"
#include "tile/Metadata.h"

#include <cstddef>

namespace tile {

/// The parameter list of one kernel, able to check arguments against it.
class Signature {
public:
  /// Refers to \p Info, which must outlive the signature.
  explicit Signature(const KernelInfo &Info) noexcept : Info(&Info) {}

  /// Throws tile::Error when \p Args does not match the parameters, e.g.
  /// "add_kernel expects 4 arguments (x_ptr: *fp32, ...), got 3",
  /// "argument 2 'y_ptr' of add_kernel: expected *fp32, got *fp16", or a
  /// pointer not aligned as the compiler assumed.
  void check(const Arg *Args, std::size_t Count) const;
  /// Whether the kernel has a host tensor descriptor parameter or \p Args
  /// holds a tile::TensorDescriptor: launches then go through
  /// expandDescriptors.
  bool needsExpansion(const Arg *Args, std::size_t Count) const noexcept;
  /// \p Args with each tile::TensorDescriptor replaced by the parameters
  /// it fills (base, shape, strides), each argument checked as check()
  /// checks it. Throws tile::Error when the count differs (a descriptor
  /// counting once), a descriptor meets another parameter or the other way
  /// round, or a descriptor does not fit its parameter: element type, rank,
  /// block shape, a base not 16-byte aligned, a last stride other than 1,
  /// other strides not whole 16 bytes, a dimension outside [1, 2^32] or not
  /// a multiple of 16 where the kernel assumes one (`:16`).
  std::vector<Arg> expandDescriptors(const Arg *Args, std::size_t Count) const;

private:
  const KernelInfo *Info;
};

} // namespace tile

#endif // TILE_SIGNATURE_H
