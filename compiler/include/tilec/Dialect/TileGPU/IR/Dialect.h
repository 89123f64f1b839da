//===- Dialect.h - The tilegpu dialect --------------------------*- C++ -*-===//
//
// Declarations of the tilegpu dialect, its layout encodings and operations.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_DIALECT_H
#define TILEC_DIALECT_TILEGPU_IR_DIALECT_H

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include <algorithm>
#include <optional>

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUTypes.h.inc"

#define GET_OP_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUOps.h.inc"

namespace mlir::tilegpu {

/// Gives every ranked tensor under `root` (results, block arguments,
/// constants and function signatures) the encoding `encodingFor` returns for
/// it; a null attribute leaves that tensor as it is.
void rewriteTensorEncodings(
    Operation *root, function_ref<Attribute(RankedTensorType)> encodingFor);

/// The blocked layout of a tensor type, or null when it has none.
BlockedEncodingAttr getBlockedEncoding(Type type);

/// The layout (encoding) of a tensor type, or null for scalars and tensors
/// without one.
Attribute getLayout(Type type);

/// `type` (a ranked tensor) with its shape and element type and the layout
/// `layout`.
RankedTensorType withLayout(Type type, Attribute layout);

/// Makes `operand` (a tensor) have the layout `layout`, through a
/// convert_layout placed before its owner, unless it has it already.
void convertOperand(OpOperand &operand, Attribute layout);

/// Whether `layout` spreads a tile's elements over threads in a way the
/// helpers below understand: a blocked, MMA or dot operand layout, or a
/// slice of one (nested slices included).
bool isDistributedLayout(Attribute layout);

/// Whether `layout` is a tensor-core layout (MMA accumulator or dot operand)
/// or a slice of one: layouts that only products, their operands and
/// elementwise math on them take, never memory accesses or reductions.
bool isTensorCoreLayout(Attribute layout);

/// Rank of the tensors a distributed layout describes (0 for any other
/// attribute).
unsigned getLayoutRank(Attribute layout);

/// Elements of a tile of `shape` in the distributed `layout` that each thread
/// holds: the size of the per-thread struct in the LLVM lowering. A slice
/// holds exactly the registers of its parent for the parent shape (the slice
/// shape with a 1 inserted at the sliced dimension).
int64_t getTotalElemsPerThread(Attribute layout, ArrayRef<int64_t> shape);

/// Elements along each dimension that one layout tile covers (a blocked
/// layout's CTA tile; an MMA layout's [16 * warps, 8 * warps]; a dot
/// operand's parent CTA tile along M or N and one instruction's K): a tile
/// smaller than this along a dimension wraps around. Not for slices.
SmallVector<int64_t> getTileExtent(Attribute layout);

/// How a blocked or MMA accumulator layout spreads one dimension of a tile
/// over a thread's registers, the lanes of a warp and the warps: what a
/// reduction along that dimension combines at each level.
struct DimDistribution {
  int64_t perThread = 1;  ///< Elements along it a lane holds in one lane tile.
  int64_t lanes = 1;      ///< Lanes along it.
  int64_t laneStride = 1; ///< Stride of the lane's coordinate in the lane id.
  int64_t warps = 1;      ///< Warps along it.
  int64_t warpStride = 1; ///< Stride of the warp's coordinate in the warp id.
  int64_t warpExtent = 1; ///< Elements along it one warp covers.

  /// Lanes that hold distinct elements of a tile `size` long along it.
  int64_t getDistinctLanes(int64_t size) const {
    return std::min(lanes, std::max<int64_t>(1, size / perThread));
  }
  /// Warps that hold distinct elements of a tile `size` long along it.
  int64_t getDistinctWarps(int64_t size) const {
    return std::min(warps, std::max<int64_t>(1, size / warpExtent));
  }
};

/// The distribution of dimension `dim` in `layout` (blocked, or an MMA
/// accumulator layout); nullopt for any other layout.
std::optional<DimDistribution> getDimDistribution(Attribute layout,
                                                  unsigned dim);

/// Whether converting a tile of type `src` to type `dst` moves nothing: an
/// MMA accumulator tile (mma.sync with every warp along M, or wgmma) of
/// 16-bit elements with whole 16x16 tiles, into the a operand layout of a
/// product with the same MMA layout. Each thread's registers already are the
/// a fragments, in the same order (two adjacent 16x8 accumulator tiles are
/// one 16x16 a tile; wgmma's register a has mma.sync's fragments).
bool isRegisterConversion(RankedTensorType src, RankedTensorType dst);

/// Whether several threads hold copies of the same element of a tile of
/// `shape` in the distributed `layout` (the tile is smaller than the layout's
/// CTA tile along some dimension); emitOwnerPredicate then tells the owner.
bool isReplicated(Attribute layout, ArrayRef<int64_t> shape);

/// The dimensions of a distributed layout from fastest to slowest varying
/// (for a slice: the parent's order without the sliced dimension, later
/// dimensions renumbered).
SmallVector<unsigned> getLayoutOrder(Attribute layout);

/// Consecutive elements one thread holds along each dimension of a tile of
/// `shape` (a slice: its parent's, the sliced dimension dropped). Never more
/// than `shape[d]`.
SmallVector<int64_t> getContigPerThread(Attribute layout,
                                        ArrayRef<int64_t> shape);

} // namespace mlir::tilegpu

#endif // TILEC_DIALECT_TILEGPU_IR_DIALECT_H
