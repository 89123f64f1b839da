//===- GlobalScratch.h - Per-program global memory of a kernel --*- C++ -*-===//
//
// Some ops need global memory of their own in each program: a tensor map
// made in the kernel (tile.make_tensormap) lives in global memory, where the
// tensor memory accelerator reads it. Such a kernel takes one more
// parameter, last: a buffer of `bytes per program` times the grid's
// programs, which the runtime allocates at each launch (the metadata's
// "global_scratch_bytes").
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_TILEGPUTOLLVM_GLOBALSCRATCH_H
#define TILEC_CONVERSION_TILEGPUTOLLVM_GLOBALSCRATCH_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tilec {

/// Bytes of global scratch a tensor map takes (its 128 bytes, at the
/// 128-byte alignment the tensor memory accelerator reads fastest).
constexpr int64_t kTensorMapScratchBytes = 128;

/// Gives each tile.make_tensormap of kernel `func` its offset in the
/// program's global scratch (kGlobalScratchAttr: [offset, bytes per
/// program]), and `func` the scratch parameter (`!llvm.ptr<1>`, last), its
/// bytes per program (kGlobalScratchBytesAttr) and PTX ISA 8.3 at least
/// (tensormap.replace); nothing when it has no such op.
void assignGlobalScratch(func::FuncOp func);

/// The start of `op`'s global scratch in the calling program (an
/// `!llvm.ptr<1>`), in a kernel that assignGlobalScratch gave its
/// parameter; null after an error at `op` otherwise.
Value getGlobalScratch(Location loc, RewriterBase &rewriter, Operation *op);

/// LLVM function attribute (decimal digits) that carries a kernel's global
/// scratch bytes per program to the metadata writer.
constexpr llvm::StringLiteral kGlobalScratchFnAttr = "tilec-global-scratch-bytes";

/// Moves `func`'s bytes per program (assignGlobalScratch) into its LLVM IR
/// attributes as kGlobalScratchFnAttr; nothing when it has none.
void recordGlobalScratchBytes(LLVM::LLVMFuncOp func);

} // namespace mlir::tilec

#endif // TILEC_CONVERSION_TILEGPUTOLLVM_GLOBALSCRATCH_H
