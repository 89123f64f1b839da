//===- Metadata.h - The compiler's metadata beside each PTX file -*- C++
//-*-===//
//
// tilec writes OUT.json beside OUT.ptx: for each kernel its parameters (the
// PTX parameters, in order), constexpr values, num_warps and shared-memory
// bytes, and a hash of the PTX. This file parses and validates it, and checks
// it against the PTX it claims to describe.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_METADATA_H
#define TILE_METADATA_H

#include "tile/Types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tile {

struct ParamInfo;
/// The signature type of the host tensor descriptor whose base is \p Base:
/// "tensordesc<fp16[64, 64]>".
std::string descriptorTypeName(const ParamInfo &Base);

/// One kernel (PTX) parameter: constexpr parameters are not among them.
struct ParamInfo {
  std::string Name;   ///< The parameter's name in the .tile source.
  TileType Type;      ///< Its type; pointers are passed as 64-bit addresses.
  unsigned Align = 0; ///< Alignment in bytes the compiler assumed (0: none).
  /// Integer parameters compiled with `--specialize NAME=16`: every argument
  /// must be a multiple of this (0: none).
  unsigned Divisibility = 0;
  /// Integer parameters compiled with `--specialize NAME=1`: every argument
  /// must equal 1.
  bool EqualToOne = false;
  /// The parts of a host tensor descriptor parameter `a` ("a.base",
  /// "a.shape<d>", "a.stride<d>", which one tile::TensorDescriptor argument
  /// fills): the descriptor's name ("a"); empty for other parameters.
  std::string Descriptor;
  /// The descriptor's base part: its block shape (one entry per dimension).
  std::vector<std::int64_t> BlockShape;
  /// The part "a.tensormap" (type "tensormap", after the strides; kernels
  /// for sm_90): a CUtensorMap of the descriptor, 128 bytes by value, which
  /// the launch encodes with boxes of \c TensorMapBox (outermost dimension
  /// first) and a \c TensorMapSwizzle-byte swizzle (0, 32, 64 or 128).
  /// \c Type is then unused.
  bool TensorMap = false;
  std::vector<std::int64_t> TensorMapBox;
  unsigned TensorMapSwizzle = 0;

  /// Bytes the kernel parameter takes (a tensor map's 128, else the type's).
  std::size_t paramBytes() const { return TensorMap ? 128 : Type.paramSize(); }
  /// The type as the metadata spells it: "tensormap", "*fp32", "i32"...
  std::string typeName() const { return TensorMap ? "tensormap" : Type.str(); }
};

/// The value of a constexpr parameter the kernel was compiled with;
/// std::monostate stands for Python's None.
using ConstexprValue =
    std::variant<std::monostate, bool, std::int64_t, double, std::string>;

/// Dynamic shared memory per block a launch may use without raising the
/// kernel's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES.
constexpr std::size_t DefaultSharedBytes = 48 * 1024;

/// Everything the runtime needs to know to launch one kernel.
struct KernelInfo {
  std::string Name;              ///< The PTX entry name.
  unsigned NumWarps = 4;         ///< Block size is NumWarps * 32 threads.
  std::size_t SharedBytes = 0;   ///< Dynamic shared memory per block.
  /// Global memory per program the kernel takes as one more parameter,
  /// after \c Params (tensor maps it builds); the launch allocates it.
  std::size_t GlobalScratchBytes = 0;
  std::vector<ParamInfo> Params; ///< Kernel parameters, in PTX order.
  std::vector<std::pair<std::string, ConstexprValue>>
      Constexprs; ///< In file order.

  /// Returns the constexpr \p Name, or nullptr when there is none.
  const ConstexprValue *findConstexpr(std::string_view Name) const noexcept;
  /// Returns the integer constexpr \p Name; throws tile::Error when it is
  /// missing or not an integer.
  std::int64_t constexprInt(std::string_view Name) const;
  /// Returns the parameters as "x_ptr: *fp32, n_elements: i32" (a host
  /// tensor descriptor's parts as one "a: tensordesc<fp16[64, 64]>").
  std::string paramList() const;
  /// True when the kernel needs more dynamic shared memory than a launch
  /// gets without opting in (48 KiB), so its maximum must be raised first.
  bool needsSharedOptIn() const noexcept;
  /// Throws tile::Error "kernel k needs N bytes of shared memory, but
  /// <Device> allows at most M per block" when SharedBytes exceeds
  /// \p MaxBytes (the device's opt-in maximum per block).
  void checkSharedBytes(std::size_t MaxBytes, const std::string &Device) const;
};

