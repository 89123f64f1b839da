//===- Allocation.h - Shared-memory buffers and their offsets ---*- C++ -*-===//
//
// Which operations need shared memory and how much, and the assignment of
// byte offsets to those buffers from their lifetimes. The allocation pass
// (tilegpu-allocate-shared-memory) records the result as attributes that
// the LLVM lowering reads.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_ANALYSIS_ALLOCATION_H
#define TILEC_ANALYSIS_ALLOCATION_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tilec {

/// Op attribute (i64): the byte offset of the op's scratch buffer in the
/// kernel's shared memory, set by the allocation pass.
constexpr llvm::StringLiteral kScratchOffsetAttr = "tilegpu.scratch_offset";

/// Function attribute (i64): the kernel's total shared memory in bytes, set
/// by the allocation pass and written to the metadata.
constexpr llvm::StringLiteral kSharedBytesAttr = "tilegpu.shared_bytes";

/// Bytes of shared-memory scratch that `op`'s lowering uses (0 when it needs
/// none): layout conversions, transposes and reshapes, reductions across
/// threads, scans, and dot operands. The buffer lives only during `op`.
int64_t getScratchBytes(Operation *op);

} // namespace mlir::tilec

#endif // TILEC_ANALYSIS_ALLOCATION_H
