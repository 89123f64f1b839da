//===- SharedMemory.h - Shared memory in the LLVM lowering ------*- C++ -*-===//
//
// The kernel's dynamic shared memory (one module-level `extern __shared__`
// array) and the barriers that order accesses to it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_TILEGPUTOLLVM_SHAREDMEMORY_H
#define TILEC_CONVERSION_TILEGPUTOLLVM_SHAREDMEMORY_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tilec {

/// An `!llvm.ptr<3>` to the start of `op`'s scratch buffer (the dynamic
/// shared-memory array plus the op's `tilegpu.scratch_offset`). Reports an
/// error at `op` and returns null when the allocation pass has not run.
Value getScratchBase(Location loc, RewriterBase &rewriter, Operation *op);

/// Emits a barrier across all threads of the program (`bar.sync 0`).
void emitBarrier(Location loc, RewriterBase &rewriter);

/// Emits `fence.proxy.async.shared::cta` (sm_90): the calling thread's
/// earlier shared-memory writes become visible to wgmma's reads after the
/// next barrier.
void emitAsyncProxyFence(Location loc, RewriterBase &rewriter);

/// LLVM function attribute (a string of decimal digits) that carries a
/// kernel's dynamic shared-memory bytes from the allocation pass to the
/// metadata writer, through LLVM IR; the NVPTX backend ignores it.
constexpr llvm::StringLiteral kSharedBytesFnAttr = "tilec-shared-bytes";

/// Moves `func`'s `tilegpu.shared_bytes` (from the allocation pass) into its
/// LLVM IR attributes as kSharedBytesFnAttr; does nothing when it has none.
void recordSharedBytes(LLVM::LLVMFuncOp func);

} // namespace mlir::tilec

#endif // TILEC_CONVERSION_TILEGPUTOLLVM_SHAREDMEMORY_H