/// The contents of one metadata file.
struct ModuleMetadata {
  std::string TilecVersion;        ///< Version of the compiler that wrote it.
  std::string Source;              ///< The .tile file it was compiled from.
  std::string SourceHash;          ///< Hash of that source.
  std::string Target;              ///< "sm_90", "sm_90a", ...
  std::vector<KernelInfo> Kernels; ///< At least one; names are unique.
  /// ptxHash() of the PTX tilec wrote beside it; empty when the file has no
  /// "ptx_hash" (written by a tilec older than the check).
  std::string PtxHash;
  /// ptxHash() of the cubin ptxas made of that PTX ("cubin_hash", written by
  /// tilec --emit=cubin); empty when there is none.
  std::string CubinHash;
  /// The kernels at the tile stage, as MLIR text with source locations:
  /// what the interpreter runs ("tile_ir"; empty when a tilec older than
  /// the interpreter wrote the file).
  std::string TileIR;
  /// The file it was parsed from (parse()'s Origin), named in messages.
  std::string Origin = "<metadata>";

  /// Parses and validates \p Json; \p Origin (a file name) prefixes every
  /// error message. Throws tile::Error on malformed JSON or a wrong schema.
  static ModuleMetadata parse(std::string_view Json,
                              const std::string &Origin = "<metadata>");
  /// Reads and parses the file at \p Path.
  static ModuleMetadata loadFile(const std::string &Path);

  /// Returns the kernel \p Name, or nullptr when there is none.
  const KernelInfo *findKernel(std::string_view Name) const noexcept;
  /// Returns the kernel names, comma-separated, for error messages.
  std::string kernelNames() const;
  /// Returns the target's compute capability as major*10+minor (sm_90a -> 90).
  int targetArch() const;

  /// Checks that \p Ptx (named \p PtxOrigin in messages) is the PTX this
  /// metadata describes, without the driver: every kernel is an .entry with
  /// the same parameter count and parameter sizes and kinds, num_warps * 32
  /// threads equals its .reqntid (or .maxntid), shared_bytes covers the
  /// static .shared arrays it uses and is not 0 when it uses the dynamic
  /// one, every .entry is listed, and PtxHash equals ptxHash(Ptx). Throws
  /// tile::Error "<PtxOrigin> does not match its metadata <Origin>: <what
  /// differs>", or naming both files when PtxHash is empty.
  void checkPtx(std::string_view Ptx, const std::string &PtxOrigin) const;
  /// Checks that \p Cubin (named \p CubinOrigin in messages) is the cubin
  /// this metadata describes: an ELF image whose ptxHash() equals CubinHash.
  /// Throws tile::Error naming both files otherwise.
  void checkCubin(std::string_view Cubin, const std::string &CubinOrigin) const;
  /// Whether a cubin assembled for Target runs on a GPU of compute
  /// capability \p Arch (major*10+minor): the same major version and a minor
  /// one at least Target's; exactly Target's for an "a" target (sm_90a).
  bool cubinRunsOn(int Arch) const;
};

/// The hash tilec records as "ptx_hash" (and "cubin_hash"): "fnv1a64:"
/// followed by the 64-bit FNV-1a hash of every byte of \p Ptx as 16
/// lowercase hex digits. It finds
/// accidents (an edited, torn or swapped file), not deliberate forgeries.
std::string ptxHash(std::string_view Ptx);

/// True when \p Image is an ELF file (begins with 0x7f 'E' 'L' 'F'), as a
/// cubin is; PTX is text and never begins so.
bool isCubin(std::string_view Image) noexcept;

} // namespace tile

#endif // TILE_METADATA_H
