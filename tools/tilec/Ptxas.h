//===- Ptxas.h - Running NVIDIA's ptxas --------------------------*- C++ -*-===//
//
// `tilec --report`: assembles the PTX with NVIDIA's ptxas (-v) and condenses
// what it says about each kernel (registers per thread, spill stores and
// loads, stack, barriers), so that a slow configuration can be explained at
// build time. The runtime reports the same from the driver's JIT
// (tile::Kernel::resources()). `tilec --emit=cubin`: the cubin ptxas makes
// of the PTX, so that ptxas's errors surface at build time.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_PTXAS_H
#define TILEC_TOOLS_TILEC_PTXAS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tilec {

/// ptxas from $TILEC_PTXAS, $CUDA_HOME/bin, /usr/local/cuda/bin or PATH;
/// empty if none is found.
std::string findPtxas();

/// One line per kernel of `ptx` assembled for `arch` by `ptxas`, e.g.
/// "add_kernel: 31 registers, 0 bytes spill stores, 0 bytes spill loads,
/// 0 bytes stack, 0 barriers". None with `error` set when ptxas fails (its
/// messages included).
std::optional<std::string> ptxasReport(llvm::StringRef ptxas, llvm::StringRef ptx,
                                       llvm::StringRef arch, std::string &error);

/// The cubin `ptxas` assembles from `ptx` for `arch` at `optLevel` (0 to 3),
/// with line information when `lineInfo`. None with `error` set when ptxas
/// fails (its messages included).
std::optional<std::string> assembleCubin(llvm::StringRef ptxas, llvm::StringRef ptx,
                                         llvm::StringRef arch, unsigned optLevel,
                                         bool lineInfo, std::string &error);

} // namespace tilec

#endif // TILEC_TOOLS_TILEC_PTXAS_H
