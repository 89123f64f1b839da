//===- PTX.h - LLVM IR and PTX from the LLVM dialect ------------*- C++ -*-===//
//
// The last stage: translate the LLVM-dialect module to LLVM IR for the NVPTX
// target, optimize it, and let the NVPTX backend print PTX.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_PTX_H
#define TILEC_TARGET_PTX_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <string>

namespace mlir::tilec {

/// The GPU a module is compiled for.
struct TargetOptions {
  /// sm_80, sm_90 or sm_90a.
  std::string arch = "sm_90";
  /// PTX ISA version times ten (80 = PTX 8.0).
  unsigned ptxVersion = 80;
  /// libdevice.10.bc to link when the module calls libdevice; empty: search
  /// the usual places (see Libdevice.h).
  std::string libdevicePath;
  /// Whether a multiply and an add may be contracted into one fma, as
  /// Triton's enable_fp_fusion (on by default there and here).
  bool fpFusion = true;
  /// LLVM's optimization level, 0 to 3 (tilec -O; 3 by default): the IR
  /// pipeline (O0's or the per-module default one) and the NVPTX code
  /// generator's level.
  unsigned optLevel = 3;
  /// Whether the PTX carries `.loc` lines back into the source (tilec
  /// -lineinfo, the default; -g0 drops them).
  bool lineInfo = true;
};

/// The targets tilec compiles for, from Ampere to Hopper.
inline constexpr llvm::StringLiteral kSupportedArchs =
    "sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a";

/// True when `arch` names a supported target (one of kSupportedArchs).
bool isSupportedArch(llvm::StringRef arch);

/// Translates `module` (LLVM + NVVM dialects) into an LLVM IR module with the
/// NVPTX triple and data layout, with the libdevice functions it calls linked
/// in, optimized at O3. Errors are reported through
/// the module's diagnostics; returns null on failure.
std::unique_ptr<llvm::Module> translateToLLVMIR(ModuleOp module,
                                                llvm::LLVMContext &context,
                                                const TargetOptions &options);

/// Compiles an LLVM IR module to PTX text with the NVPTX backend. Returns an
/// empty optional (after emitting an error at `loc`) on failure.
std::optional<std::string>
compileToPTX(llvm::Module &module, const TargetOptions &options, Location loc);

} // namespace mlir::tilec

#endif // TILEC_TARGET_PTX_H
