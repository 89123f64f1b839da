//===- TensorMap.h - Which accesses the tensor memory accelerator moves -*- C++ -*-===//
//
// A load or store of a tensor descriptor's or block pointer's tile may name
// a tensor map (tile.load / tile.store `tma` operands). Whether the tensor
// memory accelerator may move the tile through it depends on where the map
// comes from (a host descriptor's kernel parameter, or a tile.make_tensormap
// of the same parts), on what the axis info proves of its base and strides,
// and on its box matching tilec's swizzled slots. tilegpu-pipeline (loads)
// and tilegpu-tma-store (stores) ask here.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_ANALYSIS_TENSORMAP_H
#define TILEC_ANALYSIS_TENSORMAP_H

#include "tilec/Analysis/AxisInfo.h"

#include <optional>

namespace mlir::tilec {

/// What the copies need of the tensor map an access names.
struct TensorMapInfo {
  ArrayRef<int64_t> box; ///< Outermost dimension first.
  int64_t swizzle;       ///< Bytes.
  /// Whether the map's innermost dimension is the tile's dimension 0 (its
  /// copies use slots that hold the tile transposed).
  bool transposed = false;
  /// The stride of the map's innermost dimension, which must be 1.
  Value innerStride;
};

/// The tensor map `tensormap` through which the tensor memory accelerator
/// may move a tile whose descriptor parts (base, shapes, strides) the access
/// read as `parts`, or nothing:
///  - a host descriptor's map (a kernel parameter, sm_90), when `parts` are
///    the parameters the map was encoded from (a.base, a.shape<d>,
///    a.stride<d> just before it);
///  - with `deviceMaps` (sm_90a), a tile.make_tensormap of exactly those
///    parts (or with both dimensions swapped: `transposed`) that is not
///    inside `outside` (when given: a loop whose copies run ahead), when the
///    base and the outer stride are known to be multiples of 16 bytes (the
///    map needs them so); `elementBytes` is the tile's element size.
std::optional<TensorMapInfo> getTensorMapInfo(Value tensormap, ValueRange parts,
                                              int64_t elementBytes, Operation *outside,
                                              const ModuleAxisInfo &axisInfo,
                                              bool deviceMaps);

/// Whether copies through `map` fill or drain a slot holding the 2-D tile
/// `type` of 16-bit elements exactly: the innermost stride is the constant
/// 1, and the box and swizzle are the slot's panels of rows of at most 128
/// bytes (SwizzledSharedEncodingAttr::getForLdmatrix and emitSwizzledOffset;
/// transposed slots for a transposed map).
bool fitsSlotPanels(const TensorMapInfo &map, RankedTensorType type);

/// `value` without the tile.hint ops around it.
Value stripHints(Value value);

} // namespace mlir::tilec

#endif // TILEC_ANALYSIS_TENSORMAP_H
