//===- ExternalFunctions.h - Calls to functions outside the kernel -*- C++
//-*-===//
//
// Declarations of the external functions the lowering calls: NVIDIA's
// libdevice math (`__nv_*`, linked in by the PTX target) and the CUDA
// driver's device runtime (`vprintf`, `__assertfail`).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_TILEGPUTOLLVM_EXTERNALFUNCTIONS_H
#define TILEC_CONVERSION_TILEGPUTOLLVM_EXTERNALFUNCTIONS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tilec {

/// The suffix a kernel's symbol carries through the LLVM dialect and LLVM IR
/// when its name could be that of an external function (`__nv_*`,
/// `vprintf`, `__assertfail`); the PTX target restores the name after
/// linking libdevice (restoreKernelNames in Target/PTX.h).
constexpr llvm::StringLiteral kRenamedKernelSuffix = "$kernel";

/// True if `name` is one the lowering may declare as an external function.
bool isExternalFunctionName(StringRef name);

/// The `llvm.func` named `name` in the module that holds `anchor`, declared
/// (with external linkage) at the top of that module if it is not there yet.
LLVM::LLVMFuncOp getOrDeclareFunction(RewriterBase &rewriter, Operation *anchor,
                                      StringRef name,
                                      LLVM::LLVMFunctionType type);

/// Calls the external function `name` of result type `result` (void when
/// null) with `args`, declaring it first if needed. Returns the call's
/// result, or null for a void function.
Value callExternalFunction(Location loc, RewriterBase &rewriter,
                           Operation *anchor, StringRef name, Type result,
                           ValueRange args);

/// A module-level constant holding `text` with a terminating NUL, named
/// after `prefix` (made unique), and a generic (address space 0) pointer
/// to its first character.
Value getGlobalString(Location loc, RewriterBase &rewriter, Operation *anchor,
                      StringRef prefix, StringRef text);

} // namespace mlir::tilec

#endif // TILEC_CONVERSION_TILEGPUTOLLVM_EXTERNALFUNCTIONS_H
