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

/// Alignment, in bytes, of every shared-memory buffer (and of the dynamic
/// shared-memory array itself); buffer sizes are rounded up to it.
constexpr int64_t kSharedBufferAlignment = 16;

/// Bytes one element of `type` (or of its elements, for a tensor) takes in
/// shared memory: pointers 8, i1 1, otherwise the bit width / 8.
int64_t getElementBytes(Type type);

/// Bytes of shared-memory scratch that `op`'s lowering uses (0 when it needs
/// none), rounded up to kSharedBufferAlignment. The lowerings rely on these
/// exact sizes (before rounding):
///  - tilegpu.convert_layout, tile.trans, tile.reshape: every element of the
///    source (convert_layout: 0 when source and result types are equal);
///  - tile.reduce: per source, elemBytes * max(1, elements of its result) *
///    num_warps;
///  - tile.scan: every element of every source;
///  - tile.dot: the elements of a and b, at a's element size;
///  - tile.atomic_rmw / tile.atomic_cas: 8 on a scalar pointer, 0 on tiles.
/// The buffer lives only during `op`.
int64_t getScratchBytes(Operation *op);

} // namespace mlir::tilec

#endif // TILEC_ANALYSIS_ALLOCATION_H
