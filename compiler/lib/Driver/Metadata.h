//===- Metadata.h - The JSON that travels beside the PTX --------*- C++ -*-===//
//
// What the runtime needs to launch a compiled kernel without the compiler:
// its name, parameters and their types, constexpr values, warps, shared
// memory, the target, where it came from, a hash of the PTX it describes
// (the runtime refuses a PTX whose hash differs; the same for a cubin), and
// the module at the tile stage, which the interpreter runs in place of the
// PTX.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_DRIVER_METADATA_H
#define TILEC_LIB_DRIVER_METADATA_H

#include "tilec/Frontend/Sema.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec {

/// Facts about a whole compiled module.
struct ModuleFacts {
  std::string version;    ///< tilec's version.
  std::string source;     ///< The .tile path as given.
  std::string sourceText; ///< Its contents (hashed).
  std::string target;     ///< sm_80, sm_90, sm_90a.
  /// The module at the tile stage with its source locations, which the
  /// interpreter runs ("tile_ir").
  std::string tileIR;
};

/// Writes the metadata JSON for `kernels` as compiled into `ptxModule`,
/// whose PTX text is `ptx` (exactly the bytes written to the .ptx file): its
/// hash goes into "ptx_hash" as ptxHash(ptx). A non-empty `cubin` (what
/// ptxas made of it, tilec --emit=cubin) has its hash in "cubin_hash".
void writeMetadata(llvm::raw_ostream &os, const ModuleFacts &facts,
                   llvm::ArrayRef<std::unique_ptr<KernelInstance>> kernels,
                   const llvm::Module &ptxModule, llvm::StringRef ptx,
                   llvm::StringRef cubin = {});

/// The "ptx_hash" of `ptx`: "fnv1a64:" and fnv1a64(ptx). The runtime
/// (tile::ptxHash) computes the same from the .ptx file.
std::string ptxHash(llvm::StringRef ptx);

} // namespace tilec

#endif // TILEC_LIB_DRIVER_METADATA_H
