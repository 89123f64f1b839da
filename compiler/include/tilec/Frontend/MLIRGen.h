//===- MLIRGen.h - Typed AST to the tile dialect ----------------*- C++ -*-===//
//
// Emits one func.func in the tile dialect per specialized kernel, every op
// located at its .tile source line and column.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_MLIRGEN_H
#define TILEC_FRONTEND_MLIRGEN_H

#include "tilec/Frontend/Sema.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace tilec {

/// Function attribute: the kernel's warps per program (from its decorator or
/// the command line).
constexpr llvm::StringLiteral kNumWarpsFuncAttr = "tile.num_warps";

/// Emits a module holding one kernel function per instance. Reports what it
/// cannot express through `diag` and returns null then.
mlir::OwningOpRef<mlir::ModuleOp>
generateMLIR(mlir::MLIRContext &context,
             llvm::ArrayRef<std::unique_ptr<KernelInstance>> kernels,
             DiagnosticEngine &diag);

} // namespace tilec

#endif // TILEC_FRONTEND_MLIRGEN_H
