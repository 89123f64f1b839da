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

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tilec {

/// Op attribute (i64): the byte offset of the op's scratch buffer in the
/// kernel's shared memory, set by the allocation pass.
constexpr llvm::StringLiteral kScratchOffsetAttr = "tilegpu.scratch_offset";

/// Function attribute (i64): the kernel's total shared memory in bytes, set
/// by the allocation pass and written to the metadata.
constexpr llvm::StringLiteral kSharedBytesAttr = "tilegpu.shared_bytes";

/// Alignment, in bytes, of every shared-memory buffer; buffer sizes are
/// rounded up to it.
constexpr int64_t kSharedBufferAlignment = 16;

/// Alignment, in bytes, of the buffers that wgmma reads through matrix
/// descriptors (its 128-byte swizzle repeats every 1024 bytes of address),
/// and of the dynamic shared-memory array itself.
constexpr int64_t kSwizzleAtomAlignment = 1024;

/// The alignment `op`'s shared-memory buffer needs: kSwizzleAtomAlignment
/// for slots of tiles (tilegpu.local_alloc) and for the operands a wgmma dot
/// (MMA version 3) stages, kSharedBufferAlignment otherwise (mbarrier slots
/// included).
int64_t getScratchAlignment(Operation *op);

/// Bytes one element of `type` (or of its elements, for a tensor) takes in
/// shared memory: pointers 8, i1 1, otherwise the bit width / 8.
int64_t getElementBytes(Type type);

/// Bytes of shared-memory scratch that `op`'s lowering uses (0 when it needs
/// none), rounded up to kSharedBufferAlignment. The lowerings rely on these
/// exact sizes (before rounding):
///  - tilegpu.convert_layout, tile.trans, tile.reshape: every element of the
///    source (convert_layout: 0 when source and result types are equal);
///  - tile.reduce: per source, elemBytes * max(1, elements of its result) *
///    num_warps rounded up to kScratchSourceAlignment bytes; 0 when the source has a blocked layout whose warps do not
///    split the axis (min(warpsPerCTA[axis], max(1, shape[axis] /
///    (sizePerThread[axis] * threadsPerWarp[axis]))) == 1), where the
///    lowering combines within warps only;
///  - tile.scan: per source, getScanScratchElements elements, each source's
///    part rounded up to kScratchSourceAlignment bytes (0 in all when that
///    count is 0);
///  - tile.histogram: 4 bytes per bin (element of the result);
///  - tile.dot: the elements of a and b, at a's element size, except
///    operands in a dot operand layout (read from registers; with a wgmma
///    accumulator, MMA version 3, only operands read from slots by
///    tilegpu.local_load are not staged);
///  - tile.atomic_rmw / tile.atomic_cas: 8 on a scalar pointer, 0 on tiles;
///  - tilegpu.local_alloc: every slot of its memdesc.
/// The buffer lives only during `op`, but a local_alloc's until its last
/// user (for the whole loop when that user is in one).
int64_t getScratchBytes(Operation *op);

/// The segments of each row along the axis of a scan whose source has a
/// blocked layout: distinct warps along the axis times the repetitions of
/// the layout's CTA tile along it. The lowering scans each segment with
/// registers and shuffles and combines the segments through scratch (one
/// slot each per row). 0 for a source in any other layout.
int64_t getScanSegments(tile::ScanOp scan);

/// Bytes each source's part of a scan's or a reduction's scratch is rounded
/// up to, so that the next source's part is aligned for any element type
/// (an argmax's i32 indices after its i8 values).
constexpr int64_t kScratchSourceAlignment = 8;

/// Elements of each source that a scan's lowering keeps in scratch: on a
/// blocked source one per row and segment (rows = elements / shape[axis]),
/// or none with a single segment; on any other layout the whole tile.
int64_t getScanScratchElements(tile::ScanOp scan);

/// A buffer's lifetime: the inclusive range of positions, in the pre-order
/// numbering of a function's ops (OpNumbering), during which its bytes are
/// in use.
struct Interval {
  int64_t start = 0, end = 0;
  /// True when the two lifetimes share a position.
  bool overlaps(const Interval &other) const {
    return start <= other.end && other.start <= end;
  }
};

/// A buffer to place: its size, its lifetime and the alignment of its
/// offset (a multiple of kSharedBufferAlignment).
struct BufferRequest {
  int64_t bytes = 0;
  Interval lifetime;
  int64_t alignment = kSharedBufferAlignment;
};

/// Gives each of `buffers` a byte offset, a multiple of its alignment, so
/// that buffers whose lifetimes overlap occupy
/// disjoint bytes and the others may share them: largest first, each at the
/// lowest offset that fits beside the already placed buffers it is live
/// with. Returns the offsets (in the order of `buffers`) and, in `total`,
/// the bytes the placement spans.
llvm::SmallVector<int64_t> assignOffsets(llvm::ArrayRef<BufferRequest> buffers,
                                         int64_t &total);

/// Pre-order positions of the operations under a root (a function), and the
/// lifetimes of buffers from where they are defined and used.
class OpNumbering {
public:
  explicit OpNumbering(Operation *root);

  /// `op`'s position (every op under the root has one).
  int64_t getPosition(Operation *op) const { return position.lookup(op); }

  /// The last position inside `op`'s regions (`op`'s own when it has none).
  int64_t getLastPositionWithin(Operation *op) const {
    return lastWithin.lookup(op);
  }

  /// The lifetime of a buffer written at `def` and accessed by `users`:
  /// from `def` to its last user, where a user inside a loop that does not
  /// also contain `def` keeps the buffer alive during that whole loop (a
  /// later iteration reads it again). A scratch buffer, whose only user is
  /// its op, lives exactly during that op.
  Interval getLifetime(Operation *def, llvm::ArrayRef<Operation *> users) const;

private:
  llvm::DenseMap<Operation *, int64_t> position, lastWithin;
};

/// A placed shared-memory buffer.
struct SharedBuffer {
  Operation *owner = nullptr; ///< The op whose lowering uses the buffer.
  int64_t bytes = 0;          ///< Size, a multiple of the alignment.
  Interval lifetime;          ///< When its bytes are in use.
  int64_t offset = 0;         ///< Byte offset in the shared-memory array.
};

/// The shared-memory allocation of one function: every op's scratch buffer
/// (getScratchBytes), each a buffer that lives during its op only, and the
/// slots of every tilegpu.local_alloc, which live until their last user
/// (OpNumbering::getLifetime), placed by assignOffsets.
class SharedMemoryAllocation {
public:
  explicit SharedMemoryAllocation(Operation *function);

  /// The buffers in program order.
  llvm::ArrayRef<SharedBuffer> getBuffers() const { return buffers; }

  /// Total bytes of shared memory the function needs.
  int64_t getSharedBytes() const { return sharedBytes; }

  /// The largest buffer, or null when there is none.
  const SharedBuffer *getLargestBuffer() const;

private:
  llvm::SmallVector<SharedBuffer> buffers;
  int64_t sharedBytes = 0;
};

/// The contract between the allocation pass and the lowerings of the ops
/// that use scratch:
///  - the pass records each such op's byte offset (kScratchOffsetAttr) and
///    the function's total (kSharedBytesAttr); the lowering addresses its
///    buffer with getScratchBase and may use its getScratchBytes bytes;
///  - a lowering puts a barrier between its own threads' writes to its
///    buffer and their reads of other threads' elements, and leaves no
///    barrier after its last read;
///  - the pass puts a `tile.barrier` before every scratch op whose bytes
///    an earlier scratch op (before it in program order, or in a previous
///    iteration of an enclosing loop) may still be reading with no barrier
///    in between. The lowering therefore never needs a leading barrier.

} // namespace mlir::tilec

#endif // TILEC_ANALYSIS_ALLOCATION_H
