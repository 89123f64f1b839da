//===- Metadata.h - The JSON that travels beside the PTX --------*- C++ -*-===//
//
// What the runtime needs to launch a compiled kernel without the compiler:
// its name, parameters and their types, constexpr values, warps, shared
// memory, the target, and where it came from.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_METADATA_H
#define TILEC_TOOLS_TILEC_METADATA_H

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
};

/// Writes the metadata JSON for `kernels` as compiled into `ptxModule`.
void writeMetadata(llvm::raw_ostream &os, const ModuleFacts &facts,
                   llvm::ArrayRef<std::unique_ptr<KernelInstance>> kernels,
                   const llvm::Module &ptxModule);

/// FNV-1a 64-bit hash of `text`, as 16 hex digits.
std::string hashSource(llvm::StringRef text);

} // namespace tilec

#endif // TILEC_TOOLS_TILEC_METADATA_H
