//===- Libdevice.h - Linking NVIDIA's libdevice math library ----*- C++ -*-===//
//
// The lowering calls libdevice (`__nv_sinf`, `__nv_logf`, ...) for the math
// functions PTX has no accurate instruction for. This links the needed
// functions from `libdevice.10.bc` into the module before optimization.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_LIBDEVICE_H
#define TILEC_TARGET_LIBDEVICE_H

#include "llvm/IR/Module.h"

#include <string>

namespace mlir::tilec {

/// The environment variable that names libdevice.10.bc.
constexpr const char *kLibdeviceEnvVar = "TILEC_LIBDEVICE";

/// The path of libdevice.10.bc: `explicitPath` when not empty, else
/// $TILEC_LIBDEVICE, $CUDA_HOME/nvvm/libdevice/,
/// /usr/local/cuda/nvvm/libdevice/ or /usr/lib/nvidia-cuda-toolkit/libdevice/,
/// whichever exists first; empty when none does.
std::string findLibdevice(llvm::StringRef explicitPath);

/// The name of the first libdevice function (`__nv_*`) that `module` calls
/// and does not define; empty when there is none.
std::string firstLibdeviceCall(const llvm::Module &module);

/// Links the libdevice functions `module` calls from the bitcode file at
/// `path`, internalizes them, and sets `nvvm-reflect-ftz` to 0 (no flush to
/// zero). Returns an error message on failure, empty on success.
std::string linkLibdevice(llvm::Module &module, llvm::StringRef path);

} // namespace mlir::tilec

#endif // TILEC_TARGET_LIBDEVICE_H
